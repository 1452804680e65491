#!/usr/bin/env bash
# fuzz.sh: run every fuzz target of the module for FUZZTIME each.
#
#   .ci/fuzz.sh                       # make fuzz: 20s each
#   FUZZTIME=20x .ci/fuzz.sh          # make test: 20 inputs each
#   KEEP_CORPUS=1 .ci/fuzz.sh         # make fuzz-corpus: also keep what was found
#   FUZZ_WORKERS=1 .ci/fuzz.sh        # one worker process a target (default: one per core)
#
# With KEEP_CORPUS=1, the inputs the fuzzer found interesting (new
# coverage; Go keeps them in its build cache) are copied into the
# package's testdata/fuzz/<target>/, at most KEEP_MAX per target (default
# 40, the smallest first, none over 16 KiB), so that plain `go test` runs
# them from then on, everywhere. Inputs already there are kept.
set -euo pipefail

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-20s}
# FUZZ_WORKERS: -test.parallel, the worker processes of a target. make test
# fuzzes a few hundred inputs a target, where starting a second worker
# costs more than it fuzzes: 6.8 CPU-s for the content package's 8 targets
# with one worker, 9.1 with two, in about the same time (300 inputs each).
workers=()
if [ -n "${FUZZ_WORKERS:-}" ]; then
  workers=(-test.parallel "$FUZZ_WORKERS")
fi
KEEP_MAX=${KEEP_MAX:-40}
cache=$($GO env GOCACHE)/fuzz
kept=0
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

# The targets are found in the test files go list names for this build
# (build constraints applied), not by building and running every
# package's test binary with -list: that cost a link and a run of each of
# the module's test binaries, most of which have no fuzz target.
while read -r pkg dir files; do
  [ -n "$files" ] || continue
  targets=$(cd "$dir" && sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*\*testing\.F).*/\1/p' $files | sort -u)
  [ -n "$targets" ] || continue
  # One instrumented test binary per package (go test -c -fuzz builds it
  # as go test -fuzz would), run once per target from the package's
  # folder, as go test runs it, with the same corpus cache: a link and
  # a go command less per target. Linked without a symbol table or
  # DWARF (-s -w), as go test links the binaries it runs itself (go test
  # -c keeps them; a panic's trace needs neither): the 33 packages' links
  # took 34.8 to 41.1 s instead of 49.6 to 53.2 (2 cores, compiled).
  test=$bin/$(echo "$pkg" | tr / _).test
  $GO test -c -fuzz '^Fuzz' -ldflags='-s -w' -o "$test" "$pkg"
  for f in $targets; do
    echo "== $pkg $f"
    (cd "$dir" && "$test" -test.run '^$' -test.fuzz "^$f\$" -test.fuzztime "$FUZZTIME" "${workers[@]}" -test.fuzzcachedir "$cache/$pkg")
    [ "${KEEP_CORPUS:-}" = 1 ] || continue
    found=$cache/$pkg/$f
    [ -d "$found" ] || continue
    dest=$dir/testdata/fuzz/$f
    have=$( { ls "$dest" 2>/dev/null || true; } | wc -l)
    room=$((KEEP_MAX - have))
    [ "$room" -gt 0 ] || continue
    mkdir -p "$dest"
    # The smallest inputs first: the cheapest to run on every go test.
    while read -r size name; do
      [ "$room" -gt 0 ] || break
      [ "$size" -le 16384 ] || break
      [ -e "$dest/$name" ] && continue
      cp "$found/$name" "$dest/$name"
      room=$((room - 1))
      kept=$((kept + 1))
    done < <(find "$found" -maxdepth 1 -type f -printf '%s %f\n' | sort -n)
  done
done < <($GO list -f '{{.ImportPath}} {{.Dir}}{{range .TestGoFiles}} {{.}}{{end}}{{range .XTestGoFiles}} {{.}}{{end}}' ./...)
if [ "${KEEP_CORPUS:-}" = 1 ]; then
  echo "kept $kept new inputs under testdata/fuzz/ (commit them)"
fi
