"""The right answer, after printing a trace of many megabytes on standard
output and standard error."""
import sys

from textbook import Homework

line = "considering a move " * 50 + "\n"
for _ in range(20000):
    sys.stdout.write(line)
for _ in range(5000):
    sys.stderr.write(line)
sys.stdout.write("the last line of the trace\n")
Homework().main()
