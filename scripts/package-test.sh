#!/usr/bin/env bash
# `make test-packages` (and a stage of `make test`): the packages `make
# deb` makes, from the debug build (scripts/deb.sh debug), installed into a
# clean Debian 12 root, run and purged (Tests/packages/test_packages.py).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deb.sh "${DEB_CONFIG:-debug}"
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider Tests/packages "$@"
