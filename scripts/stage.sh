#!/usr/bin/env bash
# Runs one stage of `make test` and writes down how long it took, so every
# run says where its time went (docs/TESTING.md keeps the figures).
#
#   scripts/stage.sh NAME COMMAND [ARG ...]   run a stage, time it
#   scripts/stage.sh --background NAME COMMAND [ARG ...]
#                                             start a stage at the lowest CPU
#                                             priority beside the next ones
#   scripts/stage.sh --wait NAME              wait for it, print its output
#   scripts/stage.sh --begin                  forget the last run's times
#   scripts/stage.sh --summary                print this run's table
#
# A background stage only takes what the stages in front leave idle (the
# UI tests mostly wait for windows): `nice -n 19` gives the CPU to them
# whenever they want it.
#
# A stage that fails prints the table so far and what the failed run kept
# for a person to look at (screenshots, app and server logs), then exits
# with the stage's status.
set -uo pipefail
cd "$(dirname "$0")/.."
times=.build/test-stages.tsv
begun=.build/test-stages.begun
mkdir -p .build

summary() {
  [ -f "$times" ] || return 0
  echo
  echo "== stage times (seconds) =="
  # A background stage's time is part of the stages it ran beside.
  awk -F'\t' '{ printf "  %-28s %6d  %s\n", $1, $2, $3; if ($3 !~ /background/) total += $2 }
               END { printf "  %-28s %6d\n", "total", total }' "$times"
  [ -f "$begun" ] && echo "  wall clock since the first stage: $(( $(date +%s) - $(cat "$begun") )) s"
  return 0
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

background=.build/stage-background
case "${1:-}" in
  --begin) rm -rf "$times" "$background" Tests/ui/out/failures.txt; date +%s > "$begun"; exit 0 ;;
  --summary) summary; exit 0 ;;
  --background)
    name=$2
    shift 2
    mkdir -p "$background"
    echo "== stage $name (in the background): $*"
    (
      start=$(date +%s)
      nice -n 19 "$@" > "$background/$name.log" 2>&1
      echo "$? $(( $(date +%s) - start ))" > "$background/$name.done"
    ) </dev/null >/dev/null 2>&1 &
    exit 0 ;;
  --wait)
    name=$2
    [ -d "$background" ] || { echo "no background stage $name" >&2; exit 2; }
    while [ ! -f "$background/$name.done" ]; do sleep 1; done
    read -r status seconds < "$background/$name.done"
    cat "$background/$name.log"
    if [ "$status" -eq 0 ]; then
      printf '%s\t%s\tok (in the background)\n' "$name" "$seconds" >> "$times"
      echo "== stage $name: passed in ${seconds} s (in the background)"
    else
      printf '%s\t%s\tFAILED (exit %s)\n' "$name" "$seconds" "$status" >> "$times"
      echo "== stage $name: FAILED (exit $status) after ${seconds} s (in the background)"
      summary
      kept
    fi
    exit "$status" ;;
  ""|-*) echo "usage: $0 NAME COMMAND [ARG ...] | --background NAME COMMAND [ARG ...] | --wait NAME | --begin | --summary" >&2; exit 2 ;;
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
