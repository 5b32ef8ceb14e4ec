#!/usr/bin/env bash
# Fuzzes the LAN session's FrameDecoder with libFuzzer for N seconds
# (default 60): `Tests/Fuzz/run.sh [seconds]`.
#
# The decoder's sources are compiled straight into the fuzz binary with
# swiftc (-sanitize=fuzzer,address), so no package build is needed. The seed
# corpus in Tests/Fuzz/corpus/ (real frames, written by
# `SESSION_FUZZ_WRITE_CORPUS=1 swift test --filter SessionFuzzCorpus`) is
# read, never written: new inputs go to a scratch folder, crashes to
# .build-fuzz/ (crash-*), which is kept for a human to look at.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_TO_RUN=${1:-60}
OUT=.build-fuzz
BIN=$OUT/fuzz-frame-decoder
mkdir -p "$OUT"

SOURCES=(
    Tests/Fuzz/FuzzFrameDecoder.swift
    Sources/LearnModel/Session/WireWriter.swift
    Sources/LearnModel/Session/WireReader.swift
    Sources/LearnModel/Session/WireValues.swift
    Sources/LearnModel/Session/SessionIdentity.swift
    Sources/LearnModel/Session/SessionLimits.swift
    Sources/LearnModel/Session/SessionLobby.swift
    Sources/LearnModel/Session/SessionMessage.swift
    Sources/LearnModel/Session/SessionMessageCodec.swift
    Sources/LearnModel/Session/LiveStroke.swift
    Sources/LearnModel/Session/FrameError.swift
    Sources/LearnModel/Session/FrameDecoder.swift
    Sources/LearnModel/Sketch/Geometry.swift
    Sources/LearnModel/Sketch/Pen.swift
    Sources/LearnModel/Sketch/Stroke.swift
    Sources/LearnModel/Sketch/StrokeCoding.swift
    Sources/LearnModel/Sketch/SketchDocument.swift
    Sources/LearnModel/Sketch/SketchOpCoding.swift
)

# Rebuild only when a source changed.
if [[ ! -x $BIN ]] || [[ -n $(find "${SOURCES[@]}" -newer "$BIN" 2>/dev/null) ]]; then
    echo "fuzz: building $BIN" >&2
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name SessionFuzz \
        "${SOURCES[@]}" -o "$BIN"
fi

WORK=$(mktemp -d /tmp/teamsketch-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "fuzz: running for ${SECONDS_TO_RUN}s" >&2
"$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
    -artifact_prefix="$OUT/" -print_final_stats=1 "$WORK" Tests/Fuzz/corpus
