import Recorder

print("rewind-bench: benchmarks (not yet written)")
