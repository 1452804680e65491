#!/usr/bin/env bash
# Installs the snapshot release in dist/ (make release-check builds it) as
# a user installs a release: the archive checked against checksums.txt,
# unpacked into PREFIX/bin. Then starts that curex's sandbox on a free
# port and runs curex export against it into OUTPUT.
# Usage: .ci/release-demo.sh PREFIX OUTPUT
set -euo pipefail
prefix=${1:?usage: release-demo.sh PREFIX OUTPUT}
out=${2:?usage: release-demo.sh PREFIX OUTPUT}
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
archive="curex_${version}_$(go env GOOS)_$(go env GOARCH).tar.gz"

(cd dist && grep "  $archive\$" checksums.txt | sha256sum -c -)
rm -rf "$prefix" && mkdir -p "$prefix/bin"
tar -xzf "dist/$archive" -C "$prefix/bin" curex
curex=$prefix/bin/curex
"$curex" --version

# The sandbox prints its address on its first lines; read them as they come.
exec 3< <(exec "$curex" sandbox --addr 127.0.0.1:0 --rate-limit none --token release-demo)
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
base=""
while [ -z "$base" ] && IFS= read -r line <&3; do
  case "$line" in *"base URL:"*) base=${line#*base URL: } ;; esac
done
[ -n "$base" ] || { echo "release-demo: curex sandbox printed no base URL" >&2; exit 1; }
CURRICULUM_API_TOKEN=release-demo "$curex" export --base-url "$base" --rate-limit none \
  --allow-private-assets --output "$out" --cache-dir "$prefix/cache" --progress plain
echo "release-demo: curex $version installed in $prefix/bin exported the sandbox into $out/"
