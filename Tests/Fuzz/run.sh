#!/usr/bin/env bash
# Builds every libFuzzer target and runs each for N seconds (default 60):
#
#   Tests/Fuzz/run.sh [seconds] [target ...]
#
# Targets (Tests/Fuzz/Fuzz<Name>.swift, seeds in Tests/Fuzz/corpus/<target>/):
#   frames      session frames through FrameDecoder, word-game frames and lobby blocks included
#   host        HostSession driven by a script of connection events and decoded messages
#   peer        PeerSession driven the same way from the host's side
#   outbound    OutboundQueue: appends of decoded messages, pops, merging
#   xopp        .xopp files: Gzip.decompress (LearnRender) when gzip, then XoppFormat.parse
#   teamsketch  .teamsketch files: SketchFileFormat.decode
#   csv         word-pool CSV: WordPoolCSV.importItems
#   discovery   beacon datagrams (BeaconPacket) and DNS-SD TXT records (DiscoveryTXT)
#   payload     op payloads, the JSON of each synced op: SketchOpPayload.decode
#
# The model is compiled once, each of its domain modules (Sources/LearnBasics,
# LearnSketch, …, then the LearnModel that passes them on) with every one of
# its files, with coverage and AddressSanitizer (-sanitize=fuzzer,address),
# and each target links them all, so a new source file can never be missing
# from a target.
# Gzip.swift is compiled into the xopp target against the CZlibShim module map.
# Everything lives in .build-fuzz/ (ignored by git); rebuilds happen only
# when a source changed.
#
# The seed corpora are read, never written: new inputs go to a scratch
# folder. A crash, leak, timeout or out-of-memory input is kept in
# .build-fuzz/artifacts/<target>/, its path is printed, and the script exits
# non-zero after running the remaining targets.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_TO_RUN=${1:-60}
shift || true
ALL_TARGETS=(frames host peer outbound xopp teamsketch csv discovery payload)
if (($# > 0)); then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi

OUT=.build-fuzz
LIB=$OUT/LearnModel
SWIFTC=${SWIFTC:-swiftc}
# -O: fuzzing is about executions per second; asserts stay on (-O keeps
# preconditions), so a broken rule still traps.
FLAGS=(-O -sanitize=fuzzer,address -parse-as-library)
mkdir -p "$OUT" "$LIB"

# The linker warns about ASan's local symbols on every link; that says nothing.
quiet_link() { grep -v "Cannot export local symbol '__asan" >&2 || true; }

source_of() {
    case $1 in
        frames) echo Tests/Fuzz/FuzzFrameDecoder.swift ;;
        host) echo Tests/Fuzz/FuzzHostSession.swift ;;
        peer) echo Tests/Fuzz/FuzzPeerSession.swift ;;
        outbound) echo Tests/Fuzz/FuzzOutboundQueue.swift ;;
        xopp) echo Tests/Fuzz/FuzzXopp.swift Sources/LearnRender/Gzip.swift ;;
        teamsketch) echo Tests/Fuzz/FuzzTeamsketch.swift ;;
        csv) echo Tests/Fuzz/FuzzWordPoolCSV.swift ;;
        discovery) echo Tests/Fuzz/FuzzDiscovery.swift ;;
        payload) echo Tests/Fuzz/FuzzSketchOpPayload.swift ;;
        *) echo "fuzz: unknown target '$1' (known: ${ALL_TARGETS[*]})" >&2; return 1 ;;
    esac
}

# The model's modules in the order they import each other (Package.swift).
# Each is rebuilt when one of its files changed, when files were added or
# removed (the list is part of what the library was built from), or when a
# module it imports was rebuilt.
MODEL_MODULES=(LearnBasics LearnSketch LearnWordPost LearnMaths LearnRecords LearnSession LearnDiscovery LearnAnalysis LearnModel)
MODEL_LIBS=()
for module in "${MODEL_MODULES[@]}"; do
    mapfile -t sources < <(find "Sources/$module" -name '*.swift' | LC_ALL=C sort)
    list=$(printf '%s\n' "${sources[@]}")
    lib=$LIB/lib$module.a
    if [[ ! -f $lib ]] || [[ $list != "$(cat "$LIB/$module.sources" 2>/dev/null)" ]] \
        || [[ -n $(find "${sources[@]}" "${MODEL_LIBS[@]}" -newer "$lib") ]]; then
        echo "fuzz: building $module (${#sources[@]} files)" >&2
        rm -f "$lib"
        # One package name: the modules share `package` declarations.
        "$SWIFTC" "${FLAGS[@]}" -module-name "$module" -package-name teamsketch -I "$LIB" -emit-library -static \
            -emit-module -emit-module-path "$LIB/$module.swiftmodule" -o "$lib" "${sources[@]}"
        echo "$list" > "$LIB/$module.sources"
    fi
    MODEL_LIBS+=("$lib")
done
# A static library comes before those it needs, for the linker.
MODEL_LINK=()
for ((i = ${#MODEL_MODULES[@]} - 1; i >= 0; i--)); do MODEL_LINK+=("-l${MODEL_MODULES[i]}"); done

SUPPORT=(Tests/Fuzz/Support/*.swift)
for target in "${TARGETS[@]}"; do
    read -r -a sources <<< "$(source_of "$target")"
    bin=$OUT/fuzz-$target
    if [[ ! -x $bin ]] || [[ -n $(find "${sources[@]}" "${SUPPORT[@]}" "${MODEL_LIBS[@]}" -newer "$bin") ]]; then
        echo "fuzz: building $bin" >&2
        "$SWIFTC" "${FLAGS[@]}" -module-name "Fuzz_$target" -I "$LIB" -I Sources/CZlibShim \
            "${sources[@]}" "${SUPPORT[@]}" -L "$LIB" "${MODEL_LINK[@]}" -lz -o "$bin" 2> >(quiet_link)
    fi
done

# Swift's own crash reporter reads the crashed process's memory, which
# AddressSanitizer then reports as a second, unrelated error; libFuzzer's
# stack trace is the one wanted.
export SWIFT_BACKTRACE=enable=no
WORK=$(mktemp -d /tmp/teamsketch-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failed=()
for target in "${TARGETS[@]}"; do
    artifacts=$OUT/artifacts/$target
    mkdir -p "$artifacts" "$WORK/$target"
    before=$(find "$artifacts" -type f | LC_ALL=C sort)
    echo "fuzz: $target for ${SECONDS_TO_RUN}s" >&2
    # Leak checks off: the Swift runtime's metadata caches are never freed
    # and would be reported as leaks on exit.
    if ! "$OUT/fuzz-$target" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$artifacts/" \
        "$WORK/$target" "Tests/Fuzz/corpus/$target" > "$WORK/$target.log" 2>&1; then
        tail -n 40 "$WORK/$target.log" >&2
        failed+=("$target")
    fi
    grep -E '^stat::number_of_executed_units|^stat::new_units_added|^Done ' "$WORK/$target.log" \
        | sed "s/^/fuzz: $target: /" >&2 || true
    new=$(comm -13 <(echo "$before") <(find "$artifacts" -type f | LC_ALL=C sort))
    if [[ -n $new ]]; then
        echo "fuzz: $target: crashing input(s):" >&2
        echo "$new" | sed 's/^/    /' >&2
        [[ " ${failed[*]} " == *" $target "* ]] || failed+=("$target")
    fi
done

if ((${#failed[@]} > 0)); then
    echo "fuzz: FAILED: ${failed[*]} (inputs in $OUT/artifacts/)" >&2
    exit 1
fi
echo "fuzz: all ${#TARGETS[@]} targets ran ${SECONDS_TO_RUN}s without a crash" >&2
