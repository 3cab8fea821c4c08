# Sourced by the scripts that time a release build: sets `bin` to BIN (an
# older build, to compare) or else to this checkout's release build, built
# first. Not run itself.
if [[ -n "${BIN:-}" ]]; then
  bin="$(realpath "$BIN")"
else
  cargo build --quiet --release --locked
  bin="$PWD/target/release/stakeraid"
fi
