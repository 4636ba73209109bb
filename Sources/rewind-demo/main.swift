import Recorder

print("rewind-demo: regenerates sample-logs/ (not yet written)")
