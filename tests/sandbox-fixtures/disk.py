"""Tries to write 2 GiB in files of 64 MiB, by turns in its case folder and
in /tmp, says how much went through, and waits a second (for the test to
look at the machine's free space) before it fails."""
import os
import sys
import time

block = b"x" * (1 << 20)
written = 0
try:
    for i in range(32):
        folder = "." if i % 2 == 0 else os.environ.get("TMPDIR", "/tmp")
        with open(os.path.join(folder, "fill%d.bin" % i), "wb") as f:
            for _ in range(64):
                f.write(block)
                written += len(block)
    print("WROTE ALL %d" % written)
except (IOError, OSError) as e:
    print("STOPPED after %d bytes: %s" % (written, e))
sys.stdout.flush()
time.sleep(1)
sys.exit(1)
