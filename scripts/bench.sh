#!/usr/bin/env bash
# `make bench`: builds in release mode, generates the standard benchmark
# sketch (5,000 strokes × 60 points, seed 1) as .xopp, and prints every
# figure on its own line as `NAME: VALUE UNIT`. Build output and notes go to
# stderr, so stdout holds only figures. docs/PERFORMANCE.md explains each one.
#
# Environment:
#   BENCH_RUNS          timed runs per whole-process figure (default 11; median)
#   BENCH_SCRATCH_PATH  SwiftPM scratch path for the release build (default .build)
#   BENCH_KEEP          keep the work folder (generated sketch, outputs)
#   BENCH_BIN           measure this TeamsketchDesktop instead of building one
#                       (its TeamsketchTools, which runs the benchmarks, beside it)
#   BENCH_MEM_RUNS      runs of the 12-s memory comparison with Xournal++ (default 3; median)
#   BENCH_SESSION_SECONDS  length of the 4-peer LAN session run (default 300, the issue's 5 minutes)
#   BENCH_WALL_SECONDS     length of each class wall run, 8 groups of 4 (default 60)
#   BENCH_SCHOOL_SECONDS   length of the 120-pupil school server load run (default 60)
#   BENCH_SCHOOL_DATABASES which databases the school server runs on (default "sqlite postgres")
#   BENCH_GALLERY_SKETCHES sketches in the teacher's grid benchmark (default 500, the issue's number)
#   BENCH_RELAY_GROUPS     groups of 4 drawing through the school server's relay (default 30)
#   BENCH_RELAY_SECONDS    length of the relay run (default 60)
#   BENCH_RENDER_SIGNINS   teacher sign-ins timed while 4 pupils have big sketches drawn (default 30)
#   BENCH_CLASS_PAGES      times the web gallery's class page is asked for after a school year (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${BENCH_RUNS:-11}
SCRATCH=()
if [[ -n "${BENCH_SCRATCH_PATH:-}" ]]; then SCRATCH=(--scratch-path "$BENCH_SCRATCH_PATH"); fi

note() { echo "bench: $*" >&2; }
figure() { echo "$1: $2 $3"; }

if [[ -n "${BENCH_BIN:-}" ]]; then
    BIN=$BENCH_BIN
else
    note "building release…"
    # The app only: the shared test helpers use @testable imports, which a
    # release build of every target refuses.
    swift build -c release "${SCRATCH[@]}" --product TeamsketchDesktop >&2
    swift build -c release "${SCRATCH[@]}" --product TeamsketchTools >&2
    swift build -c release "${SCRATCH[@]}" --product TeamsketchServer >&2
    BIN="$(swift build -c release "${SCRATCH[@]}" --show-bin-path)/TeamsketchDesktop"
fi
SERVER_BIN=${BENCH_SERVER_BIN:-$(dirname "$BIN")/TeamsketchServer}
# The benchmarks and the generated sketch; the app itself is BIN.
TOOLS=$(dirname "$BIN")/TeamsketchTools

WORK=$(mktemp -d /tmp/teamsketch-bench.XXXXXX)
cleanup() {
    if [[ -z "${BENCH_KEEP:-}" ]]; then rm -rf "$WORK"; else note "kept $WORK"; fi
}
trap cleanup EXIT
# The app and the CLI must never touch the user's own sketch store.
export XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" XDG_CACHE_HOME="$WORK/cache"

SKETCH="$WORK/bench-5000x60.xopp"
"$TOOLS" generate --strokes 5000 --points 60 --seed 1 "$SKETCH"
figure sketch_file_size "$(( $(stat -c %s "$SKETCH") / 1024 ))" KiB

# Wall times of commands run in turns (A, B, A, B, …) after one untimed
# warm-up run each (which also proves they work), so a change in the
# machine's load hits both alike. Uses bash's own clock: no process is
# started around the timed one. Prints one median in ms per command.
# Usage: interleaved_medians CMD_A -- CMD_B (CMD_B optional)
interleaved_medians() {
    local a=() b=() seen_sep=
    for arg in "$@"; do
        if [[ "$arg" == -- && -z "$seen_sep" ]]; then seen_sep=1; continue; fi
        if [[ -z "$seen_sep" ]]; then a+=("$arg"); else b+=("$arg"); fi
    done
    if ! "${a[@]}" >"$WORK/last.out" 2>"$WORK/last.err"; then
        note "failed: ${a[*]}"; sed 's/^/  /' "$WORK/last.err" >&2; return 1
    fi
    if ((${#b[@]})) && ! "${b[@]}" >"$WORK/last.out" 2>"$WORK/last.err"; then
        note "failed: ${b[*]}"; sed 's/^/  /' "$WORK/last.err" >&2; return 1
    fi
    local ta=() tb=() i
    for ((i = 0; i < RUNS; i++)); do
        ta+=("$(wall_ms "${a[@]}")")
        if ((${#b[@]})); then tb+=("$(wall_ms "${b[@]}")"); fi
    done
    median "${ta[@]}"; echo
    if ((${#tb[@]})); then median "${tb[@]}"; echo; fi
}

# Wall time of one run, in ms.
wall_ms() {
    local start end
    start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    end=$EPOCHREALTIME
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", (e - s) * 1000 }'
}

median() {
    printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 }
        END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f", m }'
}

# --- Export: whole process, ours vs Xournal++, same file, same size -------
OURS=("$BIN" export --width 1600 "$SKETCH" "$WORK/ours.png")
if ! command -v xournalpp >/dev/null; then
    note "xournalpp is not installed (apt-get install xournalpp): no comparison"
    figure export_png_ours "$(interleaved_medians "${OURS[@]}")" ms
    figure export_png_xournalpp n/a ms
else
    XOURNALPP=(xournalpp)
    # Xournal++ 1.1.3 exports without a display; older builds may want one.
    if [[ -z "${DISPLAY:-}" ]] && ! xournalpp --create-img="$WORK/probe.png" "$SKETCH" >/dev/null 2>&1; then
        XOURNALPP=(xvfb-run -a xournalpp)
    fi
    THEIRS=("${XOURNALPP[@]}" --create-img="$WORK/xournalpp.png" --export-png-width=1600 "$SKETCH")
    mapfile -t both < <(interleaved_medians "${OURS[@]}" -- "${THEIRS[@]}")
    figure export_png_ours "${both[0]}" ms
    figure export_png_xournalpp "${both[1]}" ms
    figure export_speedup "$(awk -v a="${both[1]}" -v b="${both[0]}" 'BEGIN { printf "%.1f", a / b }')" x
fi

# --- In process: import, full redraw at 1× and 3×, one incremental segment --
"$TOOLS" bench --file "$SKETCH" --runs "$RUNS"

# --- The app: start-up to the first drawn frame, peak memory -------------
# Needs the GUI, so it runs on a private virtual display.
if ! "$BIN" --help 2>/dev/null | grep -q -- "--quit-after-first-frame" \
    && ! "$BIN" run --help 2>/dev/null | grep -q -- "--quit-after-first-frame"; then
    note "this build has no --quit-after-first-frame: start-up and memory skipped"
    figure startup_first_frame_with_sketch n/a ms
    figure peak_rss_with_sketch n/a MB
elif [[ -z "${DISPLAY:-}" ]] && ! command -v xvfb-run >/dev/null; then
    note "xvfb-run is not installed (apt-get install xvfb): start-up and memory skipped"
    figure startup_first_frame_with_sketch n/a ms
    figure peak_rss_with_sketch n/a MB
elif [[ -n "${DISPLAY:-}" ]]; then
    scripts/bench-app.sh "$BIN" "$SKETCH" "$RUNS" "$WORK"
else
    xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" scripts/bench-app.sh "$BIN" "$SKETCH" "$RUNS" "$WORK"
fi

# --- LAN session: 4 peers over loopback, each drawing at 240 samples/s -----
note "LAN session for ${BENCH_SESSION_SECONDS:-300} s…"
"$TOOLS" bench-session --seconds "${BENCH_SESSION_SECONDS:-300}"

# --- The class wall: 8 groups of 4 drawing at 240 samples/s, one watcher ---
# In process: the wall's watchers and painting on a thread of their own
# (segment-to-frame latency, that thread's CPU); then the real app's wall
# under Xvfb watching `draw-groups` (the app's CPU, frame gaps, memory).
note "the class wall with 8 groups for ${BENCH_WALL_SECONDS:-60} s…"
"$TOOLS" bench-wall --groups 8 --seconds "${BENCH_WALL_SECONDS:-60}"
"${PYTHON:-/usr/bin/python3}" scripts/bench-wall-app.py "$BIN" "$TOOLS" "$WORK" 8 "${BENCH_WALL_SECONDS:-60}"

# --- The store: saving one finished stroke, synced (power-cut safe) or not --
# In the work folder, i.e. on the disk /tmp is on.
"$TOOLS" bench-store --dir "$WORK"

# --- The teacher's sketch grid: 500 sketches by 24 pupils ------------------
# A store of 500 sketches (no stored thumbnails, as they arrive synced from
# the school server) and the pupils' drawn pictures: listing, filtering,
# each sketch's digest and the pictures, timed in process; then the app
# under Xvfb scrolls the grid from the first sketch to the last and back
# with the mouse wheel (its frame times, CPU and memory).
GALLERY="$WORK/gallery"
mkdir -p "$GALLERY"
note "the teacher's sketch grid with ${BENCH_GALLERY_SKETCHES:-500} sketches…"
"$TOOLS" bench-gallery --dir "$GALLERY" --sketches "${BENCH_GALLERY_SKETCHES:-500}"
"${PYTHON:-/usr/bin/python3}" scripts/bench-gallery-scroll.py "$BIN" "$GALLERY" "${BENCH_GALLERY_SKETCHES:-500}"

# --- The school server: a 10,000-op push and pull, and a school's load -----
# The release server on each database, on loopback, from a fresh database.
# Figures are prefixed with the database: school_sqlite_…, school_postgres_….
# The release server on a fresh database with the bench's teacher, on a
# free loopback port: sets `port` and `pid` for the caller.
start_server() {
    local location=$1 password=$2 log=$3
    echo "$password" | "$SERVER_BIN" create-teacher "Bench Teacher" --database "$location" >/dev/null
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "$SERVER_BIN" serve --host 127.0.0.1 --port "$port" --database "$location" --no-announce >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/v1/health" >/dev/null && break; sleep 0.1; done
}

school_bench() {
    local db=$1 location port pid password=bench-school-password
    case "$db" in
        sqlite) location="$WORK/school-$db.sqlite" ;;
        postgres) location=$(scripts/test-postgres.sh start) || return 1 ;;
    esac
    start_server "$location" "$password" "$WORK/school-$db.log"
    note "school server on $db: push and pull, then ${BENCH_SCHOOL_SECONDS:-60} s of 120 pupils…"
    TEAMSKETCH_PASSWORD=$password "$TOOLS" bench-school --server "http://127.0.0.1:$port" --teacher "Bench Teacher" \
        --dir "$WORK" --ops 10000 --clients 120 --seconds "${BENCH_SCHOOL_SECONDS:-60}" | sed "s/^/school_${db}_/"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    if [[ "$db" == postgres ]]; then scripts/test-postgres.sh stop; fi
}
for db in ${BENCH_SCHOOL_DATABASES:-sqlite postgres}; do school_bench "$db"; done

# --- Sessions through the school server's relay: 30 groups of 4 ------------
# The release server on SQLite (the relay keeps nothing in the database),
# the groups and their members in one process; beside it, the same
# process's LAN session figures above (session_latency_…).
relay_bench() {
    local port pid password=bench-relay-password location="$WORK/relay.sqlite"
    start_server "$location" "$password" "$WORK/relay-server.log"
    note "relay: ${BENCH_RELAY_GROUPS:-30} groups of 4 for ${BENCH_RELAY_SECONDS:-60} s…"
    TEAMSKETCH_PASSWORD=$password "$TOOLS" bench-relay --server "http://127.0.0.1:$port" --teacher "Bench Teacher" \
        --groups "${BENCH_RELAY_GROUPS:-30}" --seconds "${BENCH_RELAY_SECONDS:-60}"
    kill "$pid"; wait "$pid" 2>/dev/null || true
}
relay_bench

# --- Signing in while the server draws: 4 pupils, big sketches --------------
# The release server on SQLite; four pupils ask for full-size images of
# sketches at the ink budget without end (a stroke added before each, so
# none comes from the cache) while the teacher signs in 30 times.
render_bench() {
    local port pid password=bench-render-password location="$WORK/render.sqlite"
    start_server "$location" "$password" "$WORK/render-server.log"
    note "sign-in while 4 pupils have big sketches drawn…"
    TEAMSKETCH_PASSWORD=$password "$TOOLS" bench-render --server "http://127.0.0.1:$port" --teacher "Bench Teacher" \
        --clients 4 --sign-ins "${BENCH_RENDER_SIGNINS:-30}"
    kill "$pid"; wait "$pid" 2>/dev/null || true
}
render_bench

# --- The web gallery's class page after a school year ----------------------
# The release server on SQLite; 30 pupils with 4,000 Buchstaben Post rounds
# each, made through the API, then the teacher's class page and a pupil's
# page asked for again and again.
class_page_bench() {
    local port pid password=bench-class-password location="$WORK/class.sqlite"
    start_server "$location" "$password" "$WORK/class-server.log"
    note "the gallery's class page after a school year (120,000 rounds)…"
    python3 scripts/bench-gallery-class.py "$port" "Bench Teacher" "$password" "${BENCH_CLASS_PAGES:-30}"
    kill "$pid"; wait "$pid" 2>/dev/null || true
}
class_page_bench
