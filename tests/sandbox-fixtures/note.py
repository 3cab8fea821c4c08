"""Looks for a note an earlier run left in its own folder, /tmp or
/dev/shm (saying FOUND for each), then tries to leave one in each (saying
LEFT or refused)."""
import os

name = "stakeraid-note-%s.txt" % os.environ.get("NOTE_TAG", "x")
own = os.path.dirname(os.path.abspath(__file__))
for folder in [own, "/tmp", "/dev/shm"]:
    path = os.path.join(folder, name)
    if os.path.exists(path):
        print("FOUND " + path)
    try:
        with open(path, "w") as f:
            f.write("note\n")
        print("LEFT " + path)
    except (IOError, OSError) as e:
        print("refused %s: %s" % (path, e))
