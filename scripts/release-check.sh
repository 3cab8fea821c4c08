#!/usr/bin/env bash
# The release check: what someone who installs stakeraid gets, apart from
# the source tree.
#
#   scripts/release-check.sh
#
# 1. The crate as published: `cargo package` (its file list must hold the
#    sources, build.rs, the web assets and example input that src/web
#    embeds, README, LICENSE and CHANGELOG, and none of profiles/, python/,
#    tests/, scripts/, docs/), `cargo publish --dry-run`, and the packaged
#    crate unpacked apart from the tree (so no ../shared beside it) and
#    compiled by `cargo check`. Both cargo commands run with --no-verify:
#    their own verification builds every dependency again in the dev
#    profile (2 minutes or more on two cores); `cargo check` of the
#    unpacked crate catches the same missing files for less.
# 2. The Python wheel that scripts/python-test.sh built (scripts/test.sh
#    builds it before it starts this; run either first), installed with its
#    [env] extra into a fresh virtual environment and smoke-tested from an
#    empty folder outside the tree: scripts/release-smoke.py.
#
# PYTHON names the interpreter (default python3). Everything lands under
# target/release-check/ (removed first). `stakeraid --version`, and the
# changelog's section for it, are checked by the Rust tests (tests/suite/docs.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "release-check.sh: $*" >&2
  exit 1
}

out=target/release-check
rm -rf "$out"
mkdir -p "$out"
# A target folder of its own, kept between runs (so that a second run does
# not check every dependency again), and apart from the one `cargo test`
# locks: scripts/test.sh runs this beside the Rust tests.
export CARGO_TARGET_DIR="$PWD/target/release-check-build"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || fail "no version in Cargo.toml"

echo "== the crate, stakeraid $version"
cargo package --locked --no-verify --allow-dirty --quiet
crate="$CARGO_TARGET_DIR/package/stakeraid-$version.crate"
tar -tzf "$crate" | sed "s|^stakeraid-$version/||" | sort > "$out/files.txt"
for needed in Cargo.toml Cargo.lock README.md LICENSE CHANGELOG.md build.rs src/lib.rs src/main.rs \
  web/index.html web/app.js web/style.css web/favicon.svg examples/input.txt benches/search.rs; do
  grep -qxF "$needed" "$out/files.txt" || fail "the package lacks $needed"
done
if grep -E '^(profiles|python|tests|scripts|docs|target|\.ci)/' "$out/files.txt"; then
  fail "the package holds the files above, which the crate does not need"
fi
echo "$(wc -l < "$out/files.txt") files, $(du -k "$crate" | cut -f1) KiB"
cargo publish --dry-run --locked --no-verify --allow-dirty --quiet
mkdir "$out/crate"
tar -xzf "$crate" -C "$out/crate"
cargo check --locked --quiet \
  --manifest-path "$out/crate/stakeraid-$version/Cargo.toml"

echo "== the wheel"
wheels=(target/python-test/wheels/stakeraid-*.whl)
[ -f "${wheels[0]}" ] ||
  fail "no wheel under target/python-test/wheels: run scripts/python-test.sh first, which builds it"
[ ${#wheels[@]} -eq 1 ] || fail "expected one wheel, found: ${wheels[*]}"
"${PYTHON:-python3}" -m venv "$out/venv"
venv_python="$PWD/$out/venv/bin/python"
"$venv_python" -m pip install --quiet --disable-pip-version-check "${wheels[0]}[env]"
smoke=$(mktemp -d)
trap 'rm -rf "$smoke"' EXIT
# Graded as root, the homework runs boxed as nobody: its folder must be
# open to all, which mktemp's is not.
chmod 755 "$smoke"
cp scripts/release-smoke.py "$smoke/"
(cd "$smoke" && "$venv_python" -I release-smoke.py)
echo "release-check.sh: the crate packages, publishes (dry run) and builds alone;" \
  "the wheel installs and runs"
