#!/usr/bin/env bash
# vendor-temml.sh: fetch Temml from npm and copy its minified build, its
# mhchem extension (contrib/mhchem: \ce and \pu, chemistry) and their
# licences into exporter/internal/render/mathml/temml/, checking their
# SHA-256 against the sums below, so that a changed package never slips in.
# The minified mhchem carries no licence of its own: its source's head
# comment (Temml's MIT, the original's Apache-2.0) is kept beside it as
# mhchem.NOTICE. The build itself never needs npm: the files are committed
# and embedded.
#
#   .ci/vendor-temml.sh            # make vendor-temml
#
# To move to another version: set TEMML_VERSION, run with
# TEMML_UPDATE_SUMS=1 to print the new sums, review the diff, and put the
# sums here.
set -euo pipefail

TEMML_VERSION=${TEMML_VERSION:-0.13.5}
JS_SHA256=1ab19148afe0dbc836b7a74f344071b3f3a70a7a8259ae4049e76894fcdf8d95
LICENSE_SHA256=12b4e5592a12baaf50637881f2cb9d66667b26b8d51a73cd8f0d6bcefe176ab6
MHCHEM_SHA256=c63a7800e842a6846e7e8af6e05b3eb225783b92a7818f9868a2554375c57523
MHCHEM_SRC_SHA256=31b2462b631a66b01ab5aead5ec755a77c9820e20ad87c4d6cd833284f5a6653

dest=$(cd "$(dirname "$0")/.." && pwd)/exporter/internal/render/mathml/temml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "temml@$TEMML_VERSION" >/dev/null && tar xzf "temml-$TEMML_VERSION.tgz")

check() { # file want
  got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "${TEMML_UPDATE_SUMS:-}" = 1 ]; then
    echo "$(basename "$1") $got"
  elif [ "$got" != "$2" ]; then
    echo "vendor-temml: $1: sha256 $got, want $2" >&2
    exit 1
  fi
}
check "$tmp/package/dist/temml.min.js" "$JS_SHA256"
check "$tmp/package/LICENSE" "$LICENSE_SHA256"
check "$tmp/package/contrib/mhchem/mhchem.min.js" "$MHCHEM_SHA256"
check "$tmp/package/contrib/mhchem/mhchem.js" "$MHCHEM_SRC_SHA256"
[ "${TEMML_UPDATE_SUMS:-}" = 1 ] && exit 0
mkdir -p "$dest"
cp "$tmp/package/dist/temml.min.js" "$dest/temml.min.js"
cp "$tmp/package/LICENSE" "$dest/LICENSE"
cp "$tmp/package/contrib/mhchem/mhchem.min.js" "$dest/mhchem.min.js"
# The head comment of mhchem.js, up to its first " */": who wrote it, and
# under which licences.
{
  echo "mhchem.min.js is Temml $TEMML_VERSION's contrib/mhchem/mhchem.min.js, minified from"
  echo "contrib/mhchem/mhchem.js, whose head comment follows."
  echo
  sed -e '1s/^\xEF\xBB\xBF//' -e '/^ \*\/$/q' "$tmp/package/contrib/mhchem/mhchem.js"
} >"$dest/mhchem.NOTICE"
echo "vendored temml $TEMML_VERSION (with contrib/mhchem) into $dest"
echo "now run: go test ./exporter/internal/render/mathml/ -run 'TestBudget' (the work budget patches Temml's source when it is compiled; see budget.go)"
