#!/usr/bin/env bash
# Schemathesis against the real server and openapi.yaml: every operation
# with generated valid and invalid requests, signed in as a teacher. Any 5xx
# or any answer the spec does not allow fails. Then the routes openapi.yaml
# does not describe, the web gallery's pages and forms and the relay's HTTP
# side (Tests/fuzz/web-routes.yaml), where any 5xx fails. An error in the
# server's log fails either.
#   scripts/api-fuzz.sh [MAX_EXAMPLES] [sqlite|postgres]   (make test: 30, make fuzz-api: 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-30}
backend=${2:-sqlite}
case "$backend" in sqlite|postgres) ;; *) echo "usage: $0 [MAX_EXAMPLES] [sqlite|postgres]" >&2; exit 2 ;; esac
venv=.build/api-fuzz-venv
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [ "$backend" = postgres ] && scripts/test-postgres.sh stop
  rm -rf "$work"
}
trap cleanup EXIT
bin=.build/debug/TeamsketchServer
db="$work/server.sqlite"
if [ "$backend" = postgres ]; then
  db=$(scripts/test-postgres.sh start)
fi
password=api-fuzz-password
echo "$password" | "$bin" create-teacher "Fuzz Teacher" --database "$db" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" serve --host 127.0.0.1 --port "$port" --database "$db" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/v1/health" >/dev/null && break; sleep 0.1; done
sign_in() {
  curl -sf -X POST "http://127.0.0.1:$port/api/v1/sessions" -H 'content-type: application/json' \
    -d "{\"name\":\"Fuzz Teacher\",\"password\":\"$password\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
# A pull may wait up to 25 s for news: the fuzzer's own waits are cut to
# a second (Tests/fuzz/hooks.py), and a request may take 30 s (answer and
# time limit both) for the boundary cases its coverage phase sends as
# they are.
fuzz() {
  local token=$1
  shift
  PYTHONPATH=Tests/fuzz SCHEMATHESIS_HOOKS=hooks "$venv/bin/schemathesis" run Sources/SchoolServerAPI/openapi.yaml \
    --url "http://127.0.0.1:$port/api/v1" \
    --header "Authorization: Bearer $token" --request-timeout 30 --max-response-time 30 \
    --checks all --max-examples "$examples" --seed 1 \
    --suppress-health-check all --no-color "$@"
}
# The gallery's forms past their token checks: the double-submit value
# the cookie carries, and a signed-in form's value (as WebCookies makes it).
form=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
web_fuzz() {
  local token=$1
  shift
  local session_form
  session_form=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(b"teamsketch-web-form\0" + sys.argv[1].encode()).hexdigest())' "$token")
  sed -e "s/@FORM@/$form/" -e "s/@SESSION_FORM@/$session_form/" Tests/fuzz/web-routes.yaml > "$work/web-routes.yaml"
  "$venv/bin/schemathesis" run "$work/web-routes.yaml" \
    --url "http://127.0.0.1:$port" \
    --header "Authorization: Bearer $token" --header "Cookie: ts_session=$token; ts_form=$form" \
    --checks not_a_server_error --max-examples "$examples" --seed 1 \
    --suppress-health-check all --no-color "$@"
}
status=0
# Signing out would end the token every other operation is tried with, so
# it gets a pass (and a token) of its own, in both runs. All are taken
# first: the fuzzing's wrong sign-ins soon make this address wait.
main_token=$(sign_in)
sign_out_token=$(sign_in)
web_token=$(sign_in)
web_sign_out_token=$(sign_in)
fuzz "$main_token" --exclude-operation-id signOut || status=$?
fuzz "$sign_out_token" --include-operation-id signOut || status=$?
web_fuzz "$web_token" --exclude-operation-id signOut || status=$?
web_fuzz "$web_sign_out_token" --include-operation-id signOut || status=$?
if grep -q " error " "$work/server.log"; then
  echo "api-fuzz: the server logged errors:" >&2
  grep " error " "$work/server.log" | head -20 >&2
  status=1
fi
exit $status
