#!/usr/bin/env bash
# Builds a snapshot release of curex into dist/ for this machine's platform
# only, and checks its binary. It runs the real .goreleaser.yaml with the
# build's goos and goarch lists narrowed to `go env GOOS GOARCH` (a snapshot
# of all six targets compiles curex six times), through `goreleaser release
# --snapshot`: archive, checksums.txt and SBOM as a release makes them;
# no container image, nothing published.
# GORELEASER: the goreleaser binary; cyclonedx-gomod must be on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
GORELEASER=${GORELEASER:-goreleaser}
goos=$("$GO" env GOOS)
goarch=$("$GO" env GOARCH)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cfg=$tmp/goreleaser.yaml
sed -e "s/^    goos: \[linux, darwin, windows\]\$/    goos: [$goos]/" \
    -e "s/^    goarch: \[amd64, arm64\]\$/    goarch: [$goarch]/" .goreleaser.yaml > "$cfg"
if [ "$(grep -cE "^    (goos: \[$goos\]|goarch: \[$goarch\])\$" "$cfg")" != 2 ]; then
  echo "release-snapshot: .goreleaser.yaml's goos/goarch lines changed; update this script" >&2
  exit 1
fi

# GoReleaser reads the commit only where the repository has a remote (a
# git worktree or a fresh git init has none): lend it one for this run.
if [ -z "$(git remote)" ]; then
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/curex/curex.git
fi
"$GORELEASER" release --snapshot --clean --skip=docker --config "$cfg"

# The binary: built without cgo, static by file(1)'s reading where file is
# installed (no interpreter, no dynamic section), and reporting the
# snapshot's version both ways.
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
bin=$(ls dist/curex_"${goos}_${goarch}"*/curex)
if command -v file >/dev/null && file "$bin" | grep -q 'dynamically linked'; then
  echo "release-snapshot: $bin is dynamically linked: $(file -b "$bin")" >&2
  exit 1
fi
"$GO" version -m "$bin" | grep -q 'CGO_ENABLED=0' || { echo "release-snapshot: $bin was built with cgo" >&2; exit 1; }
for flag in --version version; do
  got=$("$bin" $flag)
  case "$got" in
    "curex $version (commit "*) ;;
    *) echo "release-snapshot: curex $flag printed '$got', want version $version" >&2; exit 1 ;;
  esac
done
for f in checksums.txt "curex_${version}_${goos}_${goarch}.tar.gz" "curex_${version}_${goos}_${goarch}.cdx.json"; do
  [ -s "dist/$f" ] || { echo "release-snapshot: dist/$f missing" >&2; exit 1; }
done
(cd dist && sha256sum --quiet -c checksums.txt)
echo "release-snapshot: dist/ holds curex $version for $goos/$goarch (static; checksums verified)"
