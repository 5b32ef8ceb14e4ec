#!/usr/bin/env bash
# Installs the Debian packages a target needs when they are missing.
# Usage: scripts/deps.sh run|test|bench|stress|deb
set -euo pipefail

run_pkgs=(pkg-config libgtk-4-dev libespeak-ng-dev libsqlite3-dev zlib1g-dev libavahi-client-dev libavahi-glib-dev gettext adwaita-icon-theme fonts-dejavu-core libgtk-4-media-gstreamer gstreamer1.0-plugins-good gstreamer1.0-alsa)
# `make deb` and its install test (a clean Debian 12 root).
deb_pkgs=(dpkg-dev lintian binutils debootstrap)
test_pkgs=("${deb_pkgs[@]}" sshfs openssh-sftp-server locales gdb xvfb xauth x11-utils xdotool openbox xsettingsd python3-pyatspi gir1.2-atspi-2.0 at-spi2-core imagemagick xournalpp python3 python3-pil python3-pytest dbus avahi-daemon avahi-utils iproute2 iptables desktop-file-utils appstream postgresql e2fsprogs openssl curl chromium w3m openjdk-17-jre-headless)
bench_pkgs=(hyperfine time)
stress_pkgs=(stress-ng)

case "${1:-run}" in
  run) want=("${run_pkgs[@]}") ;;
  test) want=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
  bench) want=("${run_pkgs[@]}" "${test_pkgs[@]}" "${bench_pkgs[@]}") ;;
  stress) want=("${run_pkgs[@]}" "${test_pkgs[@]}" "${stress_pkgs[@]}") ;;
  deb) want=("${run_pkgs[@]}" "${deb_pkgs[@]}") ;;
  *) echo "usage: $0 run|test|bench|stress|deb" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "Missing Debian packages. Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
