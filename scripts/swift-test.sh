#!/usr/bin/env bash
# `swift test` with the private PostgreSQL the server tests need: started
# first, named in TEAMSKETCH_TEST_POSTGRES, stopped afterwards whatever
# happens. Arguments go to `swift test`.
set -uo pipefail
cd "$(dirname "$0")/.."
url=$(scripts/test-postgres.sh start) || exit 1
trap 'scripts/test-postgres.sh stop' EXIT
TEAMSKETCH_TEST_POSTGRES="$url" ${SWIFT:-swift} test "$@" 2>&1 | tee .build/swift-test.log
exit "${PIPESTATUS[0]}"
