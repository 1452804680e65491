#!/usr/bin/env bash
# bench-hugo.sh: render the same synthetic curriculum with curex (curex build
# from the cache, HTML only) and with Hugo (the Markdown bundle as content, a
# layout with curex's navigation), on this machine, turn about, and print
# pages per second, CPU seconds and peak memory of each, and their ratios.
#
# The pages carry real content (the sandbox's synthetic body=1: paragraphs,
# lists, inline math everywhere, Python code in every second page, an
# aligned display formula in every third, an image in every fourth), and
# both tools do the same work with it: code highlighted by Chroma, every
# formula turned into MathML at build time (curex: Temml; Hugo: KaTeX's
# MathML output through transform.ToMath, its documented way), images
# linked (curex also checks and copies them, from its cache). BODY=0 gives
# the descriptions of two sentences of the earlier measurements.
#
#   make bench-hugo                 # 5,000 and 20,000 pages
#   PAGES="2000" .ci/bench-hugo.sh  # other sizes
#   REPS=5 .ci/bench-hugo.sh        # runs of each tool per size (default 3)
#   WARMUP=0 .ci/bench-hugo.sh      # no untimed run of each tool first (default 1)
#
# Each tool runs REPS times, turn about (curex first, then Hugo first, ...),
# each time into a new folder, nothing deleted until the end: on ext4
# without a journal, as here, creating files just after many were deleted
# costs more (the inode allocator skips recently deleted inodes), which
# would charge one tool for the other's clean-up. The figures are each
# tool's median time and its largest peak memory; every run is printed.
# Before the timed runs each tool runs WARMUP times (default 1) untimed,
# its folders kept too, as hyperfine's --warmup does: the first files made
# after a mass deletion (the setup's, an earlier bench's clean-up) pay the
# inode allocator's scan of the inodes deleted in the last minutes, and
# that charged whichever tool ran first: two runs of this script one after
# the other gave curex 3.06 CPU-s in the first, 4.16 in the second, Hugo
# 11.07 and 11.78 (session 21, docs/BENCHMARKS.md).
# Each run prints its user and system seconds apart: a run slowed that
# way shows it in its system time, which both tools pay alike.
#
# Needs bin/curex (make build), Hugo (HUGO, default $(go env GOPATH)/bin/hugo:
# go install github.com/gohugoio/hugo@v0.165.0) and GNU time (/usr/bin/time).
set -euo pipefail

CUREX=${CUREX:-bin/curex}
HUGO=${HUGO:-$(go env GOPATH)/bin/hugo}
PAGES=${PAGES:-"5000 20000"}
REPS=${REPS:-3}
BODY=${BODY:-1}
WORK=$(mktemp -d /tmp/curex-bench-hugo-XXXXXX)
trap 'kill "${SANDBOX_PID:-}" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT

for tool in "$CUREX" "$HUGO" /usr/bin/time; do
  [ -x "$tool" ] || { echo "bench-hugo: $tool is missing" >&2; exit 2; }
done

# measure CMD...: run CMD under GNU time; prints "seconds maxrss_kb user_s sys_s".
measure() {
  local out=$WORK/time.txt
  if ! /usr/bin/time -f "%e %M %U %S" -o "$out" "$@" >"$WORK/output.txt" 2>&1; then
    echo "bench-hugo: $* failed:" >&2
    cat "$WORK/output.txt" >&2
    exit 1
  fi
  cat "$out"
}

# weight DIR: the mean bytes of DIR's HTML pages, and the bytes of their
# navigation (every <nav> element) per entry (a link, or the mark of the
# current page that is not a link); prints "bytes_per_page bytes_per_entry".
weight() {
  perl -MFile::Find -e '
    my ($pages, $bytes, $nav, $entries) = (0, 0, 0, 0);
    find({no_chdir => 1, wanted => sub {
      return unless /\.html$/;
      open(my $f, "<", $_) or die "$_: $!"; local $/; my $s = <$f>; close $f;
      $pages++; $bytes += length $s;
      while ($s =~ /<nav\b.*?<\/nav>/gs) {
        my $n = $&; $nav += length $n;
        $entries += () = $n =~ /<a\s|<(?!a\s)[^>]*aria-current="page"/g;
      }
    }}, $ARGV[0]);
    printf "%.0f %.1f\n", $bytes / $pages, $entries ? $nav / $entries : 0;
  ' "$1"
}

# median N...: the middle value (the lower middle for an even count).
median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

printf '%-8s %-6s %8s %10s %12s %10s\n' pages tool seconds pages/s peak_MB ratio
for n in $PAGES; do
  dir=$WORK/$n
  mkdir -p "$dir"
  # The sandbox serves one synthetic curriculum of n nodes in one locale.
  "$CUREX" sandbox --addr 127.0.0.1:0 --rate-limit none \
    --data "synthetic:curricula=1,variants=0,locales=1,nodes=$n,depth=3,seed=1,body=$BODY" >"$dir/sandbox.txt" 2>&1 &
  SANDBOX_PID=$!
  for _ in $(seq 100); do grep -q "base URL:" "$dir/sandbox.txt" && break; sleep 0.1; done
  url=$(sed -n 's/.*base URL: *//p' "$dir/sandbox.txt" | head -1)
  CURRICULUM_API_TOKEN=synthetic-token "$CUREX" export --base-url "$url" --cache-dir "$dir/cache" \
    --output "$dir/fetched" --formats json,html --allow-private-assets --progress none --rate-limit 100000/1s >/dev/null
  kill "$SANDBOX_PID"; wait "$SANDBOX_PID" 2>/dev/null || true; SANDBOX_PID=

  # Hugo's site: the same nodes as Markdown content in the Hugo layout.
  "$CUREX" build --cache-dir "$dir/cache" --output "$dir/md" --formats markdown --markdown-layout hugo --progress none >/dev/null
  site=$dir/hugo
  mkdir -p "$site/content" "$site/layouts/_default"
  cp -r "$(dirname "$(find "$dir/md/bundles" -name _index.md -path '*/markdown/_index.md' | head -1)")" "$site/content/curriculum"
  cat >"$site/hugo.toml" <<'TOML'
baseURL = "https://example.org/"
title = "Curricula"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[markup.goldmark.renderHooks.link]
  useEmbedded = "fallback"
[markup.highlight]
  noClasses = false
[markup.goldmark.extensions.passthrough]
  enable = true
  [markup.goldmark.extensions.passthrough.delimiters]
    block  = [['$$', '$$']]
    inline = [['\(', '\)']]
TOML
  # Math as docs/markdown.md tells Hugo users to render it: MathML at build
  # time (transform.ToMath, KaTeX compiled to WebAssembly).
  mkdir -p "$site/layouts/_default/_markup"
  cat >"$site/layouts/_default/_markup/render-passthrough.html" <<'HTML'
{{- with transform.ToMath .Inner (dict "displayMode" (eq .Type "block")) }}{{ . }}{{ end -}}
HTML
  # A layout with the navigation of curex's node pages: breadcrumbs, a
  # sidebar of every top-level unit with the path to the page expanded
  # (the children of each node on it, the page's own included), each level
  # cut to 10 siblings either side of the one on the path and a link to
  # the contents for the rest, as curex does past 300 nodes; and
  # previous/next. Markup as a Hugo theme writes it: a list of links.
  mkdir -p "$site/layouts/partials"
  cat >"$site/layouts/_default/baseof.html" <<'HTML'
<!doctype html><html lang="{{ .Site.Language.Lang }}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body><header><a href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a></header>
<nav aria-label="Breadcrumbs"><ol>{{ range .Ancestors.Reverse }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}<li aria-current="page">{{ .Title }}</li></ol></nav>
{{ with site.GetPage "/curriculum" }}<nav aria-label="Contents"><ul>{{ partial "tree.html" (dict "pages" .Pages "cur" $ "toc" .RelPermalink) }}</ul></nav>{{ end }}
<main>{{ block "main" . }}{{ end }}</main>
<nav>{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }} {{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav></body></html>
HTML
  cat >"$site/layouts/partials/tree.html" <<'HTML'
{{- $cur := .cur }}{{ $toc := .toc }}{{ $ps := .pages }}{{ $n := len $ps }}{{ $lo := 0 }}{{ $hi := $n -}}
{{- if gt $n 21 }}{{ $f := -1 }}{{ range $i, $p := $ps }}{{ if and (lt $f 0) (or (eq $p $cur) ($p.IsAncestor $cur)) }}{{ $f = $i }}{{ end }}{{ end -}}
{{- if lt $f 0 }}{{ $hi = 21 }}{{ else }}{{ $lo = cond (gt $f 10) (sub $f 10) 0 }}{{ $hi = cond (lt (add $f 11) $n) (add $f 11) $n }}{{ end }}{{ end -}}
{{- if gt $lo 0 }}<li><a href="{{ $toc }}">{{ $lo }} more</a></li>{{ end -}}
{{- range first (sub $hi $lo) (after $lo $ps) }}<li><a href="{{ .RelPermalink }}"{{ if eq . $cur }} aria-current="page"{{ end }}>{{ .Title }}</a>
{{- if or (eq . $cur) (.IsAncestor $cur) }}{{ with .Pages }}<ul>{{ partial "tree.html" (dict "pages" . "cur" $cur "toc" $toc) }}</ul>{{ end }}{{ end }}</li>{{ end -}}
{{- if lt $hi $n }}<li><a href="{{ $toc }}">{{ sub $n $hi }} more</a></li>{{ end -}}
HTML
  cat >"$site/layouts/_default/single.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
HTML
  cat >"$site/layouts/_default/list.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
HTML

  # curex: the website from the cache (no request), a new output folder
  # each time. Hugo: the site above, a new destination each time.
  run_curex() {
    measure "$CUREX" build --cache-dir "$dir/cache" --output "$dir/curex-site-$1" --formats html --progress none
  }
  run_hugo() {
    measure "$HUGO" --source "$site" --destination "$dir/hugo-public-$1" --quiet
  }
  ctimes=() htimes=() ccpu=() hcpu=() ck=0 hk=0
  for w in $(seq "${WARMUP:-1}"); do
    for tool in curex hugo; do
      read -r s _ u y < <("run_$tool" "warmup-$w")
      echo "         warm-up $w $tool: $s s, $(awk -v u="$u" -v y="$y" 'BEGIN{printf "%.2f", u+y}') CPU-s ($u user, $y system; not counted)" >&2
    done
  done
  echo "         load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  for r in $(seq "$REPS"); do
    if (( r % 2 == 1 )); then order="curex hugo"; else order="hugo curex"; fi
    for tool in $order; do
      read -r s k u y < <("run_$tool" "$r")
      cpu=$(awk -v u="$u" -v y="$y" 'BEGIN{printf "%.2f", u+y}')
      echo "         run $r $tool: $s s, $cpu CPU-s ($u user, $y system), $((k / 1024)) MB" >&2
      if [ "$tool" = curex ]; then
        ctimes+=("$s") ccpu+=("$cpu")
        if (( k > ck )); then ck=$k; fi
      else
        htimes+=("$s") hcpu+=("$cpu")
        if (( k > hk )); then hk=$k; fi
      fi
    done
  done
  echo "         load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  # The ratio of each round (Hugo's seconds over curex's, the two runs of
  # one round being a minute apart at most): the goal is met in every one.
  rounds=()
  for i in "${!ctimes[@]}"; do
    rounds+=("$(awk -v h="${htimes[$i]}" -v c="${ctimes[$i]}" 'BEGIN{printf "%.2fx", h/c}')")
  done
  echo "         curex ÷ Hugo, round by round: ${rounds[*]}" >&2
  cs=$(median "${ctimes[@]}")
  hs=$(median "${htimes[@]}")
  cc=$(median "${ccpu[@]}")
  hc=$(median "${hcpu[@]}")
  cpages=$(find "$dir/curex-site-1" -name '*.html' | wc -l)
  hpages=$(find "$dir/hugo-public-1" -name '*.html' | wc -l)

  crate=$(awk -v p="$cpages" -v s="$cs" 'BEGIN{printf "%.0f", p/s}')
  hrate=$(awk -v p="$hpages" -v s="$hs" 'BEGIN{printf "%.0f", p/s}')
  printf '%-8s %-6s %8s %10s %12s %10s\n' "$n" curex "$cs" "$crate" "$((ck / 1024))" \
    "$(awk -v a="$crate" -v b="$hrate" 'BEGIN{printf "%.2fx", a/b}')"
  printf '%-8s %-6s %8s %10s %12s\n' "$n" hugo "$hs" "$hrate" "$((hk / 1024))"
  echo "         (median CPU seconds, user + system: curex $cc, Hugo $hc, Hugo ÷ curex $(awk -v a="$hc" -v b="$cc" 'BEGIN{printf "%.2fx", a/b}'); peak memory curex ÷ Hugo $(awk -v a="$ck" -v b="$hk" 'BEGIN{printf "%.2f", a/b}'))"
  # Every file and folder a run makes costs an inode, which is what a
  # slow phase of the disk charges for (see WARMUP above).
  cinodes=$(find "$dir/curex-site-1" | wc -l)
  hinodes=$(find "$dir/hugo-public-1" | wc -l)
  echo "         (curex wrote $cpages HTML files, Hugo $hpages; files and folders: curex $cinodes, Hugo $hinodes)"
  read -r cpb ceb < <(weight "$dir/curex-site-1")
  read -r hpb heb < <(weight "$dir/hugo-public-1")
  echo "         (bytes per page: curex $cpb, Hugo $hpb; navigation bytes per entry: curex $ceb, Hugo $heb, $(awk -v a="$ceb" -v b="$heb" 'BEGIN{printf "%.2fx", a/b}'))"
done
