#!/usr/bin/env bash
# A private PostgreSQL for the server tests: its own data folder under
# .build/, a Unix socket there and a free loopback port, trust auth for one
# superuser. Nothing of the machine's own PostgreSQL (if any) is touched.
#   scripts/test-postgres.sh start   prints the URL tests connect to
#   scripts/test-postgres.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.build/test-postgres"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found (Debian package postgresql)" >&2; exit 1; }

# initdb and the server refuse to run as root; they run as the Debian
# package's postgres user, or as the caller when that is not root.
as_db() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    "$0" stop >/dev/null 2>&1 || true
    rm -rf "$root"
    mkdir -p "$root"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$root"
    as_db "$bin/initdb" -D "$root/data" -U teamsketch --auth=trust -E UTF8 --locale=C.UTF-8 >"$root/initdb.log" 2>&1 \
      || { cat "$root/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    as_db "$bin/pg_ctl" -D "$root/data" -l "$root/server.log" -w -t 30 \
      -o "-k '$root' -h 127.0.0.1 -p $port -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$root/server.log" >&2; exit 1; }
    echo "postgres://teamsketch@127.0.0.1:$port/postgres" > "$root/url"
    cat "$root/url"
    ;;
  stop)
    if [ -d "$root/data" ]; then
      as_db "$bin/pg_ctl" -D "$root/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
