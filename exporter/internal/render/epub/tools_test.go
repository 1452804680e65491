package epub

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/markup"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// epubcheckJar is where Debian's epubcheck package puts the checker (its
// /usr/bin wrapper is a shell script some sandboxes cannot run).
const epubcheckJar = "/usr/share/java/epubcheck.jar"

// need skips the test when a tool is missing, unless the environment
// requires every tool (make test sets CUREX_REQUIRE_TOOLS=1), and with
// -short, which runs no external program.
func need(t *testing.T, what, path, pkg string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no " + what + " (make test runs it)")
	}
	var err error
	if strings.Contains(path, "/") {
		_, err = os.Stat(path)
	} else {
		_, err = exec.LookPath(path)
	}
	if err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is missing: apt-get install %s (make tools does)", what, pkg)
		}
		t.Skipf("%s is missing (apt-get install %s)", what, pkg)
	}
}

// writeSampleBooks writes the book of every sample export, the small
// book (images, links, a hostile title) in Arabic and English, and a book
// without nodes, to dir and returns their paths and trees.
func writeSampleBooks(t *testing.T, dir string) ([]string, []*model.Tree) {
	t.Helper()
	trees := sampleTrees(t)
	n := len(trees)
	trees = append(trees, smallTree("ar"), smallTree("en"), tree("en"))
	var paths []string
	for i, tr := range trees {
		name := strings.ReplaceAll(tr.Dir(), "/", "-")
		info := sampleInfo(t, tr)
		if i >= n {
			name, info = "small-"+strconv.Itoa(i-n)+"-"+tr.Locale, smallInfo(t)
		}
		p := filepath.Join(dir, name+".epub")
		if err := os.WriteFile(p, render(t, tr, info), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths, trees
}

// TestEpubcheck: every sample book passes epubcheck with no error and no
// warning, and a book with a file missing fails it (the check bites).
func TestEpubcheck(t *testing.T) {
	need(t, "java", "java", "default-jre-headless")
	need(t, "epubcheck", epubcheckJar, "epubcheck")
	dir := t.TempDir()
	paths, _ := writeSampleBooks(t, dir)
	broken := filepath.Join(dir, "broken.epub")
	withoutFile(t, paths[0], broken, "EPUB/text/nav.xhtml")
	reports, err := epubcheck(append(paths, broken))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			r, ok := reports[p]
			if !ok {
				t.Fatal("epubcheck gave no report")
			}
			if r.code != 0 || strings.Contains(r.messages, "WARNING") || strings.Contains(r.messages, "ERROR") {
				t.Errorf("epubcheck %s: exit %d\n%s", filepath.Base(p), r.code, r.messages)
			}
		})
	}
	if r := reports[broken]; r.code == 0 || !strings.Contains(r.messages, "nav.xhtml") {
		t.Errorf("a book without its navigation document: exit %d, messages %q; want a failure naming it", r.code, r.messages)
	}
}

// epubcheckReport is what epubcheck said of one book.
type epubcheckReport struct {
	code     int
	messages string
}

// epubcheck checks the books at paths with epubcheck in one JVM
// (testdata/EpubcheckAll.java) and returns each book's exit code and
// messages by path. A JVM per book cost about 4 CPU-seconds each, with
// the quick compiler only: 56 CPU-seconds for 14 books against 6 for the
// same books in one JVM.
func epubcheck(paths []string) (map[string]epubcheckReport, error) {
	args := append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", epubcheckJar, filepath.Join("testdata", "EpubcheckAll.java")}, paths...)
	out, err := exec.Command("java", args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("java EpubcheckAll.java: %w\n%s", err, out)
	}
	reports := map[string]epubcheckReport{}
	var book string
	var msgs strings.Builder
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSuffix(line, "\n")
		if p, ok := strings.CutPrefix(line, "curex-epubcheck begin "); ok {
			book = p
			msgs.Reset()
			continue
		}
		if c, ok := strings.CutPrefix(line, "curex-epubcheck end "); ok && book != "" {
			code, err := strconv.Atoi(c)
			if err != nil {
				return nil, fmt.Errorf("epubcheck %s: exit code %q", book, c)
			}
			reports[book] = epubcheckReport{code: code, messages: msgs.String()}
			book = ""
			continue
		}
		msgs.WriteString(line + "\n")
	}
	if len(reports) != len(paths) {
		return nil, fmt.Errorf("epubcheck reported on %d of %d books:\n%s", len(reports), len(paths), out)
	}
	return reports, nil
}

// withoutFile copies the EPUB at src to dst without its file name.
func withoutFile(t *testing.T, src, dst, name string) {
	t.Helper()
	r, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	dropped := false
	for _, f := range r.File {
		if f.Name == name {
			dropped = true
			continue
		}
		if err := w.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !dropped {
		t.Fatalf("%s holds no %s", src, name)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// aceBooks are the sample books the slow checkers (DAISY Ace, about 45 s
// a book, and Calibre) open: one per script and kind of content: Latin,
// Arabic (right to left), Japanese (CJK), and the computer-science book
// (code blocks, tables).
var aceBooks = []string{
	"algebra-1/base/en",
	"algebra-1/base/ar",
	"algebra-1/base/ja",
	"introduction-to-computer-science/base/en",
}

// aceTrees are the published trees of aceBooks, from the shared sample
// export.
func aceTrees(t testing.TB) []*model.Tree {
	t.Helper()
	set := testtrees.Sample(t)
	out := make([]*model.Tree, len(aceBooks))
	for i, dir := range aceBooks {
		out[i] = set.Find(t, dir).PublishedOnly()
	}
	return out
}

// writeAceBooks writes the books of aceTrees to dir and returns their
// paths and trees.
func writeAceBooks(t *testing.T, dir string) ([]string, []*model.Tree) {
	t.Helper()
	trees := aceTrees(t)
	paths := make([]string, len(trees))
	for i, tr := range trees {
		paths[i] = filepath.Join(dir, strings.ReplaceAll(tr.Dir(), "/", "-")+".epub")
		if err := os.WriteFile(paths[i], render(t, tr, sampleInfo(t, tr)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths, trees
}

// EnvAce names the environment variable that gives DAISY Ace's
// ace-puppeteer program; by default .tools/node_modules/.bin/ace-puppeteer
// at the repository root, which `make tools` installs.
const EnvAce = "CUREX_ACE"

// aceProgram returns the path of ace-puppeteer, or skips the test (fails
// it under CUREX_REQUIRE_TOOLS=1) when it is missing.
func aceProgram(t *testing.T) string {
	t.Helper()
	p := os.Getenv(EnvAce)
	if p == "" {
		root, err := repoRoot()
		if err != nil {
			t.Fatal(err)
		}
		p = filepath.Join(root, ".tools", "node_modules", ".bin", "ace-puppeteer")
	}
	if testing.Short() {
		t.Skip("-short: no DAISY Ace (make test runs it)")
	}
	if _, err := os.Stat(p); err != nil {
		msg := "DAISY Ace is missing: " + err.Error() + ": run `make tools` (npm install @daisy/ace into .tools) or set " + EnvAce
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// repoRoot is the folder of go.mod above the test's folder.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test folder")
		}
		dir = parent
	}
}

// aceReport is the part of Ace's report.json the test reads.
type aceReport struct {
	Result struct {
		Outcome string `json:"earl:outcome"`
	} `json:"earl:result"`
	Metadata struct {
		Missing []string `json:"missing"`
	} `json:"a11y-metadata"`
	Documents []struct {
		Subject struct {
			URL string `json:"url"`
		} `json:"earl:testSubject"`
		Assertions []struct {
			Result struct {
				Outcome     string `json:"earl:outcome"`
				Description string `json:"dct:description"`
				HTML        string `json:"html"`
			} `json:"earl:result"`
			Test struct {
				Title  string `json:"dct:title"`
				Impact string `json:"earl:impact"`
			} `json:"earl:test"`
		} `json:"assertions"`
	} `json:"assertions"`
}

// TestAce: DAISY Ace (axe-core in Chromium on every document, and its
// own checks of the package) finds no violation, of any impact, in the
// books of aceBooks, and dcterms:conformsTo is not missing (issue 25: it
// reported epub-type-has-matching-role and a missing conformsTo on every
// book, and an empty table header on the computer-science book). The
// four run at once, an Ace process (and a Chromium) each, whatever
// -parallel says: most of Ace's time is spent waiting on its browser.
func TestAce(t *testing.T) {
	ace := aceProgram(t)
	browser, err := chromium.Find("")
	if err != nil {
		need(t, "chromium", "chromium", "chromium")
		t.Fatal(err)
	}
	// Beside TestCalibre: Ace waits on its browsers most of the time.
	t.Parallel()
	paths, _ := writeAceBooks(t, t.TempDir())
	type run struct {
		cmd      *exec.Cmd
		command  func(log *os.File) *exec.Cmd // a new run of Ace on the book, logging to log
		out, log string
	}
	runs := make([]run, len(paths))
	for i, p := range paths {
		r := run{out: strings.TrimSuffix(p, ".epub") + "-ace", log: strings.TrimSuffix(p, ".epub") + "-ace.log"}
		// Each its own home: Ace keeps its logs there.
		home := r.out + "-home"
		if err := os.MkdirAll(home, 0o755); err != nil {
			t.Fatal(err)
		}
		logFile, err := os.Create(r.log)
		if err != nil {
			t.Fatal(err)
		}
		r.command = func(log *os.File) *exec.Cmd {
			cmd := exec.Command(ace, "--force", "--verbose", "--outdir", r.out, "--tempdir", home, p)
			cmd.Env = append(os.Environ(), "PUPPETEER_EXECUTABLE_PATH="+browser, "PUPPETEER_SKIP_DOWNLOAD=1", "HOME="+home)
			cmd.Stdout, cmd.Stderr = log, log
			return cmd
		}
		r.cmd = r.command(logFile)
		if err := r.cmd.Start(); err != nil {
			t.Fatalf("ace: %v", err)
		}
		// A test stopped early leaves no Ace running.
		t.Cleanup(func() {
			if r.cmd.ProcessState == nil {
				_ = r.cmd.Process.Kill()
				_ = r.cmd.Wait()
			}
		})
		_ = logFile.Close() // the child has its own descriptor
		runs[i] = r
	}
	for i, r := range runs {
		t.Run(filepath.Base(paths[i]), func(t *testing.T) {
			err := r.cmd.Wait()
			if msg, _ := os.ReadFile(r.log); err != nil && bytes.Contains(msg, []byte(aceLaunchTimeout)) {
				// Ace gave its browser 5 s to start and checked nothing:
				// on a busy machine the start takes longer. Once more,
				// alone now that the other books are done.
				t.Logf("ace: its browser did not start in time; again:\n%s", msg)
				err = rerun(t, r.command, r.log)
			}
			if err != nil {
				msg, _ := os.ReadFile(r.log)
				t.Fatalf("ace: %v\n%s", err, msg)
			}
			checkAceReport(t, filepath.Join(r.out, "report.json"))
		})
	}
}

// aceLaunchTimeout is what Ace (puppeteer) logs when the browser it
// starts has not said where to reach it within its fixed 5 s: Ace then
// checked nothing, and a verdict on the book needs another run.
const aceLaunchTimeout = "while waiting for the WS endpoint URL to appear in stdout"

// rerun runs command once more, its output replacing the log at path.
func rerun(t *testing.T, command func(*os.File) *exec.Cmd, path string) error {
	t.Helper()
	log, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	return command(log).Run()
}

// checkAceReport fails t for every violation in Ace's report.json at
// path, and when it finds dcterms:conformsTo missing.
func checkAceReport(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r aceReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	for _, d := range r.Documents {
		for _, a := range d.Assertions {
			if a.Result.Outcome != "pass" {
				t.Errorf("%s: %s (%s): %s %s", d.Subject.URL, a.Test.Title, a.Test.Impact, a.Result.Description, a.Result.HTML)
			}
		}
	}
	if r.Result.Outcome != "pass" {
		t.Errorf("Ace's outcome %q, want pass", r.Result.Outcome)
	}
	for _, m := range r.Metadata.Missing {
		if m == "dcterms:conformsTo" {
			t.Error("Ace: dcterms:conformsTo is missing")
		}
	}
}

// TestCalibre: Calibre opens the books of aceBooks and converts each to
// text that holds every node's title, in reading order (about 8 s a
// book; epubcheck opens the others), beside TestAce.
func TestCalibre(t *testing.T) {
	need(t, "ebook-convert", "ebook-convert", "calibre")
	t.Parallel()
	dir := t.TempDir()
	paths, trees := writeAceBooks(t, dir)
	for i, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			txt := strings.TrimSuffix(p, ".epub") + ".txt"
			cmd := exec.Command("ebook-convert", p, txt)
			cmd.Env = append(os.Environ(), "HOME="+dir, "QTWEBENGINE_CHROMIUM_FLAGS=--no-sandbox")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("ebook-convert: %v\n%s", err, out)
			}
			data, err := os.ReadFile(txt)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(string(data)), " ")
			at := 0
			for _, f := range flatten(trees[i]) {
				title := strings.Join(strings.Fields(markup.Line(f.n.Title)), " ")
				if title == "" {
					continue
				}
				j := strings.Index(text[at:], title)
				if j < 0 {
					t.Fatalf("title %q missing after byte %d of the text", title, at)
				}
				at += j + len(title)
			}
		})
	}
}
