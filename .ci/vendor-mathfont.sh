#!/usr/bin/env bash
# vendor-mathfont.sh: the math font every format that shows math ships
# (package exporter/internal/render/mathstyle): Latin Modern Math 1.959
# from Debian's fonts-lmodern, compressed losslessly to WOFF2 by Debian's
# woff2 (woff2_compress), with its licence (GUST Font License, an
# instance of the LPPL) and its README beside it. Checks the SHA-256 of
# the OpenType font and of the WOFF2 written (woff2_compress is
# deterministic), so that another font never slips in. The build never
# needs these packages: the files are committed and embedded.
#
#   .ci/vendor-mathfont.sh          # make vendor-mathfont
set -euo pipefail

OTF_SHA256=6075562b771f8b82f0c179e363389684f2dd09de30038269e2628e504bd7be0f
WOFF2_SHA256=ac13e97f20e9426a184f9e85217596bcee82db6b2a4c4366aa338eeeb630e55e
otf=/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf
docs=/usr/share/texmf/doc/fonts/lm-math

if [ ! -f "$otf" ] || ! command -v woff2_compress >/dev/null; then
  apt-get install -y fonts-lmodern woff2
fi
dest=$(cd "$(dirname "$0")/.." && pwd)/exporter/internal/render/mathstyle/font
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # file want
  got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got" != "$2" ]; then
    echo "vendor-mathfont: $1: sha256 $got, want $2" >&2
    exit 1
  fi
}
check "$otf" "$OTF_SHA256"
cp "$otf" "$tmp/latinmodern-math.otf"
woff2_compress "$tmp/latinmodern-math.otf" >/dev/null
check "$tmp/latinmodern-math.woff2" "$WOFF2_SHA256"
mkdir -p "$dest"
cp "$tmp/latinmodern-math.woff2" "$dest/latinmodern-math.woff2"
cp "$docs/GUST-FONT-LICENSE.txt" "$docs/README-Latin-Modern-Math.txt" "$docs/MANIFEST-Latin-Modern-Math.txt" "$dest/"
echo "vendored Latin Modern Math ($(wc -c <"$dest/latinmodern-math.woff2") bytes of WOFF2) into $dest"
