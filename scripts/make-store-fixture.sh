#!/usr/bin/env bash
# Makes a desktop store fixture for StoreUpgradeTests with the store of a
# given commit (default: this checkout's HEAD): the commit is checked out
# beside this one, Tests/store-fixtures/make-store.swift.txt and
# Tests/LearnStoreTests/StoreSnapshot.swift are built there as a small
# program against its LearnStore, and what it writes is kept as
# Tests/store-fixtures/store-vN.sqlite and store-vN.json (vN: that store's
# newest migration). Run it before a release that adds a store migration,
# and commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short "${1:-HEAD}")
work=$(mktemp -d)
cleanup() { git worktree remove --force "$work/src" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add --detach "$work/src" "$commit" >/dev/null
mkdir -p "$work/src/Sources/StoreFixtureMaker" "$work/out"
cp Tests/store-fixtures/make-store.swift.txt "$work/src/Sources/StoreFixtureMaker/main.swift"
cp Tests/LearnStoreTests/StoreSnapshot.swift "$work/src/Sources/StoreFixtureMaker/"
cat >> "$work/src/Package.swift" <<'SWIFT'
package.products.append(.executable(name: "StoreFixtureMaker", targets: ["StoreFixtureMaker"]))
package.targets.append(.executableTarget(name: "StoreFixtureMaker", dependencies: ["LearnStore", "LearnModel"]))
SWIFT
swift build --package-path "$work/src" --scratch-path "$work/build" --product StoreFixtureMaker
"$work/build/debug/StoreFixtureMaker" "$work/out" "$commit"
json=$(ls "$work"/out/store-v*.json)
name=$(basename "$json" .json)
python3 - "$work/out/database-path" "$work/out/$name.sqlite" <<'PY'
import sqlite3, sys
sqlite3.connect(open(sys.argv[1]).read()).execute("VACUUM INTO ?", (sys.argv[2],))
PY
cp "$json" "$work/out/$name.sqlite" Tests/store-fixtures/
echo "made Tests/store-fixtures/$name.sqlite and $name.json with the store of $commit"
