#!/usr/bin/env bash
# Lays out a course's Gradescope autograder in DIR, ready to zip (`cd DIR && zip -r ../a.zip .`):
#   docs/gradescope/make-zip.sh advance|chess-a1|network|planetwars|pente DIR [--no-src]
# setup.sh and run_autograder of the course, lib/ (what the five share), the course's wrappers,
# its corpus and golden answers (as corpus/... and golden/..., the repository's layout), and
# arbiter-src/, a copy of the repository (HEAD; outside git, the folder) that setup.sh builds:
# left out by --no-src, for a machine that has arbiter on PATH.
set -euo pipefail
course=${1:?usage: make-zip.sh COURSE DIR [--no-src]}
out=${2:?usage: make-zip.sh COURSE DIR [--no-src]}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ -f "$here/$course/run_autograder" ] || { echo "make-zip.sh: no course $course in $here" >&2; exit 2; }
mkdir -p "$out"
cp "$here/$course/setup.sh" "$here/$course/run_autograder" "$out/"
cp -r "$here/lib" "$out/"
case $course in
  advance)
    mkdir -p "$out/wrappers" "$out/corpus" "$out/golden"
    cp -r "$here/advance/python" "$here/advance/java" "$here/advance/csharp" "$out/wrappers/"
    cp -r "$repo"/corpus/grade[4-7] "$repo/corpus/marking-profile.json" "$out/corpus/"
    cp -r "$repo"/golden/grade[4-7] "$out/golden/" ;;
  chess-a1|network)
    mkdir -p "$out/corpus" "$out/golden"
    cp -r "$repo/corpus/$course" "$out/corpus/"
    cp -r "$repo/golden/$course" "$out/golden/" ;;
  planetwars|pente) ;; # graded by games alone: the profile is built in, no case is read
esac
if [ "${3:-}" != --no-src ]; then
  if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$repo" archive --prefix=arbiter-src/ HEAD | tar x -C "$out"
  else # a copy of the repository without git: the folder as it is, builds and the zip left out
    out_abs=$(cd "$out" && pwd)
    mkdir -p "$out/arbiter-src"
    tar -C "$repo" --exclude=./target --exclude=./.git --exclude="./${out_abs#"$repo"/}" -cf - . |
      tar x -C "$out/arbiter-src"
  fi
fi
