#!/usr/bin/env bash
# Fails when a target imports a module it must not (docs/ARCHITECTURE.md,
# "What each target may import"). Each target has a list of what it may
# import; anything else is an error naming the file and the module.
#
#   scripts/check-imports.sh [SOURCES_DIR]   check a tree (default: Sources)
#   scripts/check-imports.sh --self-test     prove the check catches a bad import
set -euo pipefail
cd "$(dirname "$0")/.."

base="Foundation FoundationEssentials Dispatch Synchronization"
# Why each list is what it is:
# - The model is shared with the school server and the fuzzers: Foundation only.
#   It is one module per domain, each importing only the domains below it
#   (helpers; sketches; the word game; the maths game; the records sync carries; the LAN
#   session; discovery; the teacher's analyses), and LearnModel, which passes
#   them all on. Any target that may import the model may import a domain.
# - The store, the network and the renderer each add one dependency to the model
#   (the network's is SwiftNIO; a session through the school server's relay
#   adds its WebSocket, HTTP and TLS parts).
# - The renderer reads packaged .xopp files (a zip archive) with ZIPFoundation;
#   its zlib module is named CZlib, so ours is CZlibShim.
# - The app core decides without a window: our Swift targets, no C module.
# - The API is generated code over the OpenAPI runtime only.
# - The school server has no GTK and no desktop store: it shares the model
#   and draws sketches with the renderer, and its storage is its own.
# - The server's DNS-SD announcement is the one C module the server links
#   (CAvahiClient: avahi-client on its threaded poll, no GLib). It lives in
#   ServerAnnouncer, not in SchoolServer, so the server library stays pure
#   Swift and its tests never meet a daemon; only the executable uses it.
# - SchoolServer's one client is HummingbirdWSClient: a relayed socket that
#   arrives at a process not holding the session is passed on to the one that does.
#   It writes one zip (ZIPFoundation): a pupil's data for their family; and runs
#   one service beside the HTTP server (ServiceLifecycle, as Hummingbird does):
#   the hourly erasing of archived classes past the school's retention.
#   Its metrics page counts through swift-metrics (Metrics) into a
#   registry of swift-prometheus's (Prometheus), which writes the page.
# - SchoolClient is the desktop's side of the server: the generated client over
#   AsyncHTTPClient behind the app core's small SchoolConnection interface.
# - The desktop app is a library (TeamsketchDesktopApp: GTK, Avahi, espeak-ng)
#   without a command line; the two programs run it: TeamsketchDesktop (the app
#   and its commands for teachers and IT) and TeamsketchTools (benchmarks and
#   test tools), sharing TeamsketchCommandSupport, which has no GTK. The
#   tools draw with GTK's Cairo and run a thread of NIO's own.
model="LearnModel LearnBasics LearnSketch LearnWordPost LearnMaths LearnRecords LearnSession LearnDiscovery LearnAnalysis"
declare -A allowed=(
    [LearnBasics]="$base"
    [LearnSketch]="$base LearnBasics"
    [LearnWordPost]="$base LearnBasics"
    [LearnMaths]="$base LearnBasics"
    [LearnRecords]="$base LearnBasics LearnSketch LearnWordPost LearnMaths"
    [LearnSession]="$base LearnBasics LearnSketch LearnWordPost LearnRecords"
    [LearnDiscovery]="$base LearnBasics LearnSketch LearnRecords LearnSession"
    [LearnAnalysis]="$base LearnBasics LearnSketch LearnMaths LearnRecords"
    [LearnModel]="$base LearnBasics LearnSketch LearnWordPost LearnMaths LearnRecords LearnSession LearnDiscovery LearnAnalysis"
    [LearnStore]="$base $model GRDB"
    [LearnNet]="$base $model NIOCore NIOPosix NIOConcurrencyHelpers NIOHTTP1 NIOWebSocket NIOSSL"
    [LearnRender]="$base $model CCairo CZlibShim ZIPFoundation"
    [TeamsketchCore]="$base $model LearnStore LearnNet LearnRender"
    [SchoolServerAPI]="$base OpenAPIRuntime HTTPTypes"
    [SchoolServer]="$base $model LearnRender SchoolServerAPI Hummingbird HummingbirdCore HummingbirdTLS HummingbirdBcrypt OpenAPIHummingbird OpenAPIRuntime HTTPTypes GRDB PostgresNIO Logging Crypto NIOCore NIOPosix NIOConcurrencyHelpers NIOSSL NIOHTTP1 Mustache HummingbirdWebSocket HummingbirdWSClient ZIPFoundation ServiceLifecycle UnixSignals Metrics Prometheus"
    [SchoolClient]="$base $model LearnStore TeamsketchCore SchoolServerAPI OpenAPIRuntime OpenAPIAsyncHTTPClient AsyncHTTPClient NIOCore NIOSSL HTTPTypes"
    [ServerAnnouncer]="$base $model CAvahiClient Logging"
    [TeamsketchServer]="$base SchoolServer ServerAnnouncer ArgumentParser Hummingbird Logging"
    [TeamsketchDesktopApp]="$base $model LearnStore LearnNet LearnRender TeamsketchCore SchoolClient CGtk CAvahi CEspeak"
    [TeamsketchCommandSupport]="$base $model ArgumentParser"
    [TeamsketchDesktop]="$base $model LearnStore LearnNet LearnRender TeamsketchCore SchoolClient TeamsketchDesktopApp TeamsketchCommandSupport ArgumentParser GRDB"
    [TeamsketchTools]="$base $model LearnStore LearnNet LearnRender TeamsketchCore SchoolClient TeamsketchDesktopApp TeamsketchCommandSupport ArgumentParser CGtk NIOPosix"
)

# Screens (TeamsketchDesktopApp/Screens) only show and report: what they need
# of the device's store, the school server or a LAN session comes through
# the app core's services (GradeBook, SketchLibrary, LobbyController,
# LanSessions, …), which the shell (TeamsketchDesktopApp/Shell) builds. A screen
# that imports the store, the school client or the network, or reaches for
# the app's store, the school client or a session host or client itself, is
# refused. No screen is exempt.
screens_import='^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|private|fileprivate)[[:space:]]+)?import[[:space:]]+((class|struct|enum|func|var|protocol)[[:space:]]+)?(LearnStore|SchoolClient|LearnNet)([[:space:]]|\.|$)'
screens_call='(\b[a-z][A-Za-z]*[?!]?\.(store|storeClient)\b|\b(LocalStore|SchoolServerClient|HostSession|SessionHost|SessionClient|WordPostHost|WordPostClient)\b)'
# Nor does a screen take the whole app, its services in one piece or its
# school link: it gets the navigator and the services it uses.
screens_whole_app='\b(TeamsketchApp|AppServices|SchoolLink)\b'

check_screens() {
    local root=$1 bad=0 file
    local -a files
    mapfile -t files < <(find "$root/TeamsketchDesktopApp/Screens" -name '*.swift' | sort)
    # One grep over every screen for each rule (a line that is a comment
    # does not count): the self-test runs this check once per case.
    while IFS= read -r file; do
        echo "check-imports: $file takes the whole app; a screen takes the navigator and the services it uses" >&2
        bad=1
    done < <(grep -lP "^(?![[:space:]]*//).*$screens_whole_app" "${files[@]}" || true)
    while IFS= read -r file; do
        echo "check-imports: $file reaches the store, the school client or a session itself; a screen uses the core's services" >&2
        bad=1
    done < <({ grep -lE "$screens_import" "${files[@]}" || true; grep -lP "^(?![[:space:]]*//).*$screens_call" "${files[@]}" || true; } | sort -u)
    return $bad
}

check() {
    local root=$1 bad=0 target file module
    for target in "${!allowed[@]}"; do
        [ -d "$root/$target" ] || { echo "check-imports: $root/$target is missing" >&2; bad=1; continue; }
        while IFS=: read -r file module; do
            [ -n "$module" ] || continue
            if [[ " ${allowed[$target]} " != *" $module "* ]]; then
                echo "check-imports: $file imports $module, which $target must not import" >&2
                bad=1
            fi
        done < <(grep -rHoE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|private|fileprivate)[[:space:]]+)?import[[:space:]]+(class |struct |enum |func |var |protocol )?[A-Za-z_][A-Za-z0-9_]*' \
                   --include='*.swift' "$root/$target" \
                 | sed -E 's/^([^:]*):.*import[[:space:]]+(class |struct |enum |func |var |protocol )?([A-Za-z0-9_]+)$/\1:\3/')
    done
    check_screens "$root" || bad=1
    return $bad
}

if [ "${1:-}" = "--self-test" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp -r Sources "$tmp/Sources"
    check "$tmp/Sources" || { echo "self-test: the real tree should pass" >&2; exit 1; }
    for case in "LearnModel:GRDB" "LearnBasics:LearnSketch" "LearnSketch:LearnSession" "LearnWordPost:LearnRecords" "LearnRender:CGtk" "TeamsketchCore:CZlibShim" "LearnStore:@preconcurrency import NIOCore" "SchoolServer:CGtk" "SchoolServer:LearnStore" "SchoolServer:CAvahiClient" "ServerAnnouncer:CAvahi" "TeamsketchDesktopApp:ArgumentParser" "TeamsketchCommandSupport:CGtk" "TeamsketchDesktop:CAvahi" "TeamsketchServer:CAvahiClient" \
                "TeamsketchDesktopApp/Screens:import LearnStore" "TeamsketchDesktopApp/Screens:@preconcurrency import LearnNet" \
                "TeamsketchDesktopApp/Screens:import enum LearnNet.RelayOfferState" \
                "TeamsketchDesktopApp/Screens:func f(_ app: TeamsketchApp) { _ = app.store }" \
                "TeamsketchDesktopApp/Screens:func f(_ app: TeamsketchApp?) { _ = app?.storeClient }" \
                "TeamsketchDesktopApp/Screens:let store: LocalStore? = nil" \
                "TeamsketchDesktopApp/Screens:let host: HostSession? = nil" \
                "TeamsketchDesktopApp/Screens:var client: SessionClient?" \
                "TeamsketchDesktopApp/Screens:func f(_ h: WordPostHost) {}" \
                "TeamsketchDesktopApp/Screens:final class S { init(app: TeamsketchApp) {} }" \
                "TeamsketchDesktopApp/Screens:final class S { init(services: AppServices) {} }" \
                "TeamsketchDesktopApp/Screens:final class S { weak var school: SchoolLink? }"; do
        target=${case%%:*} line=${case#*:}
        [[ $line == *import* || $line == *' '* ]] || line="import $line"
        rm -rf "$tmp/Sources" && cp -r Sources "$tmp/Sources"
        printf '%s\n' "$line" > "$tmp/Sources/$target/Injected.swift"
        if check "$tmp/Sources" 2>/dev/null; then
            echo "self-test: '$line' in $target was not caught" >&2
            exit 1
        fi
    done
    echo "check-imports self-test: every injected import was caught"
    exit 0
fi

check "${1:-Sources}"
echo "check-imports: every target imports only what it may"
