#!/usr/bin/env bash
# `make install` and `make uninstall` (README.md, "Installing").
#
#   scripts/install.sh install   BUILT_BIN_DIR   installs the two executables from BUILT_BIN_DIR and resources/
#   scripts/install.sh uninstall                 removes what install put there
#
# Both read PREFIX (absolute, default /usr/local) and DESTDIR (empty, or a
# staging directory for packaging) from the environment, as make passes
# them, plus LOCALEDIR (the compiled catalogues, .build/locale), LINGUAS and
# APP_ID.
#
# What goes where (every path below PREFIX; DESTDIR is put in front of each):
#   bin/TeamsketchDesktop, bin/TeamsketchServer
#   share/teamsketch/{pools,sounds,style}/…    found by the app beside its bin/
#   share/applications/APP_ID.desktop           Exec= names PREFIX/bin/TeamsketchDesktop
#   share/metainfo/APP_ID.metainfo.xml
#   share/icons/hicolor/{scalable,symbolic}/apps/…
#   share/locale/<lang>/LC_MESSAGES/teamsketch.mo
#   share/teamsketch/installed-files            the manifest (below)
#
# The manifest lists, one a line, `f PATH` for every file installed and
# `d PATH` for every directory the install had to create (paths as on the
# installed system, without DESTDIR). A second install keeps the first
# one's lines, so a file a newer version no longer installs is still
# uninstalled. `uninstall` removes the listed files, then share/teamsketch
# whole, then the listed directories deepest first when they are empty:
# a directory that existed before (share/applications, share/icons/hicolor)
# or that holds someone else's files stays. Without a manifest (an install
# by an older Makefile) it removes the files this version would install and
# then their directories up to PREFIX, as far as they are empty.
#
# The desktop entry and the metainfo are validated before anything is
# installed (desktop-file-validate, appstreamcli validate --no-net) when the
# tools are there. The icon cache is refreshed with gtk-update-icon-cache
# only when installing for real (DESTDIR empty); a cache the install created
# is in the manifest, one that was there already is refreshed on uninstall.
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
LOCALEDIR=${LOCALEDIR:-.build/locale}
LINGUAS=${LINGUAS:-de}
APP_ID=${APP_ID:-org.teamsketch.Desktop}
PREFIX=${PREFIX%/}
[[ $PREFIX == /* ]] || { echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 2; }
[[ -z $DESTDIR || $DESTDIR == /* ]] || { echo "install.sh: DESTDIR must be an absolute path, not '$DESTDIR'" >&2; exit 2; }
DESTDIR=${DESTDIR%/}
DATADIR=$PREFIX/share
MANIFEST=$DATADIR/teamsketch/installed-files
ICON_THEME=$DATADIR/icons/hicolor

# What install installs: "MODE SOURCE TARGET" lines, TARGET below PREFIX.
plan() {
    local bin_dir=$1 d f l
    for f in TeamsketchDesktop TeamsketchServer; do echo "755 $bin_dir/$f $PREFIX/bin/$f"; done
    for d in pools sounds style; do
        for f in resources/$d/*; do echo "644 $f $DATADIR/teamsketch/$d/${f##*/}"; done
    done
    while read -r f; do echo "644 resources/$f $DATADIR/$f"; done < <(cd resources && find icons -type f | sort)
    echo "644 @desktop $DATADIR/applications/$APP_ID.desktop"
    echo "644 resources/$APP_ID.metainfo.xml $DATADIR/metainfo/$APP_ID.metainfo.xml"
    for l in $LINGUAS; do echo "644 $LOCALEDIR/$l/LC_MESSAGES/teamsketch.mo $DATADIR/locale/$l/LC_MESSAGES/teamsketch.mo"; done
}

update_icon_cache() {
    if [[ -z $DESTDIR ]] && command -v gtk-update-icon-cache >/dev/null; then
        gtk-update-icon-cache -q -t -f "$ICON_THEME" || echo "install.sh: gtk-update-icon-cache failed (ignored)" >&2
    fi
}

do_install() {
    local bin_dir=${1:?the directory holding the built executables}
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # The desktop entry runs the installed binary, wherever PREFIX is.
    sed "s|^Exec=TeamsketchDesktop\$|Exec=$PREFIX/bin/TeamsketchDesktop|" "resources/$APP_ID.desktop" > "$tmp/$APP_ID.desktop"
    grep -qx "Exec=$PREFIX/bin/TeamsketchDesktop" "$tmp/$APP_ID.desktop" \
        || { echo "install.sh: resources/$APP_ID.desktop has no 'Exec=TeamsketchDesktop' line" >&2; exit 1; }
    if command -v desktop-file-validate >/dev/null; then
        desktop-file-validate "$tmp/$APP_ID.desktop"
    else
        echo "install.sh: desktop-file-validate not found, the desktop entry is not validated" >&2
    fi
    if command -v appstreamcli >/dev/null; then
        appstreamcli validate --no-net "resources/$APP_ID.metainfo.xml"
    else
        echo "install.sh: appstreamcli not found, the metainfo is not validated" >&2
    fi
    local mode src target missing=0
    while read -r mode src target; do
        [[ $src == @desktop || -f $src ]] || { echo "install.sh: $src is missing (not built?)" >&2; missing=1; }
    done < <(plan "$bin_dir")
    [[ $missing == 0 ]] || exit 1

    local -a lines=()
    if [[ -f $DESTDIR$MANIFEST ]]; then mapfile -t lines < "$DESTDIR$MANIFEST"; fi
    local cache_was_there=0
    [[ -e $DESTDIR$ICON_THEME/icon-theme.cache ]] && cache_was_there=1
    local dir
    while read -r mode src target; do
        [[ $src == @desktop ]] && src=$tmp/$APP_ID.desktop
        # The directories this file needs that are not there yet, inside DESTDIR.
        dir=${target%/*}
        while [[ -n $dir && ! -e $DESTDIR$dir ]]; do
            lines+=("d $dir")
            dir=${dir%/*}
        done
        install -Dm"$mode" "$src" "$DESTDIR$target"
        lines+=("f $target")
    done < <(plan "$bin_dir")
    lines+=("f $MANIFEST")
    update_icon_cache
    if [[ $cache_was_there == 0 && -e $DESTDIR$ICON_THEME/icon-theme.cache ]]; then
        lines+=("f $ICON_THEME/icon-theme.cache")
    fi
    printf '%s\n' "${lines[@]}" | sort -u > "$tmp/installed-files"
    install -Dm644 "$tmp/installed-files" "$DESTDIR$MANIFEST"
    echo "installed Teamsketch under $DESTDIR$PREFIX (manifest: $DESTDIR$MANIFEST)"
}

do_uninstall() {
    local kind path
    local -a files=() dirs=()
    if [[ -f $DESTDIR$MANIFEST ]]; then
        while read -r kind path; do
            # Files only below PREFIX, directories also PREFIX and the ones
            # above it (a PREFIX that did not exist): a manifest is never a
            # licence to delete elsewhere.
            case $kind in
                f) [[ $path == "$PREFIX"/* ]] && files+=("$path") ;;
                d) [[ $path == "$PREFIX"/* || "$PREFIX/" == "$path"/* ]] && dirs+=("$path") ;;
            esac || echo "install.sh: ignoring '$kind $path' (not below $PREFIX)" >&2
        done < "$DESTDIR$MANIFEST"
    else
        echo "install.sh: no manifest at $DESTDIR$MANIFEST; removing the files this version installs" >&2
        local mode src target dir
        while read -r mode src target; do
            files+=("$target")
            dir=${target%/*}
            while [[ $dir == "$PREFIX"/* ]]; do dirs+=("$dir"); dir=${dir%/*}; done
        done < <(plan /nowhere)
    fi
    for path in "${files[@]}"; do
        rm -f -- "$DESTDIR$path"
    done
    rm -rf -- "$DESTDIR$DATADIR/teamsketch"
    # A cache that was there before the install now lists icons that are gone.
    [[ -e $DESTDIR$ICON_THEME/icon-theme.cache ]] && update_icon_cache
    # Deepest first; rmdir leaves a directory that is not empty.
    if ((${#dirs[@]})); then
        while read -r path; do
            rmdir -- "$DESTDIR$path" 2>/dev/null || true
        done < <(printf '%s\n' "${dirs[@]}" | sort -u | awk '{ print gsub("/", "/"), $0 }' | sort -rn -s -k1,1 | cut -d' ' -f2-)
    fi
    echo "uninstalled Teamsketch from $DESTDIR$PREFIX"
}

case ${1:-} in
    install) do_install "${2:-}" ;;
    uninstall) do_uninstall ;;
    *) echo "usage: $0 install BUILT_BIN_DIR | uninstall" >&2; exit 2 ;;
esac
