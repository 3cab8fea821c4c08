#!/usr/bin/env bash
# What the tests need of the machine beyond Rust, a C compiler and Python:
# scripts/test.sh runs this first, so that a fresh Debian machine needs
# nothing done by hand.
#
#   scripts/setup.sh
#
# - chromium, which the browser tests drive (tests/suite/browser.rs). Where
#   it is missing and this runs as root with apt-get, it is installed
#   (`apt-get update`, then `apt-get install chromium`; apt's output in
#   target/setup-chromium.log). Elsewhere the browser tests skip, and fail
#   under CI.
# - javac, g++, gcc and make, which the class of many languages builds
#   its Java, C++ and C homework with (tests/suite/grade_class.rs):
#   installed as chromium is, where any is missing (apt's output in
#   target/setup-compilers.log).
# - the golden cases, ../shared/cases beside the repository, which the
#   golden, rules, grading-examples, api, grade and sandbox tests and the
#   Python golden test read. Where it is missing they skip their cases;
#   under CI (CI set) they fail, and so does this, at once, in one line
#   naming the folder.
# One line for each, on standard output. Exits 1 where CI cannot pass.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "scripts/setup.sh: $*" >&2
  exit 1
}

# provide NAME WHAT TESTS PACKAGE...: WHAT, the missing commands, come from
# Debian's PACKAGEs, installed for TESTS where this runs as root with
# apt-get (apt's output in target/setup-NAME.log). Elsewhere TESTS skip,
# and CI fails.
provide() {
  local log="target/setup-$1.log" what="$2" tests="$3"
  shift 3
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "setup: missing: $what; installing for $tests (apt-get update, apt-get install $*; log in $log)"
    mkdir -p target
    if { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"; } > "$log" 2>&1; then
      echo "setup: installed $*"
      return
    fi
    tail -5 "$log" >&2
    [ -z "${CI:-}" ] || fail "$what could not be installed (apt-get failed, above and in $log), and CI needs $tests"
    echo "setup: $what could not be installed (see $log): $tests will skip"
  elif [ -n "${CI:-}" ]; then
    fail "missing: $what, and CI needs $tests: install Debian's $* (this script installs packages only when run as root, with apt-get)"
  else
    echo "setup: missing: $what (installed here only as root with apt-get): $tests will skip"
  fi
}

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
  echo "setup: chromium for the browser tests: $browser"
else
  provide chromium chromium "the browser tests" chromium
fi

compilers_missing=""
for c in javac g++ gcc make; do
  command -v "$c" > /dev/null || compilers_missing="$compilers_missing $c"
done
if [ -z "$compilers_missing" ]; then
  echo "setup: javac, g++, gcc and make for the class of many languages: there"
else
  provide compilers "${compilers_missing# }" "the class test of many languages" default-jdk-headless g++ gcc make
fi

cases="$(cd .. && pwd)/shared/cases"
if [ -d "$cases" ] && [ -n "$(ls -A "$cases")" ]; then
  echo "setup: the golden cases: ../shared/cases ($cases)"
elif [ -n "${CI:-}" ]; then
  fail "CI is set and the golden cases ../shared/cases ($cases) are missing: the golden, rules, grading-examples, api, grade and sandbox tests and the Python golden test need them"
else
  echo "setup: the golden cases ../shared/cases ($cases) are missing: the tests that read them skip their cases"
fi
