package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRaceFreePackagesShareNothing checks the claim that lets make test
// run the packages of the Makefile's RACE_FREE_PKGS without the race
// detector: their non-test code starts no goroutine and imports no
// synchronization (sync, sync/atomic, golang.org/x/sync), so a data race
// can only come from a caller sharing their values, which the callers'
// own race tests see. A package that starts needing either must leave
// the list.
func TestRaceFreePackagesShareNothing(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	pkgs := makeVariable(t, filepath.Join(root, "Makefile"), "RACE_FREE_PKGS")
	if len(pkgs) == 0 {
		t.Fatal("the Makefile has no RACE_FREE_PKGS")
	}
	for _, pkg := range pkgs {
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(strings.TrimPrefix(pkg, "./"), "/")))
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Errorf("RACE_FREE_PKGS names %s, which has no Go file (%v)", pkg, err)
			continue
		}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path == "sync" || path == "sync/atomic" || strings.HasPrefix(path, "golang.org/x/sync/") {
					t.Errorf("%s imports %s: take %s out of RACE_FREE_PKGS", fset.Position(imp.Pos()), path, pkg)
				}
			}
			ast.Inspect(file, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					t.Errorf("%s starts a goroutine: take %s out of RACE_FREE_PKGS", fset.Position(g.Pos()), pkg)
				}
				return true
			})
		}
	}
}

// makeVariable returns the words of the simple assignment "NAME := ..."
// in the Makefile at path.
func makeVariable(t *testing.T, path, name string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, name); ok {
			if v, ok := strings.CutPrefix(strings.TrimSpace(v), ":="); ok {
				return strings.Fields(v)
			}
		}
	}
	return nil
}
