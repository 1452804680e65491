package exporter_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// teacherNotes are texts of the sample's teacher_notes, in English and
// in Spanish, with the key itself and its English label.
var teacherNotes = []string{
	"teacher_notes", "Teacher notes",
	"Area models make the second product visible",
	"Ask them to substitute 0 into the original equation",
	"Los modelos de área hacen visible el segundo producto",
}

// TestHiddenAttributeReachesNoFormat: issue 26 part 3. Every attribute
// was shown and indexed: the sample's teacher_notes were on the public
// site, in its search index, in the handbook, the books, the cartridge
// and both bundles. With hide_attributes [teacher_notes] no file of the
// output holds them, zipped or not (the PDF's text too, where Chromium
// and pdftotext are here); without it they are there, so the search
// below finds what it looks for.
func TestHiddenAttributeReachesNoFormat(t *testing.T) {
	t.Parallel()
	formats := []string{"html", "json", "markdown", "handbook", "epub", "cartridge"}
	if pdfTools() {
		formats = append(formats, "pdf")
	}
	// Algebra 1 in English and Spanish: its lessons have teacher notes
	// (one PDF per export is printed, so the sample's other curricula
	// would only make the test slower).
	filter := fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en", "es"}}
	_, url := sampleServer(t, sandbox.Options{})
	for _, tc := range []struct {
		name string
		hide []string
		want bool
	}{
		{"shown by default", nil, true},
		{"hidden", []string{"teacher_notes", "no_such_key"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
				Generator: "curex test", Formats: formats, Filter: filter, HideAttributes: tc.hide}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			seen := map[string][]string{}
			for name, data := range outputTexts(t, out) {
				for _, s := range teacherNotes {
					if strings.Contains(data, s) {
						seen[s] = append(seen[s], name)
					}
				}
			}
			for _, s := range teacherNotes {
				switch {
				case tc.want && len(seen[s]) == 0 && s != "Los modelos de área hacen visible el segundo producto":
					t.Errorf("%q is in no file: the test looks for the wrong text", s)
				case !tc.want && len(seen[s]) > 0:
					t.Errorf("hidden %q is in %d files, such as %s", s, len(seen[s]), seen[s][0])
				}
			}
		})
	}
}

// pdfTools reports whether the PDF can be printed and read here (never
// with -short); CUREX_REQUIRE_TOOLS=1 requires it.
func pdfTools() bool {
	if testing.Short() {
		return false
	}
	_, cerr := chromium.Find("")
	_, perr := exec.LookPath("pdftotext")
	return cerr == nil && perr == nil || os.Getenv("CUREX_REQUIRE_TOOLS") == "1"
}

// outputTexts returns the text of every file under dir, by path: each
// member of a zip (books, cartridges, bundles) as a file of its own, and
// a PDF as pdftotext reads it.
func outputTexts(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, data := range relFiles(t, dir) {
		switch filepath.Ext(p) {
		case ".zip", ".epub", ".imscc":
			zr, err := zip.NewReader(bytes.NewReader([]byte(data)), int64(len(data)))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatalf("%s: %s: %v", p, f.Name, err)
				}
				b, err := io.ReadAll(rc)
				_ = rc.Close()
				if err != nil {
					t.Fatalf("%s: %s: %v", p, f.Name, err)
				}
				out[p+"!"+f.Name] = string(b)
			}
		case ".pdf":
			b, err := exec.Command("pdftotext", "-q", filepath.Join(dir, filepath.FromSlash(p)), "-").Output()
			if err != nil {
				t.Fatalf("pdftotext %s: %v", p, err)
			}
			out[p+" (text)"] = string(b)
		}
		out[p] = data
	}
	return out
}

// TestHiddenAttributeChangeIsNoChange: issue 26 part 3. A change to an
// attribute the publisher hides changes nothing anyone can see, so the
// change history (changes.json, and from it "What's new" and the feed)
// must not list the node; the same edit with the attribute shown is a
// content change, so the test looks at the right node.
func TestHiddenAttributeChangeIsNoChange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		hide []string
		want string // the ids of the nodes listed as changed
	}{
		{"shown", nil, "alg-u1-l4"},
		{"hidden", []string{"teacher_notes"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, url := sampleServer(t, sandbox.Options{})
			out := filepath.Join(t.TempDir(), "out")
			cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
				Generator: "curex test", Formats: []string{"json"}, HideAttributes: tc.hide,
				Filter: fetch.Filter{Curricula: []string{"101"}, Variants: []string{"base"}, Locales: []string{"en"}}}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			if err := h.Edit(func(ds *dataset.Dataset) error {
				n := findNode(ds, "101", "alg-u1-l4")
				if n == nil || n.Attributes["teacher_notes"] == nil {
					return errors.New("the sample changed: alg-u1-l4 has no teacher_notes")
				}
				n.Attributes["teacher_notes"] = json.RawMessage(`"A note only teachers see, rewritten."`)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(out, "bundles", "algebra-1", "base", "en", "changes.json"))
			if err != nil {
				t.Fatal(err)
			}
			var hist changes.History
			if err := json.Unmarshal(data, &hist); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range hist.Entries {
				for _, it := range e.ContentChanged {
					got = append(got, it.ID)
				}
				if n := len(e.Added) + len(e.Removed) + len(e.Moved) + len(e.Retitled) + len(e.Translated); n > 0 {
					t.Errorf("%d other changes listed: %s", n, data)
				}
			}
			if s := strings.Join(got, ","); s != tc.want {
				t.Errorf("content changed: %q, want %q", s, tc.want)
			}
		})
	}
}

// findNode returns the node id of curriculum cid in ds, or nil.
func findNode(ds *dataset.Dataset, cid, id string) *dataset.Node {
	var find func(ns []dataset.Node) *dataset.Node
	find = func(ns []dataset.Node) *dataset.Node {
		for i := range ns {
			if ns[i].ID == id {
				return &ns[i]
			}
			if n := find(ns[i].Children); n != nil {
				return n
			}
		}
		return nil
	}
	for i := range ds.Curricula {
		if ds.Curricula[i].ID == cid {
			return find(ds.Curricula[i].Nodes)
		}
	}
	return nil
}
