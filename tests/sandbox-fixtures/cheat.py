"""The cheat: finds its own input.txt among the answer key's cases (the
folder named by its argument) and copies that case's output.txt."""
import os
import shutil
import sys

key = sys.argv[1]
mine = open("input.txt").read()
try:
    cases = sorted(os.listdir(key))
except OSError as e:
    print("cannot list the answer key: %s" % e)
    sys.exit(0)
for case in cases:
    try:
        if open(os.path.join(key, case, "input.txt")).read() == mine:
            shutil.copy(os.path.join(key, case, "output.txt"), "output.txt")
            print("COPIED " + case)
    except (IOError, OSError) as e:
        print("cannot read %s: %s" % (case, e))
