package markdown

import (
	"strconv"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
)

// chain returns a tree whose nodes nest levels deep, each level also
// holding a leaf sibling, with titles of the given length.
func chain(levels, titleLen int) *model.Tree {
	title := func(i int) string {
		s := "Level " + strconv.Itoa(i) + " "
		return s + strings.Repeat("x", max(0, titleLen-len(s)))
	}
	root := testNode("n0", title(0))
	n := root
	for i := 1; i < levels; i++ {
		c := testNode("n"+strconv.Itoa(i), title(i))
		leaf := testNode("leaf"+strconv.Itoa(i), "Leaf "+strconv.Itoa(i))
		n.Children = []*model.Node{c, leaf}
		n = c
	}
	return testTree(root)
}

// TestDeepTree writes a curriculum 10,000 levels deep: no stack overflow,
// folders nest at most MaxFolderDepth deep, deeper nodes go flat in the
// deepest folder, names stay short, and every link resolves.
func TestDeepTree(t *testing.T) {
	const levels = 10_000
	tr := chain(levels, 20)
	w, e := write(t, tr, Options{})
	files := w.bundleFiles(e)
	if want := 2*levels - 1 + 2; len(files) != want {
		t.Fatalf("%d files, want %d", len(files), want)
	}
	deepest := ""
	for name := range files {
		if d := strings.Count(name, "/"); d > MaxFolderDepth {
			t.Fatalf("%s nests %d folders deep", name, d)
		}
		if len(name) > MaxFolderPath+2*80 {
			t.Fatalf("path of %d bytes: %.100s…", len(name), name)
		}
		if strings.Count(name, "/") == MaxFolderDepth && len(name) > len(deepest) {
			deepest = name
		}
	}
	// Below the deepest folder, pages are numbered in reading order.
	folder := dirOf(deepest)
	if _, ok := files[folder+"/index.md"]; !ok {
		t.Fatalf("no index.md in the deepest folder %s", folder)
	}
	flat := 0
	for name := range files {
		if strings.HasPrefix(name, folder+"/") && name != folder+"/index.md" {
			flat++
			if strings.Count(name, "/") != MaxFolderDepth {
				t.Errorf("%s: not flat in %s", name, folder)
			}
		}
	}
	// The deepest folder is that of the node at depth MaxFolderDepth-1;
	// below it, every chain node but the last has a child and a leaf.
	if want := 2 * (levels - MaxFolderDepth); flat != want {
		t.Errorf("%d files flat in the deepest folder, want %d", flat, want)
	}
	if _, ok := files[folder+"/00001-level-16-xxxxxxxxxxx.md"]; !ok {
		t.Errorf("the first flat page in %s is not 00001-level-16-…", folder)
	}
	checkLinks(t, files)

	// The table of contents stops indenting at maxListDepth.
	for line := range strings.Lines(string(files["index.md"])) {
		if n := len(line) - len(strings.TrimLeft(line, " ")); n > 4*(maxListDepth-1) {
			t.Fatalf("table of contents indents %d spaces", n)
		}
	}
}

// TestLongPaths gives a shallow curriculum titles long enough that folder
// paths reach MaxFolderPath before MaxFolderDepth.
func TestLongPaths(t *testing.T) {
	tr := chain(40, 200)
	w, e := write(t, tr, Options{})
	files := w.bundleFiles(e)
	longest := 0
	for name := range files {
		longest = max(longest, len(dirOf(name)))
	}
	if longest >= MaxFolderPath+80 || longest < MaxFolderPath-80 {
		t.Errorf("longest folder path %d bytes, want about %d", longest, MaxFolderPath)
	}
	checkLinks(t, files)
}
