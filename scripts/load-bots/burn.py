"""An Advance bot for scripts/measure-load.sh: burns a fixed amount of work (ITERATIONS of a
loop, about 0.65 s of CPU time on a 2020s x86 core), then lets arbiter's grade-7 bot (given as
ARBITER) play the move. Its CPU cost is known, its moves are those of `arbiter bot --grade 7`."""
import os
import sys

ITERATIONS = 3_000_000

x = 0
for i in range(ITERATIONS):
    x = (x * 31 + i) & 0xFFFFFFFF
arbiter = os.environ.get("ARBITER_BIN") or sys.argv[1]
os.execv(arbiter, [arbiter, "bot", "--grade", "7"] + sys.argv[2:])
