"""Shows the environment it was given everywhere a report could carry it:
every variable on standard output and in output.txt, and the one named by
its argument on the last line of standard error; then fails."""
import os
import sys

lines = ["%s=%s" % kv for kv in sorted(os.environ.items())]
print("\n".join(lines))
with open("output.txt", "w") as f:
    f.write("\n".join(lines) + "\n")
name = sys.argv[1]
sys.stderr.write("%s=%s\n" % (name, os.environ.get(name, "(not given)")))
sys.exit(1)
