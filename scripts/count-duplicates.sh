#!/bin/sh
# Counts the pairs `duplicates --most 200` lists: all of them, and those between two games
# (src/games/A/... ~ src/games/B/... with A and B different). Issue 33's measure.
# Usage: scripts/count-duplicates.sh [FOLDER]   (default: this folder)
cd "${1:-.}" || exit 2
duplicates --most 200 --seconds 120 | awk '
  /^D[0-9]+ / { all++
    split($2, a, "/"); split($4, b, "/")
    if (a[1] == "src" && a[2] == "games" && b[1] == "src" && b[2] == "games" && a[3] != b[3]) between++ }
  /^incomplete/ { print }
  END { printf "pairs: %d, between two games: %d\n", all, between }'
