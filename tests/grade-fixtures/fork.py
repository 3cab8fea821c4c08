"""Forks a helper that sleeps for a minute, writes the right answer and
exits, leaving the helper behind. The helper's pid is appended to the file
named by the first argument."""
import os
import sys
import time

from textbook import Homework

pid = os.fork()
if pid == 0:
    time.sleep(60)
    os._exit(0)
with open(sys.argv[1], "a") as f:
    f.write("%d\n" % pid)
Homework().main()
