"""Leaves a daemon behind (a double fork and setsid) that sleeps for a
minute, then exits at once."""
import os
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)
    os._exit(0)
os.wait()
print("DAEMON LEFT")
