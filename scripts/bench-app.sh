#!/usr/bin/env bash
# Start-up and memory figures of the GUI, for scripts/bench.sh; needs a
# display (bench.sh provides a virtual one). Usage: BIN SKETCH RUNS WORKDIR
# Each scenario runs RUNS + 1 times; the first is a warm-up (font and icon
# caches) and is not counted. The app's own `first-frame: N ms` is measured
# from the top of main.swift to the end of the first painted frame.
set -euo pipefail
BIN=$1 SKETCH=$2 RUNS=$3 WORK=$4

note() { echo "bench: $*" >&2; }
figure() { echo "$1: $2 $3"; }
median() {
    printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 }
        END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f", m }'
}

export GDK_BACKEND=x11 NO_AT_BRIDGE=1
# The app's own store, inside the work folder, emptied before every run.
export XDG_DATA_HOME="$WORK/appdata"

# measure SUFFIX [app arguments…]: startup_first_frame, startup_process_wall
# and peak RSS for one way of starting the app.
measure() {
    local suffix=$1; shift
    local frames=() rss=() walls=() i start end frame
    for ((i = 0; i <= RUNS; i++)); do
        # A fresh store each run: opening a file saves it there.
        rm -rf "$WORK/appdata"
        start=$EPOCHREALTIME
        if ! /usr/bin/time -f "maxrss_kb=%M" -o "$WORK/time.txt" \
            "$BIN" "$@" --quit-after-first-frame >"$WORK/app.out" 2>"$WORK/app.err"; then
            note "the app failed ($*):"; sed 's/^/  /' "$WORK/app.err" "$WORK/app.out" >&2; return 1
        fi
        end=$EPOCHREALTIME
        ((i == 0)) && continue
        frame=$(sed -n 's/^first-frame: *\([0-9.]*\) *ms.*/\1/p' "$WORK/app.out" | head -1)
        [[ -n "$frame" ]] && frames+=("$frame")
        rss+=("$(sed -n 's/^maxrss_kb=//p' "$WORK/time.txt")")
        walls+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", (e - s) * 1000 }')")
    done
    if ((${#frames[@]} == 0)); then
        note "the app printed no 'first-frame: N ms' line"
        figure "startup_first_frame$suffix" n/a ms
    else
        figure "startup_first_frame$suffix" "$(median "${frames[@]}")" ms
    fi
    figure "startup_process_wall$suffix" "$(median "${walls[@]}")" ms
    figure "peak_rss$suffix" "$(awk -v k="$(median "${rss[@]}")" 'BEGIN { printf "%.0f", k / 1024 }')" MB
}

# rss_after SECONDS COMMAND…: resident memory (MB) of the process COMMAND
# starts, SECONDS after starting it; the process is then ended.
rss_after() {
    local secs=$1 kb pid; shift
    "$@" >"$WORK/rss.out" 2>&1 &
    pid=$!
    sleep "$secs"
    kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if [[ -z "$kb" ]]; then note "$1 ended before ${secs} s:"; sed 's/^/  /' "$WORK/rss.out" >&2; return 1; fi
    awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }'
}

# Memory held with the sketch open: ours and Xournal++ in turns on the same
# display, each read 12 s after it started (the sketch shown, start-up over).
measure_open_memory() {
    local ours=() theirs=() i
    if ! command -v xournalpp >/dev/null; then note "xournalpp is not installed: no memory comparison"; fi
    for ((i = 0; i < ${BENCH_MEM_RUNS:-3}; i++)); do
        rm -rf "$WORK/appdata"
        ours+=("$(rss_after 12 "$BIN" --open-file "$SKETCH")")
        if command -v xournalpp >/dev/null; then theirs+=("$(rss_after 12 xournalpp "$SKETCH")"); fi
    done
    figure rss_12s_with_sketch "$(median "${ours[@]}")" MB
    if ((${#theirs[@]})); then figure rss_12s_xournalpp "$(median "${theirs[@]}")" MB; else figure rss_12s_xournalpp n/a MB; fi
}

measure _empty
measure _with_sketch --open-file "$SKETCH"
measure_open_memory
