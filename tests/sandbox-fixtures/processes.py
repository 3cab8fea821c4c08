"""Starts 600 processes that each sleep for a minute."""
import os
import time

for i in range(600):
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
print("STARTED 600")
