"""What the client checks share: counting checks, and running the rewind executable under test."""

import os
import subprocess
import sys


class Checks:
    """Counts checks; a failed one is named on stderr, and `finish` exits 1 if any failed."""

    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, []

    def __call__(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failed.append(what)
            print("FAILED:", what, file=sys.stderr)

    def finish(self):
        print(f"{self.name}: {self.passed} passed, {len(self.failed)} failed")
        sys.exit(1 if self.failed else 0)


def arguments():
    """The rewind executable and the sample logs, from the command line, as absolute paths."""
    return os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def run(rewind, *arguments):
    """What the command line prints on standard output, and its exit status."""
    done = subprocess.run([rewind, *arguments], capture_output=True, text=True)
    return done.stdout, done.returncode


def damaged_copy(log, folder, name="damaged.jsonl"):
    """A copy of `log` whose line 4 (entry 3 of the sample logs) no longer matches its checksum."""
    with open(log) as source:
        lines = source.read().split("\n")
    lines[3] = lines[3].replace('"Call the bank"', '"Call the bonk"')
    path = os.path.join(folder, name)
    with open(path, "w") as target:
        target.write("\n".join(lines))
    return path
