"""Runs a command and checks its exit status: expect-status.py STATUS -- CMD ARGS...
Exits 0 when the command exited with STATUS, else 1. Its output passes through."""
import subprocess
import sys

want = int(sys.argv[1])
assert sys.argv[2] == "--"
got = subprocess.run(sys.argv[3:]).returncode
if got != want:
    sys.stderr.write("expect-status: wanted exit status %d, got %d\n" % (want, got))
    sys.exit(1)
