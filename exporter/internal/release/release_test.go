package release

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sandboxToken is the token the tests give curex sandbox and the CI steps.
const sandboxToken = "release-test-token"

// snapshot is a release GoReleaser built (goreleaser release --snapshot):
// its dist folder, version, checksums.txt and the archive for this machine.
type snapshot struct {
	dir       string
	version   string
	checksums []byte
	archive   string // the file name of this platform's archive
}

// loadSnapshot reads the dist folder CUREX_RELEASE_DIST names. Without one
// the test is skipped, or fails under CUREX_REQUIRE_TOOLS=1 (make test).
func loadSnapshot(t *testing.T) snapshot {
	t.Helper()
	dir := os.Getenv("CUREX_RELEASE_DIST")
	if dir == "" {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal("CUREX_RELEASE_DIST is not set: make release-check builds the snapshot release this test runs")
		}
		t.Skip("set CUREX_RELEASE_DIST to a snapshot release's dist folder (make release-check builds one)")
	}
	var meta struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &meta); err != nil || meta.Version == "" {
		t.Fatalf("%s/metadata.json: no version (%v)", dir, err)
	}
	s := snapshot{dir: dir, version: meta.Version}
	if s.checksums, err = os.ReadFile(filepath.Join(dir, "checksums.txt")); err != nil {
		t.Fatal(err)
	}
	s.archive = fmt.Sprintf("curex_%s_%s_%s.tar.gz", s.version, runtime.GOOS, runtime.GOARCH)
	if !bytes.Contains(s.checksums, []byte("  "+s.archive+"\n")) {
		t.Fatalf("checksums.txt does not list %s:\n%s", s.archive, s.checksums)
	}
	return s
}

// serveTLS serves the snapshot the way GitHub serves a release's files:
// /v{version}/{name}, with checksums as checksums.txt, over HTTPS; curl
// trusts the server through the CA file it returns (CURL_CA_BUNDLE).
func (s snapshot) serveTLS(t *testing.T, checksums []byte) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewTLSServer(s.handler(checksums))
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return srv, ca
}

// handler answers /v{version}/{name} with the snapshot's files, and
// checksums as checksums.txt.
func (s snapshot) handler(checksums []byte) http.Handler {
	prefix := "/v" + s.version + "/"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, prefix)
		switch {
		case !ok || strings.Contains(name, "/"):
			http.NotFound(w, r)
		case name == "checksums.txt":
			w.Write(checksums)
		case bytes.Contains(s.checksums, []byte("  "+name+"\n")):
			http.ServeFile(w, r, filepath.Join(s.dir, name))
		default:
			http.NotFound(w, r)
		}
	})
}

// unpack extracts the snapshot's archive into a new folder, checks that it
// carries what a release promises, and returns the binary's path.
func (s snapshot) unpack(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join(s.dir, s.archive))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want := map[string]bool{"curex": false, "LICENSE": false, "NOTICE": false, "README.md": false, "THIRD_PARTY_LICENSES": false}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := want[h.Name]; !ok || h.Typeflag != tar.TypeReg {
			t.Errorf("%s holds %q, not a file a release ships", s.archive, h.Name)
			continue
		}
		want[h.Name] = true
		out, err := os.OpenFile(filepath.Join(dir, h.Name), os.O_CREATE|os.O_WRONLY|os.O_EXCL, os.FileMode(h.Mode)&0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, tr); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for name, found := range want {
		if !found {
			t.Errorf("%s lacks %s", s.archive, name)
		}
	}
	return filepath.Join(dir, "curex")
}

// startSandbox runs curex sandbox from bin on a free loopback port and
// returns its base URL; the test's cleanup stops it.
func startSandbox(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "sandbox", "--addr", "127.0.0.1:0", "--rate-limit", "none", "--token", sandboxToken)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "base URL:"); ok {
			go io.Copy(io.Discard, stdout)
			return strings.TrimSpace(u)
		}
	}
	t.Fatalf("curex sandbox printed no base URL; stderr: %s", stderr.String())
	return ""
}

// bash runs script with bash in dir, with env added to a small base
// environment (the test's PATH unless env has one), and returns its
// combined output.
func bash(t *testing.T, dir, script string, flags []string, env map[string]string) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "step.sh")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append(append([]string{"--noprofile", "--norc"}, flags...), path)...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + t.TempDir(), "LC_ALL=C"}
	if _, ok := env["PATH"]; !ok {
		cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
	}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// checkExport checks that an export into site left a complete output
// folder and filled the cache.
func checkExport(t *testing.T, site, cache string) {
	t.Helper()
	for _, f := range []string{"manifest.json", "index.html"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("the export wrote no %s: %v", f, err)
		}
	}
	if entries, err := os.ReadDir(cache); err != nil || len(entries) == 0 {
		t.Errorf("the cache folder %s is empty (%v)", cache, err)
	}
}

// githubAction is the part of action.yml the tests read.
type githubAction struct {
	Inputs map[string]struct {
		Required bool   `yaml:"required"`
		Default  string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand replaces the ${{ ... }} expressions of s from values, as the
// runner would; an expression the test does not know is an error, so a
// step cannot use one untested.
func expand(s string, values map[string]string) (string, error) {
	var missing []string
	out := expression.ReplaceAllStringFunc(s, func(m string) string {
		key := expression.FindStringSubmatch(m)[1]
		v, ok := values[key]
		if !ok {
			missing = append(missing, key)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("unknown expressions %q", missing)
	}
	return out, nil
}

// readYAML decodes the repository's file at path (relative to this
// package's folder) into v.
func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readAction(t *testing.T) githubAction {
	t.Helper()
	var a githubAction
	readYAML(t, "../../../action.yml", &a)
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using %q, want composite", a.Runs.Using)
	}
	return a
}

// actionRun is one run of the action's steps on a fake runner.
type actionRun struct {
	work, runnerTemp, githubPath, githubOutput string
	values                                     map[string]string
	// env is added to every step's environment (CURL_CA_BUNDLE).
	env map[string]string
}

func newActionRun(t *testing.T, a githubAction, inputs map[string]string) *actionRun {
	t.Helper()
	r := &actionRun{work: t.TempDir(), runnerTemp: t.TempDir(), values: map[string]string{
		"runner.os":     map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS],
		"github.run_id": "4242", "github.run_attempt": "1",
	}}
	meta := t.TempDir()
	r.githubPath, r.githubOutput = filepath.Join(meta, "path"), filepath.Join(meta, "output")
	for name, in := range a.Inputs {
		v, given := inputs[name]
		if !given {
			if in.Required {
				t.Fatalf("the test gives no value to the required input %s", name)
			}
			v = in.Default
		}
		r.values["inputs."+name] = v
	}
	for name := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %s", name)
		}
	}
	return r
}

// step runs one step with a run: script as the runner would (bash -e -o
// pipefail, GITHUB_PATH's folders on PATH), and checks a uses: step.
func (r *actionRun) step(t *testing.T, s actionStep) (string, error) {
	t.Helper()
	if s.Uses != "" {
		if !strings.HasPrefix(s.Uses, "actions/cache@") {
			t.Fatalf("step %q uses %s: the test knows only actions/cache", s.Name, s.Uses)
		}
		path, err := expand(s.With["path"], r.values)
		if err != nil || path != r.values["inputs.cache-dir"] {
			t.Errorf("step %q caches %q (%v), want the cache-dir input %q", s.Name, path, err, r.values["inputs.cache-dir"])
		}
		for _, k := range []string{"key", "restore-keys"} {
			if _, err := expand(s.With[k], r.values); err != nil {
				t.Errorf("step %q, %s: %v", s.Name, k, err)
			}
		}
		return "", nil
	}
	if s.Shell != "bash" {
		t.Fatalf("step %q: shell %q, want bash (the same on every runner)", s.Name, s.Shell)
	}
	script, err := expand(s.Run, r.values)
	if err != nil {
		t.Fatalf("step %q: %v", s.Name, err)
	}
	if strings.Contains(s.Run, "inputs.token") {
		t.Fatalf("step %q puts the token in its script; pass it in env", s.Name)
	}
	env := map[string]string{
		"RUNNER_OS": r.values["runner.os"], "RUNNER_ARCH": map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH],
		"RUNNER_TEMP": r.runnerTemp, "GITHUB_PATH": r.githubPath, "GITHUB_OUTPUT": r.githubOutput,
	}
	for k, v := range r.env {
		env[k] = v
	}
	for k, v := range s.Env {
		if env[k], err = expand(v, r.values); err != nil {
			t.Fatalf("step %q, env %s: %v", s.Name, k, err)
		}
	}
	added, _ := os.ReadFile(r.githubPath)
	paths := strings.Fields(string(added))
	for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 { // the last added comes first
		paths[i], paths[j] = paths[j], paths[i]
	}
	env["PATH"] = strings.Join(append(paths, os.Getenv("PATH")), string(os.PathListSeparator))
	return bash(t, r.work, script, []string{"-e", "-o", "pipefail"}, env)
}

// TestGitHubAction runs action.yml's steps: install the snapshot release
// from a loopback server, then export the sandbox with it.
func TestGitHubAction(t *testing.T) {
	snap := loadSnapshot(t)
	base := startSandbox(t, snap.unpack(t))
	srv, ca := snap.serveTLS(t, snap.checksums)
	a := readAction(t)
	r := newActionRun(t, a, map[string]string{
		"version":     snap.version,
		"release-url": srv.URL,
		"token":       sandboxToken,
		"base-url":    base,
		"formats":     "html,json",
		"output":      "site",
		"args":        "--rate-limit none --allow-private-assets --progress none",
	})
	r.env = map[string]string{"CURL_CA_BUNDLE": ca}
	var logs strings.Builder
	for _, s := range a.Runs.Steps {
		out, err := r.step(t, s)
		fmt.Fprintf(&logs, "--- %s\n%s", s.Name, out)
		if err != nil {
			t.Fatalf("step %q failed: %v\n%s", s.Name, err, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "curex "+snap.version+" (commit ") {
		t.Errorf("the install step did not run the installed curex version:\n%s", logs.String())
	}
	out, _ := os.ReadFile(r.githubOutput)
	if !strings.Contains(string(out), "exit-code=0\n") {
		t.Errorf("GITHUB_OUTPUT %q, want exit-code=0", out)
	}
	if want := "${{ steps.export.outputs.exit-code }}"; a.Outputs["exit-code"].Value != want {
		t.Errorf("output exit-code is %q, want %q", a.Outputs["exit-code"].Value, want)
	}
	checkExport(t, filepath.Join(r.work, "site"), filepath.Join(r.work, r.values["inputs.cache-dir"]))

	// A configuration error fails the export step with exit code 2, which
	// the step reports as its output.
	r.values["inputs.formats"] = "no-such-format"
	export := a.Runs.Steps[len(a.Runs.Steps)-1]
	if out, err := r.step(t, export); err == nil || !strings.Contains(out, "::error::curex: usage or configuration error") {
		t.Errorf("export with a bad format: err %v, output %q; want a failed step and an error annotation", err, out)
	}
	if out, _ := os.ReadFile(r.githubOutput); !strings.HasSuffix(string(out), "exit-code=2\n") {
		t.Errorf("GITHUB_OUTPUT %q, want exit-code=2 last", out)
	}
}

// TestGitHubActionInstallRefuses: the install step fails, and adds nothing
// to PATH, when the archive does not match checksums.txt or is missing.
func TestGitHubActionInstallRefuses(t *testing.T) {
	snap := loadSnapshot(t)
	a := readAction(t)
	tampered := regexp.MustCompile(`(?m)^[0-9a-f]{64}(  `+regexp.QuoteMeta(snap.archive)+`)$`).
		ReplaceAll(snap.checksums, []byte(strings.Repeat("0", 64)+"$1"))
	unlisted := regexp.MustCompile(`(?m)^.*  `+regexp.QuoteMeta(snap.archive)+"\n").ReplaceAll(snap.checksums, nil)
	tests := []struct {
		name      string
		checksums []byte
		version   string
		want      string
	}{
		{"checksum mismatch", tampered, snap.version, "checksum mismatch"},
		{"archive not in checksums.txt", unlisted, snap.version, "is not in checksums.txt"},
		{"no such release", snap.checksums, "0.0.0-missing", "404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if bytes.Equal(tt.checksums, snap.checksums) != (tt.version != snap.version) {
				t.Fatal("the tampered checksums.txt is the original")
			}
			srv, ca := snap.serveTLS(t, tt.checksums)
			r := newActionRun(t, a, map[string]string{"version": tt.version, "release-url": srv.URL, "token": sandboxToken})
			r.env = map[string]string{"CURL_CA_BUNDLE": ca}
			out, err := r.step(t, a.Runs.Steps[0])
			if err == nil || !strings.Contains(out, tt.want) {
				t.Errorf("install step: err %v, output %q; want a failure saying %q", err, out, tt.want)
			}
			if b, _ := os.ReadFile(r.githubPath); len(b) > 0 {
				t.Errorf("a failed install added %q to PATH", b)
			}
		})
	}
}

// fakeSnapshot is a release of one archive for this machine whose curex
// is a shell script printing body's version line: enough for the install
// step, and made without GoReleaser, so the tests of the install step's
// checks run everywhere.
func fakeSnapshot(t *testing.T, version, body string) snapshot {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake release is a tar.gz with a shell script")
	}
	s := snapshot{dir: t.TempDir(), version: version, archive: fmt.Sprintf("curex_%s_%s_%s.tar.gz", version, runtime.GOOS, runtime.GOARCH)}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	script := "#!/bin/sh\necho '" + body + "'\n"
	if err := tw.WriteHeader(&tar.Header{Name: "curex", Mode: 0o755, Size: int64(len(script)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(script)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, s.archive), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	s.checksums = []byte(hex.EncodeToString(sum[:]) + "  " + s.archive + "\n")
	return s
}

// sha returns the SHA-256 checksums.txt gives the snapshot's archive.
func (s snapshot) sha() string {
	return strings.Fields(string(s.checksums))[0]
}

// TestGitHubActionRefusesHTTP: issue 23 section 6. The install step took
// an http:// release-url, where anyone on the path can swap the archive
// and its checksums.txt together. It is refused before any download.
func TestGitHubActionRefusesHTTP(t *testing.T) {
	snap := fakeSnapshot(t, "9.9.9", "curex 9.9.9 (commit fake)")
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		snap.handler(snap.checksums).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	a := readAction(t)
	r := newActionRun(t, a, map[string]string{"version": snap.version, "release-url": srv.URL, "token": sandboxToken})
	out, err := r.step(t, a.Runs.Steps[0])
	if err == nil || !strings.Contains(out, "::error::curex: release-url must be an https:// URL") {
		t.Errorf("install step from %s: err %v, output %q; want a failure asking for https", srv.URL, err, out)
	}
	if n := hits.Load(); n > 0 {
		t.Errorf("the step made %d requests over plain HTTP", n)
	}
	if b, _ := os.ReadFile(r.githubPath); len(b) > 0 {
		t.Errorf("a refused install added %q to PATH", b)
	}
}

// TestGitHubActionPinnedChecksum: issue 23 section 6. checksums.txt comes
// from the same place as the archive, so a release swapped there (archive
// and checksums.txt together) passed. The sha256 input, pinned in the
// workflow, must match the archive when given.
func TestGitHubActionPinnedChecksum(t *testing.T) {
	good := fakeSnapshot(t, "9.9.9", "curex 9.9.9 (commit good)")
	swapped := fakeSnapshot(t, "9.9.9", "curex 9.9.9 (commit swapped)")
	tests := []struct {
		name string
		snap snapshot
		pin  string
		want string // in the output of a failed step; "" for success
	}{
		{"pinned, matches", good, good.sha(), ""},
		{"pinned in capitals, matches", good, strings.ToUpper(good.sha()), ""},
		{"pinned, release swapped with its checksums.txt", swapped, good.sha(), "does not match the pinned sha256 input"},
		{"pinned to another archive", good, strings.Repeat("0", 64), "does not match the pinned sha256 input"},
		{"not a SHA-256", good, "abc123", "the sha256 input is not a SHA-256"},
		{"not pinned: a swapped release passes checksums.txt", swapped, "", ""},
	}
	a := readAction(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, ca := tt.snap.serveTLS(t, tt.snap.checksums)
			r := newActionRun(t, a, map[string]string{"version": tt.snap.version, "release-url": srv.URL, "token": sandboxToken, "sha256": tt.pin})
			r.env = map[string]string{"CURL_CA_BUNDLE": ca}
			out, err := r.step(t, a.Runs.Steps[0])
			path, _ := os.ReadFile(r.githubPath)
			if tt.want == "" {
				if err != nil || len(path) == 0 || !strings.Contains(out, "curex 9.9.9 (commit ") {
					t.Errorf("install step: err %v, PATH %q, output %q; want success", err, path, out)
				}
				return
			}
			if err == nil || !strings.Contains(out, "::error::curex: ") || !strings.Contains(out, tt.want) {
				t.Errorf("install step: err %v, output %q; want a failure saying %q", err, out, tt.want)
			}
			if len(path) > 0 {
				t.Errorf("a failed install added %q to PATH", path)
			}
		})
	}
}

// gitlabJob is the part of a GitLab CI job the test reads.
type gitlabJob struct {
	Variables    map[string]string `yaml:"variables"`
	BeforeScript []string          `yaml:"before_script"`
	Script       []string          `yaml:"script"`
	AllowFailure struct {
		ExitCodes []int `yaml:"exit_codes"`
	} `yaml:"allow_failure"`
	Cache struct {
		Paths []string `yaml:"paths"`
	} `yaml:"cache"`
}

// TestGitLabExample runs docs/ci.gitlab-ci.yml's job as GitLab's shell
// executor would (before_script and script in one bash with -e -o
// pipefail, the job's variables in the environment), with the release URL,
// version and API pointed at the snapshot and the sandbox.
func TestGitLabExample(t *testing.T) {
	snap := loadSnapshot(t)
	base := startSandbox(t, snap.unpack(t))
	srv, ca := snap.serveTLS(t, snap.checksums)
	job := readGitLabJob(t)
	if len(job.AllowFailure.ExitCodes) != 1 || job.AllowFailure.ExitCodes[0] != 3 {
		t.Errorf("allow_failure exit codes %v, want [3] (partial export)", job.AllowFailure.ExitCodes)
	}
	if len(job.Cache.Paths) != 1 || job.Cache.Paths[0] != job.Variables["CUREX_CACHE_DIR"] {
		t.Errorf("the job caches %v, not CUREX_CACHE_DIR %q", job.Cache.Paths, job.Variables["CUREX_CACHE_DIR"])
	}
	env := map[string]string{}
	for k, v := range job.Variables {
		env[k] = v
	}
	for k, v := range map[string]string{
		"CUREX_VERSION": snap.version, "CUREX_RELEASE_URL": srv.URL, "CUREX_BASE_URL": base,
		"CUREX_ARGS": job.Variables["CUREX_ARGS"] + " --rate-limit none --allow-private-assets --progress none",
	} {
		if _, ok := job.Variables[k]; !ok {
			t.Fatalf("the job has no variable %s", k)
		}
		env[k] = v
	}
	env["CURRICULUM_API_TOKEN"] = sandboxToken
	env["CURL_CA_BUNDLE"] = ca
	work := t.TempDir()
	env["CI_PROJECT_DIR"] = work
	script := strings.Join(append(append([]string{}, job.BeforeScript...), job.Script...), "\n")
	out, err := bash(t, work, script, []string{"-e", "-o", "pipefail"}, env)
	if err != nil {
		t.Fatalf("the job failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "curex "+snap.version+" (commit ") {
		t.Errorf("the job did not run the installed curex version:\n%s", out)
	}
	checkExport(t, filepath.Join(work, job.Variables["CUREX_OUTPUT"]), filepath.Join(work, job.Variables["CUREX_CACHE_DIR"]))
}

// readGitLabJob reads the curex-export job of docs/ci.gitlab-ci.yml.
func readGitLabJob(t *testing.T) gitlabJob {
	t.Helper()
	var jobs map[string]gitlabJob
	readYAML(t, "../../../docs/ci.gitlab-ci.yml", &jobs)
	job, ok := jobs["curex-export"]
	if !ok {
		t.Fatal("docs/ci.gitlab-ci.yml has no curex-export job")
	}
	return job
}

// TestGitLabExampleInstallChecks: issue 23 section 6, for the GitLab job as
// for the Action. The job's before_script takes a release over https only,
// and, with CUREX_SHA256 set, only the archive of that SHA-256: a release
// swapped together with its checksums.txt passes checksums.txt alone.
func TestGitLabExampleInstallChecks(t *testing.T) {
	good := fakeSnapshot(t, "9.9.9", "curex 9.9.9 (commit good)")
	swapped := fakeSnapshot(t, "9.9.9", "curex 9.9.9 (commit swapped)")
	job := readGitLabJob(t)
	if _, ok := job.Variables["CUREX_SHA256"]; !ok {
		t.Fatal("the job has no CUREX_SHA256 variable to pin the archive")
	}
	tests := []struct {
		name  string
		snap  snapshot
		plain bool   // serve over http
		pin   string // CUREX_SHA256
		want  string // in the output of a failed script; "" for success
	}{
		{"https, pinned, matches", good, false, good.sha(), ""},
		{"https, pinned in capitals, matches", good, false, strings.ToUpper(good.sha()), ""},
		{"https, pinned, release swapped with its checksums.txt", swapped, false, good.sha(), "does not match CUREX_SHA256"},
		{"https, not pinned: a swapped release passes checksums.txt", swapped, false, "", ""},
		{"http refused", good, true, "", "must be an https:// URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hits atomic.Int64
			h := tt.snap.handler(tt.snap.checksums)
			count := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); h.ServeHTTP(w, r) })
			env := map[string]string{}
			for k, v := range job.Variables {
				env[k] = v
			}
			env["CUREX_VERSION"], env["CUREX_SHA256"] = tt.snap.version, tt.pin
			if tt.plain {
				srv := httptest.NewServer(count)
				t.Cleanup(srv.Close)
				env["CUREX_RELEASE_URL"] = srv.URL
			} else {
				srv := httptest.NewTLSServer(count)
				t.Cleanup(srv.Close)
				ca := filepath.Join(t.TempDir(), "ca.pem")
				if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
					t.Fatal(err)
				}
				env["CUREX_RELEASE_URL"], env["CURL_CA_BUNDLE"] = srv.URL, ca
			}
			work := t.TempDir()
			env["CI_PROJECT_DIR"] = work
			out, err := bash(t, work, strings.Join(job.BeforeScript, "\n"), []string{"-e", "-o", "pipefail"}, env)
			if tt.want == "" {
				if err != nil || !strings.Contains(out, "curex 9.9.9 (commit ") {
					t.Errorf("before_script: err %v, output %q; want success", err, out)
				}
				return
			}
			if err == nil || !strings.Contains(out, tt.want) {
				t.Errorf("before_script: err %v, output %q; want a failure saying %q", err, out, tt.want)
			}
			if strings.Contains(out, "(commit ") {
				t.Errorf("a refused install ran the binary: %q", out)
			}
			if tt.plain && hits.Load() > 0 {
				t.Errorf("the job made %d requests over plain HTTP", hits.Load())
			}
		})
	}
}
