#!/usr/bin/env bash
# Grades one small class twice, on the machine as it is and beside CPU burners that leave each
# bot about a fifth of a processor, and compares the two: the gradebooks (all but the
# wall_seconds column) and every game, move for move. A verdict must not depend on the load
# (docs/LIMITS.md); this shows whether it does.
#
# The class: an Advance bot that burns a known amount of CPU time (about 0.65 s a move, under
# --timeout 1) and then plays arbiter's grade-7 move; two Pente agents that look at a fixed
# number of positions a move (3000 and 30000: fast and slow, the same moves on any machine);
# and, when --network DIR is given, a Network MachinePlayer submission (a folder of Java
# sources), graded with --timeout 5.
#
# Each burner is a busy loop in a cgroup of its own (the cgroup v1 `cpu` hierarchy, else cgroup
# v2 with its `cpu` controller), as other graders' jobs and containers are: the kernel shares the
# processors between cgroups, so plain processes would not take a sandboxed bot's share. Needs
# root (or a delegated cgroup) for that; without it the loaded phase is skipped.
#
# Usage: scripts/measure-load.sh [--arbiter PATH] [--work DIR] [--network DIR] [--share F]
#                                [--jobs N] [--games N] [--cases N]
# Example (a few minutes idle, about five times that loaded):
#   cargo build --release
#   scripts/measure-load.sh --network /path/to/cs61b-network --work /tmp/measure
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
arbiter="$repo/target/release/arbiter"
work=""
network=""
share=0.2
jobs=2
games=2
cases=4
while [ $# -gt 0 ]; do
    case "$1" in
        --arbiter) arbiter="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --network) network="$2"; shift 2 ;;
        --share) share="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --games) games="$2"; shift 2 ;;
        --cases) cases="$2"; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$arbiter" ] || { echo "no arbiter at $arbiter: cargo build --release, or --arbiter PATH" >&2; exit 2; }
arbiter="$(cd "$(dirname "$arbiter")" && pwd)/$(basename "$arbiter")"
[ -n "$work" ] || work="$(mktemp -d /tmp/measure-load.XXXXXX)"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
echo "work folder: $work"

# --- the class -------------------------------------------------------------------------------
# The first N cases of each category of a corpus.
subset() {
    local from="$1" to="$2" n="$3"
    rm -rf "$to"
    for category in "$from"/*/; do
        for side in "$category"*/; do
            [ -d "$side" ] || continue
            local dest="$to/$(basename "$category")/$(basename "$side")"
            mkdir -p "$dest"
            find "$side" -maxdepth 1 -name '*.txt' | sort | head -n "$n" | while read -r f; do cp "$f" "$dest/"; done
        done
    done
}

rm -rf "$work/advance" "$work/pente" "$work/network"
mkdir -p "$work/advance/class/burner" "$work/pente/class/fast" "$work/pente/class/slow"
cp "$here/load-bots/burn.py" "$work/advance/class/burner/"
# The bot runs arbiter's grade-7 bot after its burn: a copy in its own folder, which the sandbox
# lets it run.
strip -o "$work/advance/class/burner/arbiter-bot" "$arbiter" 2>/dev/null || cp "$arbiter" "$work/advance/class/burner/arbiter-bot"
printf '#!/bin/sh\nexec python3 "$(dirname "$0")/burn.py" "$(dirname "$0")/arbiter-bot" "$@"\n' > "$work/advance/class/burner/run"
subset "$repo/corpus" "$work/advance/corpus" "$cases"
rm -rf "$work/advance/corpus/examples" "$work/advance/corpus/chess-a1" "$work/advance/corpus/network" \
    "$work/advance/corpus/pente" "$work/advance/corpus/planetwars"
for agent in fast:3000 slow:30000; do
    name="${agent%%:*}"
    cp "$here/load-bots/pente_agent.py" "$work/pente/class/$name/"
    printf '#!/bin/sh\nexec python3 "$(dirname "$0")/pente_agent.py" %s\n' "${agent##*:}" > "$work/pente/class/$name/run"
done
chmod +x "$work"/*/class/*/run
if [ -n "$network" ]; then
    mkdir -p "$work/network/class"
    cp -r "$network" "$work/network/class/$(basename "$network")"
    subset "$repo/corpus/network" "$work/network/corpus" "$cases"
fi

# --- burners ---------------------------------------------------------------------------------
burner_pids=()
burner_dirs=()
stop_burners() {
    for pid in "${burner_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${burner_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    for dir in "${burner_dirs[@]}"; do rmdir "$dir" 2>/dev/null || true; done
    burner_pids=()
    burner_dirs=()
}
trap stop_burners EXIT

# Where a cgroup with the cpu controller can be made: the v1 cpu hierarchy, else cgroup v2.
cpu_parent() {
    local v1 v2
    v1="$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)"
    if [ -n "$v1" ] && [ -w "$v1" ]; then echo "$v1"; return; fi
    v2="$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)"
    if [ -n "$v2" ] && [ -w "$v2" ]; then
        grep -qw cpu "$v2/cgroup.subtree_control" || echo +cpu > "$v2/cgroup.subtree_control" 2>/dev/null || return 1
        echo "$v2"
    fi
}

start_burners() {
    local parent n cores
    parent="$(cpu_parent)" || return 1
    [ -n "$parent" ] || return 1
    cores="$(nproc)"
    # Each of `jobs` bots, in a cgroup of its own, shares the cores with n burners.
    n="$(python3 -c "import math; print(max(1, math.ceil($cores / $share) - $jobs))")"
    for i in $(seq 1 "$n"); do
        local dir="$parent/measure-load-burner-$$-$i"
        mkdir "$dir" || return 1
        burner_dirs+=("$dir")
        sh -c 'while :; do :; done' &
        burner_pids+=("$!")
        echo "$!" > "$dir/cgroup.procs" || return 1
    done
    echo "$n burners, each in a cgroup of its own under $parent"
}

# --- grading ---------------------------------------------------------------------------------
grade_all() {
    local phase="$1"
    local out="$work/$phase"
    rm -rf "$out"
    mkdir -p "$out"
    local start end
    {
        echo "load before: $(cut -d' ' -f1-4 /proc/loadavg)"
        start=$(date +%s.%N)
        "$arbiter" grade "$work"/advance/class/* --corpus "$work/advance/corpus" --reports "$out/advance" \
            --timeout 1 --jobs "$jobs" --quiet > /dev/null
        end=$(date +%s.%N); echo "advance wall $(python3 -c "print(round($end - $start, 1))") s"
        start=$end
        "$arbiter" --game pente grade "$work"/pente/class/* --profile csci561 --games "$games" \
            --reports "$out/pente" --jobs "$jobs" --quiet > /dev/null
        end=$(date +%s.%N); echo "pente wall $(python3 -c "print(round($end - $start, 1))") s"
        if [ -n "$network" ]; then
            start=$end
            "$arbiter" --game network grade "$work"/network/class/* --corpus "$work/network/corpus" \
                --reports "$out/network" --timeout 5 --games "$games" --jobs "$jobs" --quiet > /dev/null
            end=$(date +%s.%N); echo "network wall $(python3 -c "print(round($end - $start, 1))") s"
        fi
        echo "load after: $(cut -d' ' -f1-4 /proc/loadavg)"
    } | tee "$out/timings.txt"
}

echo "== idle (as the machine is: $(cut -d' ' -f1-3 /proc/loadavg) load)"
grade_all idle
echo "== loaded"
if start_burners; then
    grade_all loaded
    stop_burners
else
    echo "no cgroup with the cpu controller can be made here: loaded phase skipped"
    exit 0
fi

# --- comparison ------------------------------------------------------------------------------
python3 - "$work" <<'PY'
import csv, json, os, sys
work = sys.argv[1]

def rows(path):
    with open(path, newline="") as f:
        return {r["submission"]: r for r in csv.DictReader(f)}

def games(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json") and (name.startswith("games") or name == "games.json"):
            for g in json.load(open(os.path.join(folder, name))):
                out[(name, g["number"])] = (g["moves"], g["result"], g["ending"])
    return out

def wall_cpu(report):
    r = json.load(open(report))
    wall = sum(c.get("elapsed_ms", 0) for c in r["cases"]) / 1000
    cpu = sum(c.get("cpu_ms") or 0 for c in r["cases"]) / 1000
    return wall, cpu, r

same_all = True
for game in ("advance", "pente", "network"):
    idle, loaded = os.path.join(work, "idle", game), os.path.join(work, "loaded", game)
    if not os.path.isdir(idle):
        continue
    a, b = rows(os.path.join(idle, "gradebook.csv")), rows(os.path.join(loaded, "gradebook.csv"))
    for sub in sorted(a):
        ra, rb = a[sub], b.get(sub, {})
        strip = lambda r: {k: v for k, v in r.items() if k != "wall_seconds"}
        same_row = strip(ra) == strip(rb)
        ga, gb = games(os.path.join(idle, sub)), games(os.path.join(loaded, sub))
        same_games = sum(1 for k in ga if gb.get(k) == ga[k])
        moves = sum(len(v[0]) for v in ga.values())
        wa, ca, _ = wall_cpu(os.path.join(idle, sub, "report.json"))
        wb, cb, rep = wall_cpu(os.path.join(loaded, sub, "report.json"))
        timeout = 1.0 if game == "advance" else 5.0
        over = [c for c in rep["cases"] if c.get("elapsed_ms", 0) > (3 * timeout + 1) * 1000]
        same_all &= same_row and same_games == len(ga)
        print(f"{game:8} {sub:22} score {ra['score']:>6} / {rb.get('score', '?'):>6}  row {'same' if same_row else 'DIFFERENT'}"
              f"  games {same_games}/{len(ga)} identical ({moves} moves)"
              f"  timeouts {ra['timeouts']}/{rb.get('timeouts')} crashes {ra['crashes']}/{rb.get('crashes')}"
              f"  wall {ra['wall_seconds']} / {rb.get('wall_seconds')} s"
              f"  cases: cpu {ca:.1f}/{cb:.1f} s, wall {wa:.1f}/{wb:.1f} s, {len(over)} past the old 3x+1 s cap")
        if not same_row:
            for k in ra:
                if k != "wall_seconds" and ra[k] != rb.get(k):
                    print(f"    {k}: {ra[k]!r} / {rb.get(k)!r}")
print("SAME gradebooks and games" if same_all else "DIFFERENCES: see above")
PY
