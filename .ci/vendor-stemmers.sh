#!/usr/bin/env bash
# vendor-stemmers.sh: fetch Orama's stemmers (the Snowball algorithms,
# minified, one module per language) from npm, check the package's
# SHA-256 against the sum below, and write each Snowball stemmer as a
# classic script under exporter/internal/render/terms/stemmers/ (the <script> of a
# page loaded from file:// cannot be a module). The same file is run by
# goja at build time and by the browser at query time, so the index and
# the query are stemmed by the same code. The build never needs npm: the
# files are committed and embedded.
#
#   .ci/vendor-stemmers.sh          # make vendor-stemmers
#
# To move to another version: set STEMMERS_VERSION, run with
# STEMMERS_UPDATE_SUMS=1 to print the new sum, review the diff, put the
# sum here, then run go test ./exporter/internal/render/terms/ (the word lists).
set -euo pipefail

STEMMERS_VERSION=${STEMMERS_VERSION:-3.1.18}
TGZ_SHA256=da84c897399ad1abb7ed1eec50dc6a360a96c42466c1e9442d77c206bd445925

dest=$(cd "$(dirname "$0")/.." && pwd)/exporter/internal/render/terms/stemmers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@orama/stemmers@$STEMMERS_VERSION" >/dev/null && tar xzf "orama-stemmers-$STEMMERS_VERSION.tgz")
got=$(sha256sum "$tmp/orama-stemmers-$STEMMERS_VERSION.tgz" | cut -d' ' -f1)
if [ "${STEMMERS_UPDATE_SUMS:-}" = 1 ]; then echo "orama-stemmers-$STEMMERS_VERSION.tgz $got"; exit 0; fi
if [ "$got" != "$TGZ_SHA256" ]; then
  echo "vendor-stemmers: orama-stemmers-$STEMMERS_VERSION.tgz: sha256 $got, want $TGZ_SHA256" >&2
  exit 1
fi

# BCP 47 primary language -> Orama's file. Only Snowball algorithms
# (English is Snowball's "porter"); Orama's Bulgarian, Ukrainian and
# Sanskrit stemmers are not Snowball's and are left out.
langs="ar:ar hy:am da:dk de:de el:gr en:en es:es fi:fi fr:fr ga:ie hi:in hu:hu id:id it:it lt:lt ne:np nl:nl no:no pt:pt ro:ro ru:ru sr:rs sv:se ta:ta tr:tr"
rm -f "$dest"/*.js
mkdir -p "$dest"
for pair in $langs; do
  lang=${pair%%:*} file=${pair#*:}
  src="$tmp/package/dist/$file.js"
  body=$(sed -e 's/export function stemmer(/function stemmer(/' -e 's/export const language="[a-z]*";//' "$src")
  if grep -q 'export\|import' <<<"$body"; then echo "vendor-stemmers: $file.js: an import or export left" >&2; exit 1; fi
  {
    echo "/* Snowball stemmer ($lang), from @orama/stemmers $STEMMERS_VERSION (Apache-2.0; Snowball: BSD-3-Clause). Vendored by .ci/vendor-stemmers.sh. */"
    echo "(function(){"
    echo "$body"
    echo "(globalThis.curexStem=globalThis.curexStem||{})[\"$lang\"]=stemmer;})();"
  } >"$dest/$lang.js"
done
cp "$tmp/package/LICENSE.md" "$dest/LICENSE"
echo "vendored @orama/stemmers $STEMMERS_VERSION into $dest"
