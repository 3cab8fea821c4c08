"""Fills its disk quota and then cleans up before it answers: files of
64 MiB (each until EFBIG, or ENOSPC) until the quota is full, then empty
files until none may be made, then every one of them deleted, and then the
right answer written by the textbook program whose path it is given. Says
how far it got on standard output."""
import errno
import os
import runpy
import sys

block = b"x" * (1 << 20)
made = []
full = False
while not full:
    name = "fill%d.bin" % len(made)
    made.append(name)
    with open(name, "wb", buffering=0) as f:
        try:
            while True:
                f.write(block)
        except OSError as e:
            # EFBIG: this file is at its 64 MiB; ENOSPC: the quota is full.
            full = e.errno != errno.EFBIG
files = 0
try:
    while True:
        name = "empty%d" % files
        open(name, "w").close()
        made.append(name)
        files += 1
except OSError as e:
    print("FILLED %d files of 64 MiB and %d empty ones: %s" % (len(made) - files, files, e))
for name in made:
    try:
        os.remove(name)
    except OSError:
        pass
sys.stdout.flush()
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
