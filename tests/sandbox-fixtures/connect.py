"""Connects to the loopback port named by its argument and says whether
it could."""
import socket
import sys

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.settimeout(2)
try:
    s.connect(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"escaped")
    print("CONNECTED")
except (IOError, OSError) as e:
    print("cannot connect: %s" % e)
