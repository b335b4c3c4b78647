# What every course's run_autograder shares; each one sources this file first.
#
# Gradescope runs run_autograder as root for every submission: the student's files are in
# /autograder/submission, the autograder zip in /autograder/source, and Gradescope reads
# /autograder/results/results.json when it ends. AUTOGRADER=DIR runs it on a copy of that layout
# (docs/GRADESCOPE.md, "Trying it"); GRADE_OPTIONS adds options to `arbiter grade` there (a
# trial with fewer games, say). Gradescope sets neither.
set -uo pipefail
AUTOGRADER=${AUTOGRADER:-/autograder}
SOURCE=$AUTOGRADER/source
SUBMISSION=$AUTOGRADER/submission
RESULTS=$AUTOGRADER/results
mkdir -p "$RESULTS"

# refuse TITLE [LOG]: the whole result is score 0 and TITLE (markdown), then the last 6000
# characters of LOG (a compiler's words) if given, then the files the student sent.
refuse() {
  python3 - "$1" "${2:-}" "$SUBMISSION" > "$RESULTS/results.json" <<'PY'
import json, os, sys
title, log, submission = sys.argv[1], sys.argv[2], sys.argv[3]
out = title + "\n"
if log:
    out += "\n```text\n" + open(log, errors="replace").read()[-6000:] + "\n```\n"
sent = sorted(os.path.relpath(os.path.join(d, f), submission)
              for d, _, files in os.walk(submission) for f in files)
out += "\nThe files you sent: " + (", ".join("`%s`" % f for f in sent[:50]) or "none") + "\n"
print(json.dumps({"score": 0, "output_format": "md", "output": out}))
PY
  [ -n "${2:-}" ] && cat "$2"
  echo "$1"
  exit 0
}

# build LOG-NAME COMMAND...: runs a build step; one that fails is the whole result, and the
# student sees the compiler's words.
build() {
  local log="$RESULTS/build.log"
  "$@" >> "$log" 2>&1 || refuse "**The build failed**, so no case could run:" "$log"
}

# wrapper NAME COMMAND: writes an executable NAME into the submission that runs COMMAND (words
# of the shell, `$HERE` the submission's folder) with the arguments arbiter gives it. No `cd`:
# file arguments are relative to the folder the bot is started in, not to this one.
wrapper() {
  printf '#!/bin/sh\nHERE=$(dirname "$0")\nexec %s "$@"\n' "$2" > "$SUBMISSION/$1"
  chmod +x "$SUBMISSION/$1"
}

# grade GAME FOLDER OPTION...: `arbiter grade` of FOLDER (the submission, or the folder in it
# that holds the bot) as a class of one, results.json copied where Gradescope reads it and the
# full report printed on stdout, which results.json makes visible to the staff only.
grade() {
  local game=$1 folder=$2
  shift 2
  # Without namespaces (Docker) each bot runs as a user of its own, which must read the folder.
  chmod -R o+rX "$SUBMISSION"
  cd "$SUBMISSION" || exit 1
  # shellcheck disable=SC2086 # GRADE_OPTIONS is words on purpose
  arbiter --game "$game" grade "$folder" \
    --reports "$RESULTS/arbiter" --sandbox auto --quiet "$@" ${GRADE_OPTIONS:-}
  local status=$?
  local reports
  reports="$RESULTS/arbiter/$(basename "$folder")"
  if [ -f "$reports/results.json" ]; then
    cp "$reports/results.json" "$RESULTS/results.json"
    cat "$reports/report.txt"
  else
    refuse "**The grader could not run** (arbiter exit status $status): ask the course staff, who see its words in the autograder's output."
  fi
  exit $status
}
