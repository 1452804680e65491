package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/golden"
	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
)

// sampleTreeJSON exports one sample bundle with curex export and returns
// its tree.json.
func sampleTreeJSON(t *testing.T) []byte {
	t.Helper()
	t.Setenv("CURRICULUM_API_TOKEN", "sandbox-riverbend-token")
	t.Setenv("CUREX_CHROMIUM", "")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	args := []string{"export", "--base-url", sandboxURL(t), "--cache-dir", t.TempDir(), "--output", out,
		"--formats", "json", "--curriculum", "101", "--variants", "Texas", "--locales", "es", "--progress", "none"}
	if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "bundles", "algebra-1", "texas", "es", "tree.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// breakTree returns the document with three faults: a wrong format, a
// missing locale, and a node path that climbs out of the site.
func breakTree(t *testing.T, data []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["format"] = "curex.tree/v0"
	delete(doc, "locale")
	doc["nodes"].([]any)[0].(map[string]any)["path"] = "../../etc/x.html"
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestValidate runs curex validate on a sample tree.json, a broken one,
// one that is not JSON, a missing file and standard input; the text of
// the broken one's problems is a golden file.
func TestValidate(t *testing.T) {
	good := sampleTreeJSON(t)
	testdataDir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // names in the output stay short and stable
	for name, data := range map[string][]byte{"good.json": good, "broken.json": breakTree(t, good), "notjson.json": []byte(`{"format": `)} {
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	validate := func(stdin []byte, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		g := &globals{stdout: &stdout, stderr: &stderr}
		root := newRoot(g)
		root.SetIn(bytes.NewReader(stdin))
		code := execute(context.Background(), g, root, append([]string{"validate"}, args...))
		return code, stdout.String(), stderr.String()
	}

	if code, out, errs := validate(nil, "good.json"); code != exitOK || out != "good.json: ok\n" || errs != "" {
		t.Errorf("valid tree: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, _ := validate(good, "-"); code != exitOK || out != "-: ok\n" {
		t.Errorf("valid tree on stdin: exit %d, %q", code, out)
	}

	code, out, errs := validate(nil, "good.json", "broken.json", "notjson.json", "missing.json")
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	golden.Check(t, filepath.Join(testdataDir, "validate-broken.golden"), []byte(out))
	if want := "curex: validate: 3 of 4 files did not pass\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	for _, want := range []string{"/nodes/0/path: ", "/format: ", "(document): missing property 'locale'", "notjson.json: not JSON: at byte", "missing.json: open missing.json: no such file"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = validate(nil, "--json", "good.json", "broken.json")
	var results []validateResult
	if err := json.Unmarshal([]byte(out), &results); err != nil || code != exitFailed {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, out)
	}
	if len(results) != 2 || !results[0].Valid || results[1].Valid || len(results[1].Problems) < 3 || results[1].Problems[0].Keyword == "" {
		t.Errorf("--json results %+v", results)
	}

	if code, _, errs := validate(nil); code != exitUsage || !strings.Contains(errs, "want one or more files") {
		t.Errorf("no file: exit %d, %q", code, errs)
	}
}

// FuzzValidate feeds arbitrary bytes to curex validate's reading of a
// file: it never panics, and a result is either valid, or says why not
// (an error or at least one problem with a JSON Pointer).
func FuzzValidate(f *testing.F) {
	for _, s := range []string{"", "{}", "[]", "null", `{"format":"curex.tree/v1"}`, `{"format":"curex.tree/v1","nodes":[{"path":"../x.html"}]}`,
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000), `{"a":1} {"b":2}`, "\xff\xfe"} {
		f.Add([]byte(s))
	}
	v, err := treeschema.NewValidator()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := validateFile(v, bytes.NewReader(data), "-", defaultMaxValidateBytes)
		switch {
		case r.Valid && (r.Error != "" || len(r.Problems) > 0):
			t.Fatalf("valid with complaints: %+v", r)
		case !r.Valid && r.Error == "" && len(r.Problems) == 0:
			t.Fatalf("invalid without a reason: %+v", r)
		}
		for _, p := range r.Problems {
			if p.Location != "" && !strings.HasPrefix(p.Location, "/") {
				t.Fatalf("location %q is not a JSON Pointer", p.Location)
			}
		}
	})
}

// spaces is an endless standard input of spaces, counting what was read.
type spaces struct{ read int64 }

func (s *spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	s.read += int64(len(p))
	return len(p), nil
}

// TestValidateStdinCap: issue 23 section 6. curex validate - read without
// a limit (1 GB of spaces took 3.2 GB of memory). Standard input and
// files are read no further than the cap, and the error names it.
func TestValidateStdinCap(t *testing.T) {
	if defaultMaxValidateBytes > 256<<20 {
		t.Errorf("default cap %d bytes, want at most 256 MiB", defaultMaxValidateBytes)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("big.json", bytes.Repeat([]byte(" "), 5000), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"endless stdin", []string{"--max-bytes", "4096", "-"}, exitFailed, "-: larger than the cap of 4096 bytes (--max-bytes"},
		{"file over the cap", []string{"--max-bytes", "4096", "big.json"}, exitFailed, "big.json: larger than the cap of 4096 bytes (--max-bytes"},
		{"file under the cap", []string{"--max-bytes", "8192", "big.json"}, exitFailed, "big.json: not JSON"},
		{"no cap", []string{"--max-bytes", "0", "-"}, exitUsage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &spaces{}
			var stdout, stderr bytes.Buffer
			g := &globals{stdout: &stdout, stderr: &stderr}
			root := newRoot(g)
			root.SetIn(in)
			code := execute(context.Background(), g, root, append([]string{"validate"}, tt.args...))
			if code != tt.code || !strings.Contains(stdout.String(), tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout.String(), stderr.String(), tt.code, tt.want)
			}
			if in.read > 1<<20 {
				t.Errorf("read %d bytes of standard input past a cap of 4096", in.read)
			}
		})
	}
}
