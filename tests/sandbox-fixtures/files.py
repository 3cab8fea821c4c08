"""Tries to make 10,000 empty files in its case folder, says how many it
made, and fails."""
import sys

made = 0
try:
    for i in range(10000):
        open("f%d" % i, "w").close()
        made += 1
    print("MADE ALL %d" % made)
except (IOError, OSError) as e:
    print("STOPPED after %d files: %s" % (made, e))
sys.exit(1)
