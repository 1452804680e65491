package lint

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the longest a non-test function may be, counted from its
// func line to its closing brace, both included. Function literals count
// toward the declaration that holds them.
const maxFuncLines = 80

// longFunc is one function over the limit.
type longFunc struct {
	pos   token.Position
	name  string
	lines int
}

func (f longFunc) String() string {
	return fmt.Sprintf("%s:%d %s %d lines", f.pos.Filename, f.pos.Line, f.name, f.lines)
}

// TestNoFunctionOver80Lines parses every non-test .go file of the module
// (testdata and hidden folders aside) and fails naming each function
// declaration longer than maxFuncLines.
func TestNoFunctionOver80Lines(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	long, err := longFuncs(root, maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range long {
		t.Errorf("%v (at most %d; split it into named steps)", f, maxFuncLines)
	}
}

// TestLongFuncs checks the counting on small sources: from the func line to
// the closing brace, literals inside counted with their declaration, test
// files and testdata left out.
func TestLongFuncs(t *testing.T) {
	body := func(n int) string { return strings.Repeat("\t_ = 1\n", n) }
	tests := []struct {
		name  string
		files map[string]string
		want  []string // "file:line name lines"
	}{
		{
			name:  "at the limit",
			files: map[string]string{"a.go": "package a\n\nfunc F() {\n" + body(3) + "}\n"},
			want:  nil,
		},
		{
			name:  "over the limit",
			files: map[string]string{"a.go": "package a\n\nfunc F() {\n" + body(4) + "}\n"},
			want:  []string{"a.go:3 F 6 lines"},
		},
		{
			name: "method named with its receiver",
			files: map[string]string{"a.go": "package a\n\ntype T struct{}\n\nfunc (t *T) M() {\n" +
				body(4) + "}\n"},
			want: []string{"a.go:5 T.M 6 lines"},
		},
		{
			name: "literal counts toward its declaration",
			files: map[string]string{"a.go": "package a\n\nfunc F() {\n\tg := func() {\n" + body(3) +
				"\t}\n\tg()\n}\n"},
			want: []string{"a.go:3 F 8 lines"},
		},
		{
			name: "test files and testdata are left out",
			files: map[string]string{
				"a_test.go":        "package a\n\nfunc F() {\n" + body(9) + "}\n",
				"testdata/b/b.go":  "package b\n\nfunc F() {\n" + body(9) + "}\n",
				".hidden/c/c.go":   "package c\n\nfunc F() {\n" + body(9) + "}\n",
				"sub/d.go":         "package d\n\nfunc Short() {}\n",
				"sub/d_bench.go":   "package d\n\nfunc F() {\n" + body(4) + "}\n",
				"other/go.mod":     "module other\n",
				"other/nested.go":  "package other\n\nfunc F() {\n" + body(9) + "}\n",
				"sub/not-go.txt":   "func F() {\n" + body(9) + "}\n",
				"sub/ignored.go.x": "package d\n",
			},
			want: []string{filepath.Join("sub", "d_bench.go") + ":3 F 6 lines"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tc.files {
				path := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			long, err := longFuncs(dir, 5)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range long {
				got = append(got, f.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// longFuncs returns the function declarations over limit lines in the
// non-test .go files under root, with file names relative to root, in
// file and line order. Folders named testdata, hidden folders and nested
// modules are skipped, as the go tool skips them.
func longFuncs(root string, limit int) ([]longFunc, error) {
	var long []longFunc
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return skipDir(root, path, d.Name())
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("lint: parse %s: %w", rel, err)
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > limit {
				start.Filename = rel
				long = append(long, longFunc{pos: start, name: funcName(fn), lines: n})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(long, func(i, j int) bool {
		a, b := long[i].pos, long[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	return long, nil
}

// skipDir reports fs.SkipDir for the folders the go tool does not build
// as part of the module at root.
func skipDir(root, path, name string) error {
	if path == root {
		return nil
	}
	if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
		name == "node_modules" {
		return fs.SkipDir
	}
	if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
		return fs.SkipDir // a module of its own
	}
	return nil
}

// funcName is fn's name, with its receiver's type for a method (T.M).
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	for {
		switch t := typ.(type) {
		case *ast.StarExpr:
			typ = t.X
			continue
		case *ast.IndexExpr:
			typ = t.X
			continue
		case *ast.IndexListExpr:
			typ = t.X
			continue
		case *ast.ParenExpr:
			typ = t.X
			continue
		case *ast.Ident:
			return t.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}

// moduleRoot is the folder holding the go.mod of the module under test,
// found from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("lint: working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("lint: no go.mod above the working directory")
		}
		dir = parent
	}
}
