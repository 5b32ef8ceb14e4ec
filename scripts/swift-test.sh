#!/usr/bin/env bash
# `swift test` with the private PostgreSQL the server tests need: started
# first, named in TEAMSKETCH_TEST_POSTGRES, stopped afterwards whatever
# happens. Arguments go to `swift test`.
set -uo pipefail
cd "$(dirname "$0")/.."
# A German locale the tests can switch to (SketchOpPayloadTests reads
# numbers under it); the machine may have none compiled. glibc finds it
# through LOCPATH.
locales="$PWD/.build/test-locales"
if [ ! -d "$locales/de_DE.UTF-8" ]; then
  mkdir -p "$locales"
  localedef -i de_DE -f UTF-8 "$locales/de_DE.UTF-8" || { echo "swift-test: could not make de_DE.UTF-8" >&2; exit 1; }
fi
export LOCPATH="$locales"
url=$(scripts/test-postgres.sh start) || exit 1
trap 'scripts/test-postgres.sh stop' EXIT
TEAMSKETCH_TEST_POSTGRES="$url" ${SWIFT:-swift} test "$@" 2>&1 | tee .build/swift-test.log
exit "${PIPESTATUS[0]}"
