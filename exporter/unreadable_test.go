package exporter

import (
	"testing"

	"github.com/curex/curex/exporter/internal/output"
)

// TestPreviousDirOfEveryFormat: the folder of an export of the previous
// manifest is found from the path of any format it lists, so that a
// curriculum the token can no longer read keeps its files whatever the
// formats were. On b489b29 the list of formats spelled there missed the
// EPUB, and an export written as a book alone lost it (issue 24, part 1).
func TestPreviousDirOfEveryFormat(t *testing.T) {
	const dir = "algebra-1/base/en"
	tests := []struct {
		name  string
		entry output.ManifestExport
	}{
		{"html", output.ManifestExport{HTML: dir + "/index.html"}},
		{"json", output.ManifestExport{JSON: "bundles/" + dir + "/tree.json"}},
		{"markdown", output.ManifestExport{Markdown: "bundles/" + dir + "/markdown/"}},
		{"handbook", output.ManifestExport{Handbook: dir + "/handbook.html"}},
		{"pdf", output.ManifestExport{PDF: dir + "/handbook.pdf"}},
		{"epub", output.ManifestExport{EPUB: dir + "/algebra-1-base-en.epub"}},
		{"cartridge", output.ManifestExport{Cartridge: "bundles/" + dir + "/course.imscc"}},
		{"none", output.ManifestExport{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := dir
			if tc.name == "none" {
				want = ""
			}
			if got := previousDir(tc.entry); got != want {
				t.Errorf("previousDir = %q, want %q", got, want)
			}
		})
	}
}
