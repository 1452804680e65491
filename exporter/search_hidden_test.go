package exporter_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/render/terms"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestSearchIndexesHoldNoHiddenText: issue 27 part 3. Only what the
// pages show is indexed: with hide_attributes [teacher_notes], no search
// file of the export (search.json, the head, the text chunks, the terms,
// the lists of sources) holds a teacher note's text, nor the stem of a
// word only the notes use; no unpublished node's title, nor a stem only
// it brings, is in one either. With the notes shown and the unpublished
// nodes included, the same words are found, so the test looks for what
// would be there.
func TestSearchIndexesHoldNoHiddenText(t *testing.T) {
	t.Parallel()
	en, err := terms.NewStemmers().For("en")
	if err != nil {
		t.Fatal(err)
	}
	quoted := func(words ...string) []string {
		var out []string
		for _, w := range words {
			out = append(out, `"`+en.Stem(w)+`"`)
		}
		return out
	}
	// Teacher notes (the base's, Houston's) and words only they hold.
	notes := append([]string{"Area models make the second product visible", "Ask them to substitute 0 into the original equation",
		"cognates", "bilingual"}, quoted("cognates", "bilingual", "emergent")...)
	// Unpublished nodes: a draft, the activity under it, a node in review.
	drafts := append([]string{"Arithmetic Sequences as Linear Functions", "Pattern Tiles Exploration", "Point-Slope and Standard Form"},
		quoted("recursive")...)
	_, url := sampleServer(t, sandbox.Options{})
	for _, tc := range []struct {
		name string
		hide []string
		all  bool // include unpublished nodes
		want bool
	}{
		{"shown", nil, true, true},
		{"hidden", []string{"teacher_notes"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			filter := fetch.Filter{Curricula: []string{"101"}, Locales: []string{"en"}, IncludeUnpublished: tc.all}
			cfg := exporter.Config{BaseURL: url, Token: token, Output: out, CacheDir: t.TempDir(), Limits: ratelimit.Limits{},
				Generator: "curex test", Formats: []string{"html"}, Filter: filter, HideAttributes: tc.hide}
			if _, err := exporter.Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			seen := map[string][]string{}
			files := 0
			err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "search") {
					return err
				}
				files++
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				for _, s := range append(notes, drafts...) {
					if strings.Contains(string(data), s) {
						rel, _ := filepath.Rel(out, p)
						seen[s] = append(seen[s], rel)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if files < 5 {
				t.Fatalf("%d search files", files)
			}
			for _, s := range append(notes, drafts...) {
				switch {
				case tc.want && len(seen[s]) == 0:
					t.Errorf("%q is in no search file: the test looks for the wrong text", s)
				case !tc.want && len(seen[s]) > 0:
					t.Errorf("%q is in %d search files, such as %s", s, len(seen[s]), seen[s][0])
				}
			}
		})
	}
}
