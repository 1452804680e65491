package lint

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// binary is the package of the curex command.
const binary = "github.com/curex/curex/cmd/curex"

// testOnly reports why a package, by import path, must not be linked into
// the curex binary, or "" when it may be.
func testOnly(pkg string) string {
	const module = "github.com/curex/curex/"
	switch {
	case pkg == "net/http/httptest":
		return "a test helper of the standard library"
	case pkg == "testing" || strings.HasPrefix(pkg, "testing/"):
		return "the standard library's testing packages"
	case strings.HasPrefix(pkg, module) && strings.HasSuffix(pkg, "test"):
		return "a test-support package of curex (…test)"
	case pkg == module+"exporter/internal/golden" || pkg == module+"exporter/internal/testtrees":
		return "a test-support package of curex"
	}
	return ""
}

// TestBinaryDoesNotLinkHTTPTest lists the packages the curex binary links
// (go list -deps) and fails for each test-only one, net/http/httptest
// first among them: test support lives in *test packages, never in the
// binary.
func TestBinaryDoesNotLinkHTTPTest(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to list the binary's packages: %v", err)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(t.Context(), goTool, "list", "-deps", binary)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", binary, err, stderr.Bytes())
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatalf("go list -deps %s listed nothing", binary)
	}
	for _, pkg := range deps {
		if why := testOnly(pkg); why != "" {
			t.Errorf("the curex binary links %s, %s; move what needs it to a test-only package", pkg, why)
		}
	}
}

// TestTestOnly checks which import paths testOnly rejects.
func TestTestOnly(t *testing.T) {
	tests := []struct {
		pkg  string
		want bool
	}{
		{"net/http/httptest", true},
		{"net/http", false},
		{"testing", true},
		{"testing/synctest", true},
		{"internal/synctest", false},
		{"github.com/curex/curex/exporter/sandbox/sandboxtest", true},
		{"github.com/curex/curex/exporter/internal/pacer/pacertest", true},
		{"github.com/curex/curex/exporter/internal/golden", true},
		{"github.com/curex/curex/exporter/internal/testtrees", true},
		{"github.com/curex/curex/exporter/sandbox", false},
		{"github.com/curex/curex/cmd/curex", false},
		{"example.com/other/footest", false},
	}
	for _, tc := range tests {
		if got := testOnly(tc.pkg) != ""; got != tc.want {
			t.Errorf("testOnly(%q) rejects: %v, want %v", tc.pkg, got, tc.want)
		}
	}
}
