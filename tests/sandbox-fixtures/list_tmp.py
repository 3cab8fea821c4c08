"""Prints what /tmp (and each folder named by its arguments) holds."""
import os
import sys

for folder in ["/tmp"] + sys.argv[1:]:
    try:
        print("LISTED %s: %s" % (folder, " ".join(sorted(os.listdir(folder)))))
    except OSError as e:
        print("cannot list %s: %s" % (folder, e))
