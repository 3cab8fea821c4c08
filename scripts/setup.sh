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

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
  echo "setup: chromium for the browser tests: $browser"
elif [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  echo "setup: chromium is missing; installing it for the browser tests (apt-get update, apt-get install chromium; log in target/setup-chromium.log)"
  mkdir -p target
  log=target/setup-chromium.log
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } > "$log" 2>&1; then
    tail -5 "$log" >&2
    if [ -n "${CI:-}" ]; then
      fail "chromium could not be installed (apt-get failed, above and in $log), and CI needs the browser tests"
    fi
    echo "setup: chromium could not be installed (see $log): the browser tests will skip"
  else
    echo "setup: chromium installed: $(command -v chromium)"
  fi
elif [ -n "${CI:-}" ]; then
  fail "chromium is missing and CI needs the browser tests: install Debian's chromium (this script installs it only when run as root, with apt-get)"
else
  echo "setup: chromium is missing (installed here only as root with apt-get): the browser tests will skip"
fi


compilers_missing=""
for c in javac g++ gcc make; do
  command -v "$c" > /dev/null || compilers_missing="$compilers_missing $c"
done
if [ -z "$compilers_missing" ]; then
  echo "setup: javac, g++, gcc and make for the class of many languages: there"
elif [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  echo "setup:$compilers_missing missing; installing them for the class of many languages (log in target/setup-compilers.log)"
  mkdir -p target
  log=target/setup-compilers.log
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y default-jdk-headless g++ gcc make; } > "$log" 2>&1; then
    tail -5 "$log" >&2
    if [ -n "${CI:-}" ]; then
      fail "the compilers could not be installed (apt-get failed, above and in $log), and CI needs the class tests"
    fi
    echo "setup: the compilers could not be installed (see $log): the class test of many languages will skip"
  fi
elif [ -n "${CI:-}" ]; then
  fail "$compilers_missing missing and CI needs the class test of many languages: install default-jdk-headless, g++, gcc and make"
else
  echo "setup:$compilers_missing missing (installed here only as root with apt-get): the class test of many languages will skip"
fi

cases="$(cd .. && pwd)/shared/cases"
if [ -d "$cases" ] && [ -n "$(ls -A "$cases")" ]; then
  echo "setup: the golden cases: ../shared/cases ($cases)"
elif [ -n "${CI:-}" ]; then
  fail "CI is set and the golden cases ../shared/cases ($cases) are missing: the golden, rules, grading-examples, api, grade and sandbox tests and the Python golden test need them"
else
  echo "setup: the golden cases ../shared/cases ($cases) are missing: the tests that read them skip their cases"
fi
