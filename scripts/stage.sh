#!/usr/bin/env bash
# Runs one stage of `make test` and writes down how long it took, so every
# run says where its time went (docs/TESTING.md keeps the figures).
#
#   scripts/stage.sh NAME COMMAND [ARG ...]   run a stage, time it
#   scripts/stage.sh --begin                  forget the last run's times
#   scripts/stage.sh --summary                print this run's table
#
# A stage that fails prints the table so far and what the failed run kept
# for a person to look at (screenshots, app and server logs), then exits
# with the stage's status.
set -uo pipefail
cd "$(dirname "$0")/.."
times=.build/test-stages.tsv
mkdir -p .build

summary() {
  [ -f "$times" ] || return 0
  echo
  echo "== stage times (seconds) =="
  awk -F'\t' '{ printf "  %-28s %6d  %s\n", $1, $2, $3; total += $2 } END { printf "  %-28s %6d\n", "total", total }' "$times"
}

kept() {
  # What the UI and network tests kept of their failures (conftest.py
  # lists it), and the Swift tests' full log.
  if [ -s Tests/ui/out/failures.txt ]; then
    echo
    echo "== kept for the failed UI/network tests =="
    cat Tests/ui/out/failures.txt
  fi
  [ -s .build/swift-test.log ] && echo "  Swift test log: $(pwd)/.build/swift-test.log"
  return 0
}

case "${1:-}" in
  --begin) rm -f "$times" Tests/ui/out/failures.txt; exit 0 ;;
  --summary) summary; exit 0 ;;
  ""|-*) echo "usage: $0 NAME COMMAND [ARG ...] | --begin | --summary" >&2; exit 2 ;;
esac

name=$1
shift
echo "== stage $name: $*"
start=$(date +%s)
"$@"
status=$?
seconds=$(( $(date +%s) - start ))
if [ $status -eq 0 ]; then
  printf '%s\t%s\tok\n' "$name" "$seconds" >> "$times"
  echo "== stage $name: passed in ${seconds} s"
else
  printf '%s\t%s\tFAILED (exit %s)\n' "$name" "$seconds" "$status" >> "$times"
  echo "== stage $name: FAILED (exit $status) after ${seconds} s"
  summary
  kept
fi
exit $status
