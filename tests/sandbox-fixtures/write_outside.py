"""Tries to write a file at each path named by its arguments (outside its
case folder), says on standard output which writes went through, and
writes no output.txt."""
import sys

for path in sys.argv[1:]:
    try:
        with open(path, "w") as f:
            f.write("escaped\n")
        print("WROTE " + path)
    except (IOError, OSError) as e:
        print("refused %s: %s" % (path, e))
