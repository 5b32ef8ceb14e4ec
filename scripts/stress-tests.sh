#!/usr/bin/env bash
# Runs the suites whose passing could depend on timing again and again
# while a CPU hog keeps both cores busy, and counts how often each passed:
# a test that fails here one run in twenty fails CI one day in twenty.
#
#   scripts/stress-tests.sh N [UI_N] [SUITE ...]
#
# N runs of each Swift suite, UI_N (default N) of each UI/network one.
# Suites (default: all):
#   relay         the relay over HTTP and HTTPS (RelayTests, RelayOfferTests, TLSTests)
#   loopback      sessions over loopback TCP (LearnNetTests, the relay's upgrade included)
#   multiprocess  two server processes on one database (MultiProcessRelayTests)
#   sync          desktop sync against the in-process server (SyncTests, DesktopSyncTests, DesktopGradeSyncTests)
#   server        every other school-server test, both databases (SchoolServerTests less the relay's)
#   sync-faults   the real server and app killed half-way (Tests/net/test_sync_faults.py)
#   ui-net        real apps over the network: LAN sessions, relay join, DNS-SD
#                 (Tests/net, the together/lobby/relay UI tests)
#
# The hog is `stress-ng --cpu 2` (Debian's; installed when missing). A
# failed run's output is kept in .build/stress/SUITE-RUN.log; the table at
# the end says "SUITE: P passed, F failed" for each suite.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${1:-}
[[ $runs =~ ^[0-9]+$ ]] && ((runs > 0)) || { echo "usage: $0 N [UI_N] [SUITE ...]" >&2; exit 2; }
shift
ui_runs=$runs
if [[ ${1:-} =~ ^[0-9]+$ ]]; then ui_runs=$1; shift; fi
all=(relay loopback multiprocess sync server sync-faults ui-net)
suites=("$@")
((${#suites[@]})) || suites=("${all[@]}")

scripts/deps.sh stress || exit 1
make --no-print-directory build || exit 1
swift build --build-tests || exit 1

out=.build/stress
rm -rf "$out"
mkdir -p "$out"
hog=
cleanup() {
  [ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
  scripts/test-postgres.sh stop
}
trap cleanup EXIT
url=$(scripts/test-postgres.sh start) || exit 1
export TEAMSKETCH_TEST_POSTGRES=$url

ui_tests=(Tests/net/test_discovery.py Tests/net/test_relay.py Tests/net/test_server_announce.py Tests/net/test_http10.py
          Tests/ui/test_relay_join.py Tests/ui/test_together.py Tests/ui/test_wordpost_together.py
          Tests/ui/test_headless_peers.py Tests/ui/test_lobby_full_join.py Tests/ui/test_lobby_watchers.py
          Tests/ui/test_lobby_flood.py Tests/ui/test_session_sign.py)

suite_command() {
  case $1 in
    relay) echo swift test --skip-build --filter "'RelayTests|RelayOfferTests|TLSTests'" --skip MultiProcessRelayTests ;;
    loopback) echo swift test --skip-build --filter LearnNetTests ;;
    multiprocess) echo swift test --skip-build --filter MultiProcessRelayTests ;;
    sync) echo swift test --skip-build --filter "'SchoolServerTests.SyncTests|DesktopSyncTests|DesktopGradeSyncTests'" ;;
    server) echo swift test --skip-build --filter SchoolServerTests --skip "'Relay|TLSTests|SyncTests'" ;;
    sync-faults) echo /usr/bin/python3 -m pytest -q -p no:cacheprovider Tests/net/test_sync_faults.py ;;
    ui-net) echo /usr/bin/python3 -m pytest -q -p no:cacheprovider "${ui_tests[@]}" ;;
    *) return 1 ;;
  esac
}

for suite in "${suites[@]}"; do
  suite_command "$suite" >/dev/null || { echo "unknown suite '$suite' (known: ${all[*]})" >&2; exit 2; }
done

stress-ng --cpu 2 --quiet >/dev/null 2>&1 &
hog=$!
echo "stress: stress-ng --cpu 2 running (pid $hog); $runs Swift runs, $ui_runs UI/network runs per suite"

declare -A passed failed seconds
for suite in "${suites[@]}"; do
  n=$runs
  [[ $suite == sync-faults || $suite == ui-net ]] && n=$ui_runs
  passed[$suite]=0 failed[$suite]=0
  start=$(date +%s)
  command=$(suite_command "$suite")
  for ((i = 1; i <= n; i++)); do
    log="$out/$suite-$i.log"
    if eval "$command" >"$log" 2>&1; then
      passed[$suite]=$((passed[$suite] + 1))
      rm -f "$log"
      echo "stress: $suite run $i passed"
    else
      failed[$suite]=$((failed[$suite] + 1))
      echo "stress: $suite run $i FAILED (kept $log):"
      grep -E "✘|FAILED|Error|timed out" "$log" | head -5 | sed 's/^/    /'
    fi
  done
  seconds[$suite]=$(( $(date +%s) - start ))
done

echo
echo "stress results under stress-ng --cpu 2 ($(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)):"
total_failed=0
for suite in "${suites[@]}"; do
  printf '%s: %d passed, %d failed  (%d s)\n' "$suite" "${passed[$suite]}" "${failed[$suite]}" "${seconds[$suite]}"
  total_failed=$((total_failed + failed[$suite]))
done
((total_failed == 0))
