#!/usr/bin/env bash
# The UI tests (Tests/ui) and network tests (Tests/net) in three shards at
# once, each with its own Xvfb displays. They mostly wait for windows and
# screenshots, so three at a time take about a third as long.
#
#   scripts/ui-tests.sh [PYTEST ARG ...]
#
# Shards after the first run in network namespaces of their own, each
# with loopback and a made-up wired interface (as the machine has one)
# and a folder of X sockets of its own:
# sessions their apps host are announced, found and joined there, never by
# another shard's apps, and their ports on 127.0.0.1 are their own. X
# still reaches them through the display's socket file. Without root (no
# namespaces) the shards run one after the other.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
SHARDS=3

# Seconds each file took (docs/TESTING.md): the longest go first, each to
# the shard with the least so far. A file not listed counts 30 s.
declare -A took=(
  [Tests/ui/test_screen_sizes.py]=214 [Tests/ui/test_teacher_review.py]=110 [Tests/ui/test_accessibility.py]=94
  [Tests/ui/test_school_week.py]=160 [Tests/ui/test_teacher_journey.py]=88 [Tests/ui/test_teacher_pools.py]=110 [Tests/ui/test_profile.py]=74
  [Tests/net/test_server_announce.py]=60 [Tests/net/test_relay.py]=51 [Tests/ui/test_wordpost.py]=51
  [Tests/ui/test_sketch.py]=48 [Tests/net/test_sync_faults.py]=47 [Tests/ui/test_pupil_sign_in.py]=46
  [Tests/ui/test_teacher_class_archive.py]=42 [Tests/ui/test_teacher_grades.py]=40 [Tests/ui/test_session_sign.py]=36
  [Tests/ui/test_install.py]=27 [Tests/ui/test_lobby_watchers.py]=26 [Tests/net/test_discovery.py]=25
  [Tests/ui/test_teacher.py]=25 [Tests/ui/test_wordpost_limits.py]=24 [Tests/ui/test_teacher_classes.py]=21
  [Tests/ui/test_school_server.py]=20 [Tests/ui/test_relay_join.py]=19 [Tests/ui/test_kiosk.py]=18
  [Tests/ui/test_class_wall.py]=15 [Tests/ui/test_wordpost_together.py]=15 [Tests/ui/test_resources.py]=15
  [Tests/ui/test_together.py]=13 [Tests/ui/test_opening.py]=13 [Tests/ui/test_lobby_flood.py]=10
  [Tests/ui/test_sketch_full.py]=9 [Tests/ui/test_headless_peers.py]=8 [Tests/net/test_http10.py]=7
  [Tests/ui/test_lobby_full_join.py]=4 [Tests/ui/test_joiner_screen_size.py]=30 [Tests/ui/test_pupil_feedback.py]=16 [Tests/ui/test_first_run.py]=20
  [Tests/ui/test_teacher_deleted.py]=72 [Tests/ui/test_picture_help.py]=30 [Tests/ui/test_assigned_word_list.py]=10
  [Tests/ui/test_teacher_people.py]=50 [Tests/net/test_server_metrics.py]=5 [Tests/net/test_server_backup.py]=5 [Tests/net/test_server_service.py]=3
)
# Run alone, after the shards: a journey of three apps and a server at
# once (test_school_week) slowed the shards beside it, and shared its
# shard's accessibility bus with the next module (test_class_wall, in a
# fresh-clone run of af180ca, found no app on the bus).
alone=(Tests/ui/test_school_week.py)
declare -a files load
for ((i = 0; i < SHARDS; i++)); do files[i]="" load[i]=0; done
while read -r seconds file; do
  best=0
  for ((i = 1; i < SHARDS; i++)); do ((load[i] < load[best])) && best=$i; done
  files[best]+=" $file"
  load[best]=$((load[best] + seconds))
done < <(for f in Tests/ui/test_*.py Tests/net/test_*.py; do
           [[ " ${alone[*]} " == *" $f "* ]] || echo "${took[$f]:-30} $f"; done | sort -rn)

out=.build/ui-shards
rm -rf "$out"
mkdir -p "$out"
# Short temporary folders: tests put Unix sockets in them (108 bytes at most).
pytest=("$PY" -m pytest -q -p no:cacheprovider --durations=10 "$@")

shard() {
  local i=$1
  shift
  "$@" --basetemp="/tmp/teamsketch-ui-$i" ${files[i]} > "$out/$i.log" 2>&1
  echo $? > "$out/$i.status"
}

# A network namespace of the shard's own: loopback, and a veth pair with
# an address (a cable to nowhere), so the app finds a wired network to
# announce its sessions on, as on the machine itself. X's socket folder is
# the shard's own too: Xvfb picks its display number by the sockets it
# can bind, and an abstract socket in one namespace does not see another
# namespace's, so two shards could pick one number and the second would
# take the first one's socket file.
isolated=(unshare --net --mount sh -c 'mount -t tmpfs -o mode=1777 tmpfs /tmp/.X11-unix && ip link set lo up &&
  ip link add wired0 type veth peer name wired1 && ip addr add 10.213.0.2/24 dev wired0 &&
  ip link set wired1 up && ip link set wired0 up && exec "$0" "$@"')

start=$(date +%s)
mkdir -p /tmp/.X11-unix 2>/dev/null
if [ "$(id -u)" -eq 0 ] && unshare --net --mount true 2>/dev/null; then
  shard 0 "${pytest[@]}" &
  for ((i = 1; i < SHARDS; i++)); do shard "$i" "${isolated[@]}" "${pytest[@]}" & done
  wait
else
  echo "ui: no network namespaces (not root): the shards run one after the other"
  for ((i = 0; i < SHARDS; i++)); do shard "$i" "${pytest[@]}"; done
fi

alone_start=$(date +%s)
"${pytest[@]}" --basetemp=/tmp/teamsketch-ui-alone "${alone[@]}" > "$out/alone.log" 2>&1
echo $? > "$out/alone.status"

status=0
for ((i = 0; i < SHARDS; i++)); do
  echo "== ui shard $i (about ${load[i]} s of tests; $out/$i.log):${files[i]}"
  cat "$out/$i.log"
  [ "$(cat "$out/$i.status" 2>/dev/null)" = 0 ] || status=1
done
echo "== ui alone ($(( $(date +%s) - alone_start )) s; $out/alone.log): ${alone[*]}"
cat "$out/alone.log"
# 5: pytest chose no test (a -k that names none of them).
case "$(cat "$out/alone.status" 2>/dev/null)" in 0|5) ;; *) status=1 ;; esac
echo "ui: all shards done in $(( $(date +%s) - start )) s"
exit $status
