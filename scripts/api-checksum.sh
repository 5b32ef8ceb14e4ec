#!/usr/bin/env bash
# The generated API code is committed; this notices when openapi.yaml (or
# the generator's config) changed and `make api` was not run.
#   scripts/api-checksum.sh write   record the spec the code was made from
#   scripts/api-checksum.sh check   fail when the spec changed since
set -euo pipefail
cd "$(dirname "$0")/.."
dir=Sources/SchoolServerAPI
sum=$(cat "$dir/openapi.yaml" "$dir/openapi-generator-config.yaml" | sha256sum | cut -d' ' -f1)
case "${1:-check}" in
  write) echo "$sum" > "$dir/Generated/openapi.sha256" ;;
  check)
    if [ "$(cat "$dir/Generated/openapi.sha256" 2>/dev/null)" != "$sum" ]; then
      echo "api: openapi.yaml changed since the code in $dir/Generated was made; run make api" >&2
      exit 1
    fi
    echo "api: generated code matches openapi.yaml" ;;
  *) echo "usage: $0 write|check" >&2; exit 2 ;;
esac
