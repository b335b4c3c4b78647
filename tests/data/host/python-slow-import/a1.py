"""A test submission that burns CPU time at import: its load is part of every case."""
import time

start = time.process_time()
while time.process_time() - start < 1.5:
    pass


def add(a, b):
    return a + b
