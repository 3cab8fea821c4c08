"""Allocates 1.5 GiB and touches every page of it."""
size = 1536 << 20
block = bytearray(size)
for i in range(0, size, 4096):
    block[i] = 1
print("ALLOCATED")
