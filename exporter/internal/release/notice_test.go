package release

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// noticePaths returns the module paths NOTICE names: every word that looks
// like a module path (a host with a dot, then a path), with shell-style
// braces expanded (golang.org/x/{net,text}) and a trailing "/..." or
// ",", "." or ")" dropped.
func noticePaths(notice string) []string {
	word := regexp.MustCompile(`[a-z0-9.-]+\.[a-z]+(/[A-Za-z0-9._{},/-]+)?`)
	var out []string
	for _, w := range word.FindAllString(notice, -1) {
		w = strings.TrimSuffix(strings.TrimRight(w, ",.)"), "/") // "sdk/...," is "sdk"
		if i, j := strings.Index(w, "{"), strings.Index(w, "}"); i >= 0 && j > i {
			for _, alt := range strings.Split(w[i+1:j], ",") {
				out = append(out, w[:i]+alt+w[j+1:])
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// covered reports whether NOTICE's paths name module m, or a module it is
// a submodule of (github.com/aws/aws-sdk-go-v2 covers .../service/s3).
func covered(paths []string, m string) bool {
	for _, p := range paths {
		if m == p || strings.HasPrefix(m, p+"/") {
			return true
		}
	}
	return false
}

// TestNoticeListsLinkedModules: every module the curex binary links (as
// go list -deps sees the default build) is named in NOTICE, so the file
// cannot drift from go.mod unnoticed when a dependency is added.
func TestNoticeListsLinkedModules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go list")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	notice, err := os.ReadFile(filepath.Join(root, "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}{{end}}{{end}}", "./cmd/curex")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	paths := noticePaths(string(notice))
	seen := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		if seen[m] {
			continue
		}
		seen[m] = true
		if !covered(paths, m) {
			t.Errorf("NOTICE does not name %s, which the binary links: add it under its licence", m)
		}
	}
	if len(seen) < 20 {
		t.Fatalf("go list named only %d modules: %q", len(seen), out)
	}
}

// TestNoticePaths: the reading of NOTICE's module names.
func TestNoticePaths(t *testing.T) {
	paths := noticePaths("MIT: github.com/yuin/goldmark,\n  golang.org/x/{net,text}, github.com/Azure/azure-sdk-for-go/sdk/...,\n  gocloud.dev (and its submodules).")
	for _, tc := range []struct {
		module string
		want   bool
	}{
		{"github.com/yuin/goldmark", true},
		{"golang.org/x/net", true},
		{"golang.org/x/text", true},
		{"golang.org/x/sys", false},
		{"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob", true},
		{"gocloud.dev", true},
		{"github.com/yuin/goldmark-emoji", false},
		{"github.com/spf13/cobra", false},
	} {
		if got := covered(paths, tc.module); got != tc.want {
			t.Errorf("%s covered: %v, want %v (paths %q)", tc.module, got, tc.want, paths)
		}
	}
}
