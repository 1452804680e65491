//go:build !nopublish

package publish

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocloud.dev/blob"

	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/serve"
)

// siteSpec describes a small output folder: one curriculum, some locales,
// some nodes, a theme stylesheet whose name carries its hash.
type siteSpec struct {
	locales []string
	nodes   []string          // node slugs
	edits   map[string]string // "locale/node" -> extra text in that node
	css     string            // stylesheet content
}

func defaultSpec() siteSpec {
	return siteSpec{
		locales: []string{"en", "es", "fr"},
		nodes:   []string{"numbers", "linear-equations", "functions"},
		css:     "body { font-family: serif; }\n",
	}
}

func (s siteSpec) with(f func(*siteSpec)) siteSpec {
	s.locales = slices.Clone(s.locales)
	s.nodes = slices.Clone(s.nodes)
	s.edits = maps.Clone(s.edits)
	f(&s)
	return s
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// files returns the output folder's files (manifest.json included) by
// path.
func (s siteSpec) files() map[string][]byte {
	css := "assets/site." + shortHash(s.css) + ".css"
	js := "assets/site." + shortHash("js") + ".js"
	page := func(title, body string) []byte {
		return fmt.Appendf(nil, "<!doctype html><html lang=\"en\"><head><title>%s</title><link rel=\"stylesheet\" href=\"/%s\"><script src=\"/%s\"></script></head><body>%s %s</body></html>\n",
			title, css, js, body, strings.Repeat("lorem ipsum dolor sit amet ", 20))
	}
	f := map[string][]byte{
		css:                    []byte(s.css),
		js:                     []byte("document.documentElement.classList.add('js');\n"),
		"robots.txt":           []byte("User-agent: *\nAllow: /\n"),
		"404.html":             page("Not found", "Nothing here."),
		"algebra-1/cover.png":  append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 3, 250, 251}, 40)...),
		"algebra-1/index.html": page("Algebra 1", "Locales: "+strings.Join(s.locales, ", ")),
		"index.html":           page("Catalog", "Algebra 1"),
	}
	var sitemap strings.Builder
	sitemap.WriteString("<?xml version=\"1.0\"?>\n<urlset>\n")
	for _, loc := range s.locales {
		dir := "algebra-1/base/" + loc + "/"
		bundle := "bundles/algebra-1/base/" + loc + "/"
		f[dir+"index.html"] = page("Algebra 1 ("+loc+")", "Contents: "+strings.Join(s.nodes, ", "))
		f[dir+"handbook.html"] = page("Handbook ("+loc+")", strings.Join(s.nodes, " "))
		var tree, search strings.Builder
		tree.WriteString(`{"locale":"` + loc + `","nodes":[`)
		search.WriteString(`[`)
		for i, n := range s.nodes {
			text := "Node " + n + " in " + loc + ". " + s.edits[loc+"/"+n]
			f[dir+n+"/index.html"] = page(n, text)
			f[bundle+"markdown/"+n+".md"] = []byte("# " + n + "\n\n" + text + "\n")
			if i > 0 {
				tree.WriteString(",")
				search.WriteString(",")
			}
			fmt.Fprintf(&tree, `{"id":%q,"title":%q}`, n, text)
			fmt.Fprintf(&search, `{"path":%q,"title":%q}`, dir+n+"/", text)
		}
		tree.WriteString("]}\n")
		search.WriteString("]\n")
		f[bundle+"tree.json"] = []byte(tree.String())
		f[dir+"search.json"] = []byte(search.String())
		fmt.Fprintf(&sitemap, "<url><loc>%sindex.html</loc></url>\n", dir)
	}
	sitemap.WriteString("</urlset>\n")
	f["sitemap.xml"] = []byte(sitemap.String())
	m := &output.Manifest{Generator: "curex test"}
	for _, p := range slices.Sorted(maps.Keys(f)) {
		sum := sha256.Sum256(f[p])
		m.Files = append(m.Files, output.ManifestFile{Path: p, Size: int64(len(f[p])), SHA256: hex.EncodeToString(sum[:])})
	}
	data, err := m.Encode()
	if err != nil {
		panic(err)
	}
	f[output.ManifestName] = data
	return f
}

// writeSite writes files into a new folder, with the hidden files a real
// output folder may hold beside them, and returns the folder.
func writeSite(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	all := maps.Clone(files)
	all[".gitkeep"] = nil
	all[".curex-staging-1/index.html"] = []byte("staging, never published")
	for p, data := range all {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// changedPaths lists the paths of next that are new or differ from prev.
func changedPaths(prev, next map[string][]byte) []string {
	var out []string
	for p, data := range next {
		if old, ok := prev[p]; !ok || !bytes.Equal(old, data) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// removedPaths lists the paths of prev that next no longer has.
func removedPaths(prev, next map[string][]byte) []string {
	var out []string
	for p := range prev {
		if _, ok := next[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func withPrefix(prefix string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = prefix + p
	}
	return out
}

func uploadPaths(p *Plan) []string {
	var out []string
	for _, it := range p.Upload {
		out = append(out, it.Path)
	}
	slices.Sort(out)
	return out
}

// readObject returns an object's content, decompressed when stored with
// Content-Encoding: gzip, and its attributes.
func readObject(t testing.TB, b *blob.Bucket, key string) ([]byte, *blob.Attributes) {
	t.Helper()
	ctx := context.Background()
	a, err := b.Attributes(ctx, key)
	if err != nil {
		t.Fatalf("attributes of %s: %v", key, err)
	}
	data, err := b.ReadAll(ctx, key)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	if a.ContentEncoding == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: Content-Encoding gzip, but: %v", key, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: gunzip: %v", key, err)
		}
	}
	return data, a
}

// assertMirror checks that the managed objects under prefix are exactly the
// files, with their content and headers.
func assertMirror(t testing.TB, b *blob.Bucket, prefix string, files map[string][]byte, gz bool) {
	t.Helper()
	ctx := context.Background()
	got := map[string]bool{}
	iter := b.List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		if rel := strings.TrimPrefix(obj.Key, prefix); managed(rel) {
			got[rel] = true
		}
	}
	if want := slices.Sorted(maps.Keys(files)); !slices.Equal(slices.Sorted(maps.Keys(got)), want) {
		t.Fatalf("objects under %q:\n got %q\nwant %q", prefix, slices.Sorted(maps.Keys(got)), want)
	}
	for p, want := range files {
		data, a := readObject(t, b, prefix+p)
		if !bytes.Equal(data, want) {
			t.Errorf("%s: content differs from the file", p)
		}
		h := headersFor(p, gz, nil)
		if a.ContentType != serve.ContentType(p) || a.CacheControl != h.cacheControl || a.ContentEncoding != h.contentEncoding {
			t.Errorf("%s: stored with Content-Type %q, Cache-Control %q, Content-Encoding %q; want %q, %q, %q",
				p, a.ContentType, a.CacheControl, a.ContentEncoding, serve.ContentType(p), h.cacheControl, h.contentEncoding)
		}
		sum := sha256.Sum256(want)
		if a.Metadata[metaSHA256] != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: metadata %s = %q", p, metaSHA256, a.Metadata[metaSHA256])
		}
	}
}
