#!/usr/bin/env bash
# bench.sh: run every benchmark of the module once (go test -bench, each
# benchmark's own sizes and -benchtime 1s), keep the raw output in
# docs/bench/results.txt, and write the tables of docs/BENCHMARKS.md
# (between its benchdoc lines) with exporter/internal/benchdoc, with the machine and how
# long the whole run took.
#
#   make bench                          # everything
#   BENCH=Site PKGS=./exporter/... .ci/bench.sh   # a subset (tables too)
#
# The benchmarks that need Chromium (PDF) or versitygw skip themselves
# when those are missing; Hugo is apart: make bench-hugo.
set -euo pipefail

GO=${GO:-go}
BENCH=${BENCH:-.}
PKGS=${PKGS:-./...}
OUT=${OUT:-docs/bench/results.txt}
DOC=${DOC:-docs/BENCHMARKS.md}

mkdir -p "$(dirname "$OUT")"
tmp=$(mktemp "${OUT}.XXXXXX")
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
# One package at a time (-p 1): benchmarks of two packages side by side
# would slow each other. Progress on the terminal, results in the file; a
# failing benchmark fails the run and leaves the previous results and
# tables alone.
$GO test -p 1 -run '^$' -bench "$BENCH" -benchmem -count 1 -timeout 60m $PKGS 2>&1 | tee "$tmp"
took=$(( $(date +%s) - start ))
mv "$tmp" "$OUT"
$GO run ./exporter/internal/benchdoc -in "$OUT" -doc "$DOC" -took "${took}s"
echo "bench: ${took}s; tables written to $DOC (raw output: $OUT)"
