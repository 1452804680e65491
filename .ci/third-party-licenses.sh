#!/usr/bin/env bash
# Writes the licence texts of every module the curex binary links, and of
# the vendored Temml, its mhchem extension, the Snowball stemmers and the math font, to the file named by $1 (a release archive carries it
# beside NOTICE). TAGS: the build tags of the binary (as for go build).
# Reads the module cache only: run after `go mod download`.
set -euo pipefail
out=${1:?usage: third-party-licenses.sh FILE}
cd "$(dirname "$0")/.."
GO=${GO:-go}
mkdir -p "$(dirname "$out")"
{
  echo "Third-party licences of the curex binary (build tags: ${TAGS:-none})."
  echo "Each section is one module, as found in its source at the version linked."
  for mod in $("$GO" list -tags "${TAGS:-}" -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}' ./cmd/curex | sort -u); do
    dir=$("$GO" list -m -f '{{.Dir}}' "$mod")
    found=0
    for f in "$dir"/LICENSE* "$dir"/LICENCE* "$dir"/COPYING* "$dir"/NOTICE*; do
      [ -f "$f" ] || continue
      printf '\n==== %s: %s ====\n\n' "$mod" "$(basename "$f")"
      cat "$f"
      found=1
    done
    if [ "$found" = 0 ]; then echo "no licence file found for $mod" >&2; exit 1; fi
  done
  printf '\n==== Go standard library and runtime (%s): LICENSE ====\n\n' "$("$GO" env GOVERSION)"
  cat "$("$GO" env GOROOT)/LICENSE"
  printf '\n==== Temml (exporter/internal/render/mathml/temml): LICENSE ====\n\n'
  cat exporter/internal/render/mathml/temml/LICENSE
  printf '\n==== Temml mhchem (exporter/internal/render/mathml/temml): mhchem.NOTICE ====\n\n'
  cat exporter/internal/render/mathml/temml/mhchem.NOTICE
  for f in LICENSE SNOWBALL-LICENSE; do
    printf '\n==== Snowball stemmers from @orama/stemmers (exporter/internal/render/terms/stemmers): %s ====\n\n' "$f"
    cat "exporter/internal/render/terms/stemmers/$f"
  done
  for f in README-Latin-Modern-Math.txt GUST-FONT-LICENSE.txt; do
    printf '\n==== Latin Modern Math (exporter/internal/render/mathstyle/font): %s ====\n\n' "$f"
    cat "exporter/internal/render/mathstyle/font/$f"
  done
} > "$out"
