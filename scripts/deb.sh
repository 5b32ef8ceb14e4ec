#!/usr/bin/env bash
# `make deb`: teamsketch-desktop and teamsketch-server as Debian 12
# packages, in .build/deb/ (README.md, "Debian packages").
#
#   scripts/deb.sh [release|debug]    release unless told (make test packages
#                                     its debug build: the same files, quicker)
#
# The Swift runtime and Foundation are linked in statically, so neither
# package needs a Swift toolchain; Depends lists Debian 12's libraries the
# programs link (dpkg-shlibdeps) and the runtime parts GTK loads by name.
# The desktop's files are laid out by scripts/install.sh (PREFIX=/usr);
# the server brings its systemd unit and /etc/teamsketch. Both are built
# with dpkg-deb, owned by root, and checked with lintian when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFIG=${1:-release}
SWIFT=${SWIFT:-swift}
OUT=.build/deb
VERSION=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' resources/org.teamsketch.Desktop.metainfo.xml | head -1)
[[ -n $VERSION ]] || { echo "deb.sh: no <release version=…> in the metainfo" >&2; exit 1; }
ARCH=$(dpkg --print-architecture)
MAINTAINER="Teamsketch developers <developers@teamsketch.org>"

# --static-swift-stdlib links the runtime's archives in the order the
# objects name them, and a program that imports FoundationEssentials
# before Foundation (as NIO does) leaves some references of the earlier
# archives open: the Foundation archives are named again at the end, in
# the order they need each other.
STATIC=(--static-swift-stdlib)
for lib in FoundationNetworking FoundationXML Foundation FoundationInternationalization FoundationEssentials \
           CoreFoundation _FoundationICU _FoundationCollections _FoundationCShims swiftSynchronization \
           swiftDispatch dispatch BlocksRuntime; do
    STATIC+=(-Xlinker "-l$lib")
done

make --no-print-directory mo
for product in TeamsketchDesktop TeamsketchServer; do
    "$SWIFT" build -c "$CONFIG" "${STATIC[@]}" --product "$product"
done
BIN=$("$SWIFT" build -c "$CONFIG" --show-bin-path)
# A program that still needs the toolchain's shared runtime is not done.
for product in TeamsketchDesktop TeamsketchServer; do
    if ldd "$BIN/$product" | grep -E 'libswift|libFoundation|libdispatch|/opt/swift'; then
        echo "deb.sh: $product links the Swift runtime dynamically" >&2; exit 1
    fi
done

rm -rf "$OUT"
mkdir -p "$OUT"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT

# Files every package has: the copyright, a changelog, stripped programs.
common() {
    local root=$1 name=$2
    install -d -m 755 "$root/usr/share/doc/$name"
    install -m 644 resources/debian/copyright "$root/usr/share/doc/$name/copyright"
    printf '%s (%s) bookworm; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
        "$name" "$VERSION" "$VERSION" "$MAINTAINER" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
        | gzip -9n > "$root/usr/share/doc/$name/changelog.gz"
    chmod 644 "$root/usr/share/doc/$name/changelog.gz"
    find "$root/usr/bin" -type f -exec strip --strip-unneeded --remove-section=.comment --remove-section=.note {} +
}

# control FILE-ROOT NAME EXTRA-DEPENDS DESCRIPTION-LINES…: DEBIAN/control,
# with Depends from the programs' libraries, and md5sums.
control() {
    local root=$1 name=$2 extra=$3; shift 3
    local work="$STAGE/shlibs-$name" shlibs
    mkdir -p "$work/debian"
    printf 'Source: teamsketch\n\nPackage: %s\nArchitecture: any\n' "$name" > "$work/debian/control"
    shlibs=$(cd "$work" && dpkg-shlibdeps -O "$root"/usr/bin/* 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
    install -d -m 755 "$root/DEBIAN"
    {
        echo "Package: $name"
        echo "Version: $VERSION"
        echo "Architecture: $ARCH"
        echo "Maintainer: $MAINTAINER"
        echo "Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)"
        echo "Depends: $shlibs${extra:+, $extra}"
        [[ -n ${RECOMMENDS[$name]:-} ]] && echo "Recommends: ${RECOMMENDS[$name]}"
        echo "Section: ${SECTION[$name]}"
        echo "Priority: optional"
        echo "Homepage: https://teamsketch.invalid/"
        printf '%s\n' "$@"
    } > "$root/DEBIAN/control"
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
    chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
}

declare -A RECOMMENDS=(
    [teamsketch-desktop]="avahi-daemon, gstreamer1.0-alsa | gstreamer1.0-pulseaudio"
    [teamsketch-server]="avahi-daemon"
)
declare -A SECTION=([teamsketch-desktop]=education [teamsketch-server]=net)

# The desktop: what `make install` puts under /usr, without the server
# and without install.sh's manifest (dpkg keeps its own list).
desktop=$STAGE/teamsketch-desktop
DESTDIR=$desktop PREFIX=/usr scripts/install.sh install "$BIN" >/dev/null
rm -f "$desktop/usr/bin/TeamsketchServer" "$desktop/usr/share/teamsketch/installed-files"
install -D -m 644 resources/debian/desktop.lintian-overrides "$desktop/usr/share/lintian/overrides/teamsketch-desktop"
common "$desktop" teamsketch-desktop
control "$desktop" teamsketch-desktop \
    "libgtk-4-media-gstreamer, gstreamer1.0-plugins-good, adwaita-icon-theme, fonts-dejavu-core" \
    "Description: draw one sketch together and play a spelling game in class" \
    " Teamsketch lets pupils of six to ten draw one sketch together, two to" \
    " four at a time over the classroom network, and play Buchstaben Post, a" \
    " spelling game for a team. Teachers set tasks, replay, review and grade" \
    " the work in their own window. It works offline and syncs with a" \
    " school's Teamsketch server when there is one."

# The server: the program, its unit, /etc/teamsketch (both conffiles; the
# password file empty and private), the operations guide.
server=$STAGE/teamsketch-server
install -D -m 755 "$BIN/TeamsketchServer" "$server/usr/bin/TeamsketchServer"
install -D -m 644 resources/server/teamsketch-server.service "$server/lib/systemd/system/teamsketch-server.service"
install -D -m 644 resources/server/server.conf "$server/etc/teamsketch/server.conf"
install -m 600 /dev/null "$server/etc/teamsketch/pgpassword"
install -D -m 644 resources/debian/server.lintian-overrides "$server/usr/share/lintian/overrides/teamsketch-server"
common "$server" teamsketch-server
gzip -9n < docs/OPERATIONS.md > "$server/usr/share/doc/teamsketch-server/OPERATIONS.md.gz"
chmod 644 "$server/usr/share/doc/teamsketch-server/OPERATIONS.md.gz"
control "$server" teamsketch-server "" \
    "Description: school server for Teamsketch: accounts, classes and sync" \
    " The Teamsketch school server keeps a school's accounts, classes, sketches," \
    " grades and game results, syncs the classroom desktops, relays their" \
    " sessions between rooms and serves a gallery for the web. It runs as a" \
    " hardened systemd service on SQLite or PostgreSQL."
printf '/etc/teamsketch/server.conf\n/etc/teamsketch/pgpassword\n' > "$server/DEBIAN/conffiles"
for script in postinst prerm postrm; do
    install -m 755 "resources/debian/server.$script" "$server/DEBIAN/$script"
done
chmod 644 "$server/DEBIAN/conffiles"

# xz as Debian's own packages; a test's debug packages only need to be
# quick to make.
compress=(-Zxz)
[[ $CONFIG == release ]] || compress=(-Zgzip -z1)
for root in "$desktop" "$server"; do
    find "$root" -type d -exec chmod 755 {} +
    dpkg-deb --root-owner-group "${compress[@]}" --build "$root" "$OUT" >/dev/null
done
# The debug build's programs are linked again as `make build` links them,
# so the tests after this run what they always run (a relink; for a
# release build it would be a whole second build, which nothing uses).
if [[ $CONFIG == debug ]]; then
    for product in TeamsketchDesktop TeamsketchServer; do
        "$SWIFT" build -c "$CONFIG" --product "$product" >/dev/null
    done
fi
ls "$OUT"/*.deb
if command -v lintian >/dev/null; then
    # Errors fail the build; the overrides the packages carry say why
    # each is right, and README.md explains the warnings left.
    lintian --fail-on error,warning --allow-root "$OUT"/*.deb
fi
