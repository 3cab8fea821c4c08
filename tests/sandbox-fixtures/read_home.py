"""Prints every file it can read in the home folder (and in the folders
named by its arguments): a secret there would reach the report."""
import os
import sys

for folder in [os.environ.get("HOME", "/root")] + sys.argv[1:]:
    try:
        names = os.listdir(folder)
    except OSError as e:
        print("cannot list %s: %s" % (folder, e))
        continue
    for name in names:
        try:
            with open(os.path.join(folder, name)) as f:
                print("READ %s: %s" % (name, f.read()))
        except (IOError, OSError) as e:
            print("cannot read %s: %s" % (name, e))
