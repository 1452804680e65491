package render_test

import (
	"errors"
	"go/build"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/curex/curex"

// forbidden are the packages a renderer must not reach, directly or
// through another package: the API client and the fetcher. Renderers read
// the model (trees, the catalog) alone.
var forbidden = []string{module + "/exporter/internal/fetch", module + "/exporter/api"}

// TestRenderersDependOnTheModelAlone fails when a package under
// exporter/internal/render imports exporter/internal/fetch or exporter/api, directly or
// through any package of this module (test files aside), naming the chain
// of imports. It reads the source files' imports (go/build), so it needs
// no go command and no network.
func TestRenderersDependOnTheModelAlone(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	g := &importGraph{root: root, imports: map[string][]string{}}
	var pkgs []string
	err = filepath.WalkDir(filepath.Join(root, "exporter", "internal", "render"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if ok, err := g.load(module + "/" + filepath.ToSlash(rel)); err != nil {
			return err
		} else if ok {
			pkgs = append(pkgs, module+"/"+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d packages under exporter/internal/render, want the renderers: %v", len(pkgs), pkgs)
	}
	for _, p := range pkgs {
		chain, err := g.path(p, forbidden)
		if err != nil {
			t.Fatal(err)
		}
		if chain != nil {
			t.Errorf("%s depends on %s: %s (renderers read the model, exporter/model, alone)",
				strings.TrimPrefix(p, module+"/"), strings.TrimPrefix(chain[len(chain)-1], module+"/"), trim(chain))
		}
	}
}

// importGraph is the import graph of this module's packages, as their
// non-test Go files on this platform spell it, read on demand.
type importGraph struct {
	root    string
	imports map[string][]string // by import path: the module's packages it imports
}

// load reads the imports of package p; ok is false for a folder with no
// Go package.
func (g *importGraph) load(p string) (ok bool, err error) {
	if _, done := g.imports[p]; done {
		return true, nil
	}
	dir := filepath.Join(g.root, filepath.FromSlash(strings.TrimPrefix(p, module+"/")))
	bp, err := build.Default.ImportDir(dir, 0)
	var none *build.NoGoError
	if errors.As(err, &none) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var own []string
	for _, imp := range bp.Imports {
		if imp == module || strings.HasPrefix(imp, module+"/") {
			own = append(own, imp)
		}
	}
	g.imports[p] = own
	return true, nil
}

// path returns a chain of imports from p to one of targets (p first), or
// nil when p reaches none: breadth first, so the chain is a shortest one.
func (g *importGraph) path(p string, targets []string) ([]string, error) {
	from := map[string]string{p: ""}
	queue := []string{p}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, target := range targets {
			if cur == target {
				var chain []string
				for c := cur; c != ""; c = from[c] {
					chain = append([]string{c}, chain...)
				}
				return chain, nil
			}
		}
		if _, err := g.load(cur); err != nil {
			return nil, err
		}
		for _, imp := range g.imports[cur] {
			if _, seen := from[imp]; !seen {
				from[imp] = cur
				queue = append(queue, imp)
			}
		}
	}
	return nil, nil
}

// trim is a chain of import paths relative to the module, joined by
// arrows.
func trim(chain []string) string {
	out := make([]string, len(chain))
	for i, c := range chain {
		out[i] = strings.TrimPrefix(c, module+"/")
		if c == module {
			out[i] = path.Base(module)
		}
	}
	return strings.Join(out, " → ")
}
