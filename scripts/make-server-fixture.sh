#!/usr/bin/env bash
# Makes today's school fixture for SchoolUpgradeTests: a school filled by
# this checkout's server through its API, kept as
# Tests/server-fixtures/school-vN.sqlite and school-vN.json (N: the newest
# schema version). Run it before a release that changes the schema, and
# commit both files: later servers must upgrade them with nothing lost.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
maker=Tests/SchoolServerTests/SchoolFixtureMaker.swift
trap 'rm -f "$maker"; rm -rf "$out"' EXIT
cp Tests/server-fixtures/make-school.swift.txt "$maker"
TEAMSKETCH_FIXTURE_OUT="$out" TEAMSKETCH_FIXTURE_COMMIT="$(git rev-parse --short HEAD)" \
    swift test --filter SchoolFixtureMaker
json=$(ls "$out"/school-v*.json)
name=$(basename "$json" .json)
python3 - "$out/database-path" "$out/$name.sqlite" <<'PY'
import sqlite3, sys
source = open(sys.argv[1]).read()
sqlite3.connect(source).execute("VACUUM INTO ?", (sys.argv[2],))
PY
cp "$json" "$out/$name.sqlite" Tests/server-fixtures/
echo "made Tests/server-fixtures/$name.sqlite and $name.json"
