package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// testToken is the token the tests of trust.go give curex; it must never
// reach a server a discovered file chose, nor any output.
const testToken = "trust-test-token-5f2a9c"

// recorder is an API that records the Authorization header of every
// request it gets, and answers 404.
type recorder struct {
	mu   sync.Mutex
	auth []string
	url  string
}

// newRecorder starts a recorder on an address that is not loopback when
// the machine has one (plain HTTP to it needs allow_http), else on
// loopback.
func newRecorder(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization"))
		r.mu.Unlock()
		http.NotFound(w, req)
	}))
	if ip := nonLoopbackIP(); ip != nil {
		ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
		if err == nil {
			srv.Listener.Close()
			srv.Listener = ln
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

// requests returns the Authorization headers received so far.
func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.auth)
}

// nonLoopbackIP returns an IPv4 address of this machine that is not
// loopback, or nil.
func nonLoopbackIP() net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP
		}
	}
	return nil
}

// inFolder makes a fresh working folder holding files (name → contents),
// with the settings variables cleared and CUREX_TOKEN set, and changes
// into it.
func inFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	clearSettingsEnv(t)
	t.Setenv(envToken, testToken)
	t.Setenv("CUREX_CHROMIUM", "")
	dir := t.TempDir()
	for n, body := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

// runIn runs curex with args in the working folder and returns the exit
// code and what it wrote.
func runIn(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	if strings.Contains(stdout.String()+stderr.String(), testToken) {
		t.Errorf("the token was shown: %s%s", stdout.String(), stderr.String())
	}
	return code, stdout.String(), stderr.String()
}

// wantRefused checks that a run was refused with exit 2, naming want,
// and that the API got no request.
func wantRefused(t *testing.T, api *recorder, code int, stderr string, want ...string) {
	t.Helper()
	if code != exitUsage {
		t.Errorf("exit %d, want %d; stderr %q", code, exitUsage, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q does not say %q", stderr, w)
		}
	}
	if got := api.requests(); len(got) > 0 {
		t.Errorf("the API got %d requests (Authorization %q), want none", len(got), got)
	}
}

// TestDiscoveredAllowHTTPRefused: issue 23 §2. A curex.yaml in a cloned
// repository set base_url to a plain-HTTP host and allow_http, and the
// token went there in clear text. It is refused (exit 2) before any
// request, naming the setting and where to give it instead.
func TestDiscoveredAllowHTTPRefused(t *testing.T) {
	api := newRecorder(t)
	inFolder(t, map[string]string{"curex.yaml": "base_url: " + api.url + "\nallow_http: true\noutput: site\nprogress: none\n"})
	code, _, stderr := runIn(t, "export", "--cache-dir", t.TempDir())
	wantRefused(t, api, code, stderr, "curex.yaml:2: allow_http", "lowers a guard", "--allow-http", "CUREX_ALLOW_HTTP", "--config")
}

// TestDiscoveredTokenFileRefused: issue 23 §2. A found curex.yaml named
// any one-line file as token_file, and it was sent as the bearer token.
func TestDiscoveredTokenFileRefused(t *testing.T) {
	api := newRecorder(t)
	inFolder(t, map[string]string{
		"curex.yaml":   "base_url: " + api.url + "\ntoken_file: other-secret\noutput: site\nprogress: none\n",
		"other-secret": "not-the-token-of-this-run\n",
	})
	code, _, stderr := runIn(t, "export", "--cache-dir", t.TempDir(), "--allow-http")
	wantRefused(t, api, code, stderr, "curex.yaml:2: token_file", "chooses a secret", "--token-file")
	if strings.Contains(stderr, "not-the-token-of-this-run") {
		t.Errorf("stderr shows the file's secret: %q", stderr)
	}
}

// TestDiscoveredPrivateAssetsRefused: issue 23 §2. A found curex.yaml
// lifted the guard on image addresses with allow_private_assets.
func TestDiscoveredPrivateAssetsRefused(t *testing.T) {
	api := newRecorder(t)
	inFolder(t, map[string]string{"curex.yaml": "base_url: " + api.url + "\nallow_private_assets: true\noutput: site\nprogress: none\n"})
	code, _, stderr := runIn(t, "export", "--cache-dir", t.TempDir(), "--allow-http")
	wantRefused(t, api, code, stderr, "curex.yaml:2: allow_private_assets", "lowers a guard", "--allow-private-assets")
}

// TestDiscoveredRefusesEveryGuard: every setting the table marks as
// lowering a guard or choosing a secret is refused from a found file, by
// every command that reads one, and from a found curex.yml too.
func TestDiscoveredRefusesEveryGuard(t *testing.T) {
	var keys []string
	for k, src := range settings {
		if src.trust == lowersGuard || src.trust == choosesSecret {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if want := []string{"allow_http", "allow_mass_delete", "allow_private_assets", "include_unpublished", "token_file"}; !slices.Equal(keys, want) {
		t.Errorf("guarded settings %v, want %v", keys, want)
	}
	for _, key := range keys {
		for _, name := range []string{"export", "plan", "build", "publish", "whoami"} {
			for _, file := range configNames {
				_, _, err := resolve(t, name, nil, nil, map[string]string{file: "gzip: true\n" + key + ": true\n"})
				if err == nil || !strings.Contains(err.Error(), file+":2: "+key+": a "+file+" found in the working folder") {
					t.Errorf("%s with %s giving %s: %v", name, file, key, err)
				}
			}
		}
	}
}

// TestDiscoveredSummaryJSONOutside: issue 23 §2. A found curex.yaml could
// point summary_json at any file and overwrite it. The places a found
// file names for writing stay inside the working folder.
func TestDiscoveredSummaryJSONOutside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim.json")
	tests := []struct {
		name, key, value string
		want             string // in the error; "" for accepted
	}{
		{"absolute summary_json", "summary_json", outside, "is an absolute path"},
		{"summary_json climbing out", "summary_json", "../victim.json", "leaves the working folder"},
		{"summary_json through a symbolic link", "summary_json", "link/victim.json", "link is a symbolic link"},
		{"summary_json inside", "summary_json", "reports/summary.json", ""},
		{"output climbing out", "output", "../site", "leaves the working folder"},
		{"output as a bucket URL", "output", "s3://bucket/www", "is a URL"},
		{"output as a file URL", "output", "file:///tmp/www", "is a URL"},
		{"output inside", "output", "site", ""},
		{"cache_dir absolute", "cache_dir", outside, "is an absolute path"},
		{"cache_dir inside", "cache_dir", ".cache/curex", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newRecorder(t)
			if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
				t.Fatal(err)
			}
			dir := inFolder(t, map[string]string{"curex.yaml": "base_url: " + api.url + "\nprogress: none\nformats: json\n" + tt.key + ": " + tt.value + "\n"})
			if err := os.Mkdir(filepath.Join(dir, "reports"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Dir(outside), filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			args := []string{"export", "--allow-http"}
			if tt.key != "cache_dir" {
				args = append(args, "--cache-dir", t.TempDir())
			}
			code, _, stderr := runIn(t, args...)
			if tt.want == "" {
				if strings.Contains(stderr, "working folder is the repository's") {
					t.Errorf("refused: %s", stderr)
				}
				return
			}
			wantRefused(t, api, code, stderr, "curex.yaml:4: "+tt.key, tt.want, "--"+settings[tt.key].flag)
			if b, _ := os.ReadFile(outside); string(b) != "keep" {
				t.Errorf("the file outside the working folder was overwritten: %q", b)
			}
		})
	}
}

// TestNamedConfigAcceptsGuards: the settings a found file may not give
// are accepted from the operator's file, named by --config or
// CUREX_CONFIG, including places to write outside the working folder.
func TestNamedConfigAcceptsGuards(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "summary.json")
	body := "allow_http: true\ntoken_file: secret\nallow_private_assets: true\ninclude_unpublished: true\nsummary_json: " + outside + "\noutput: ../site\n"
	for _, how := range []struct {
		args []string
		env  map[string]string
	}{
		{[]string{"--config", "curex.yaml"}, nil},
		{nil, map[string]string{envConfig: "curex.yaml"}},
	} {
		cmd, set, err := resolve(t, "export", how.args, how.env, map[string]string{"curex.yaml": body})
		if err != nil {
			t.Fatalf("%v %v: %v", how.args, how.env, err)
		}
		for flag, want := range map[string]string{"allow-http": "true", "token-file": "secret", "allow-private-assets": "true",
			"include-unpublished": "true", "summary-json": outside, "output": "../site"} {
			if got := cmd.Flags().Lookup(flag).Value.String(); got != want || set[flag].path != "curex.yaml" {
				t.Errorf("%v %v: --%s = %q from %+v, want %q from curex.yaml", how.args, how.env, flag, got, set[flag], want)
			}
		}
	}
}

// TestSummaryTokenOrigin: the summary JSON and export's summary name the
// origin that received the token and how base_url was given; a found
// file's announcement names it too, even when the file sets quiet.
func TestSummaryTokenOrigin(t *testing.T) {
	url := sandboxURL(t)
	origin := tokenOrigin(url)
	if !strings.HasPrefix(origin, "http://127.0.0.1:") {
		t.Fatalf("tokenOrigin(%q) = %q", url, origin)
	}
	t.Run("flag", func(t *testing.T) {
		inFolder(t, nil)
		t.Setenv(envToken, "sandbox-riverbend-token")
		code, stdout, stderr := runIn(t, "export", "--base-url", url+"/api/v1", "--cache-dir", t.TempDir(), "--output", "site",
			"--formats", "json", "--curriculum", "101", "--variants", "base", "--locales", "en", "--progress", "none", "--summary-json", "s.json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if want := "token sent to " + origin + " (base_url from --base-url)\n"; !strings.Contains(stdout, want) {
			t.Errorf("stdout %q does not say %q", stdout, want)
		}
		if got, from := summaryOrigin(t, "s.json"); got != origin || from != "--base-url" {
			t.Errorf("summary token_origin %q from %q, want %q from --base-url", got, from, origin)
		}
	})
	t.Run("found file, quiet", func(t *testing.T) {
		inFolder(t, map[string]string{"curex.yaml": "base_url: " + url + "\nquiet: true\nsummary_json: s.json\nformats: json\ncurricula: [\"101\"]\nvariants: base\nlocales: en\n"})
		t.Setenv(envToken, "sandbox-riverbend-token")
		code, stdout, stderr := runIn(t, "export", "--cache-dir", t.TempDir())
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if stdout != "" {
			t.Errorf("quiet run printed %q", stdout)
		}
		if want := `msg="read settings from the working folder" file=curex.yaml token_origin=` + origin; !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
		if got, from := summaryOrigin(t, "s.json"); got != origin || from != "curex.yaml:1: base_url" {
			t.Errorf("summary token_origin %q from %q, want %q from curex.yaml:1: base_url", got, from, origin)
		}
	})
}

// summaryOrigin returns the token_origin and base_url_from fields of a
// --summary-json file.
func summaryOrigin(t *testing.T, path string) (origin, from string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		TokenOrigin string `json:"token_origin"`
		BaseURLFrom string `json:"base_url_from"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.TokenOrigin, s.BaseURLFrom
}

// TestServeReadsOnlyNamedConfig: issue 23 §2. curex serve widened its
// Content-Security-Policy from the site_scripts of a curex.yaml found in
// the folder it was started from, while the docs said it read no file.
// It reads a file only when --config or CUREX_CONFIG names it.
func TestServeReadsOnlyNamedConfig(t *testing.T) {
	file := map[string]string{"curex.yaml": "site_scripts: [https://evil.example/x.js]\n"}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string // the origins serve's policy admits
	}{
		{"found file", nil, nil, nil},
		{"--config", []string{"--config", "curex.yaml"}, nil, []string{"https://evil.example"}},
		{"CUREX_CONFIG", nil, map[string]string{envConfig: "curex.yaml"}, []string{"https://evil.example"}},
		{"CUREX_SITE_SCRIPTS", nil, map[string]string{"CUREX_SITE_SCRIPTS": "https://stats.example/a.js"}, []string{"https://stats.example"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, _, err := resolve(t, "serve", tt.args, tt.env, file)
			if err != nil {
				t.Fatal(err)
			}
			scripts, err := cmd.Flags().GetStringSlice("site-script")
			if err != nil {
				t.Fatal(err)
			}
			got, err := scriptOrigins(cmd, scripts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("origins %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDiscoveredQuietAnnounced: issue 23 §2 ("under -q nothing is printed
// at all"). A found file's quiet or log_level cannot hide that it was
// read; the operator's --quiet still does.
func TestDiscoveredQuietAnnounced(t *testing.T) {
	tests := []struct {
		file string
		args []string
		want bool
	}{
		{"gzip: true\nquiet: true\n", nil, true},
		{"gzip: true\nlog_level: error\n", nil, true},
		{"gzip: true\n", []string{"--quiet"}, false},
	}
	for _, tt := range tests {
		inFolder(t, map[string]string{"curex.yaml": tt.file})
		_, _, stderr := runIn(t, append([]string{"publish", "missing-folder", "mem://"}, tt.args...)...)
		if got := strings.Contains(stderr, `msg="read settings from the working folder" file=curex.yaml`); got != tt.want {
			t.Errorf("%q %v: announced %v, want %v: %q", tt.file, tt.args, got, tt.want, stderr)
		}
	}
}

// TestInsideWorkdir checks the rule for places a found file writes to.
func TestInsideWorkdir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), "a/out"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s.json", "dangling.json"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p    string
		want string // in the error; "" for none
	}{
		{"", ""},
		{"s.json", ""},
		{"./a/b/s.json", ""},
		{"a/b/new/deeper/s.json", ""},
		{"a/../s.json", ""},
		{"..", "leaves the working folder"},
		{"a/../../s.json", "leaves the working folder"},
		{"/etc/passwd", "is an absolute path"},
		{"a/out/s.json", "a/out is a symbolic link"},
		{"dangling.json", "dangling.json is a symbolic link"},
		{"s3://bucket", "is a URL"},
		{"gs://bucket/prefix?x=1", "is a URL"},
	}
	for _, tt := range tests {
		err := insideWorkdir(tt.p)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("insideWorkdir(%q) = %v, want %q", tt.p, err, tt.want)
		}
	}
}

// FuzzInsideWorkdir: whatever a found file gives, a place insideWorkdir
// accepts is a local path: joined to the working folder it stays inside.
func FuzzInsideWorkdir(f *testing.F) {
	for _, s := range []string{"s.json", "../x", "/abs", "a/../../b", "s3://b", `..\x`, "a//b", "C:/x", "~/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if insideWorkdir(p) != nil || p == "" {
			return
		}
		if !filepath.IsLocal(p) {
			t.Fatalf("accepted %q, which is not local", p)
		}
	})
}
