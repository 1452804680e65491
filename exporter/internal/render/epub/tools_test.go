package epub

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/markup"
)

// epubcheckJar is where Debian's epubcheck package puts the checker (its
// /usr/bin wrapper is a shell script some sandboxes cannot run).
const epubcheckJar = "/usr/share/java/epubcheck.jar"

// shortJVM are the java options of a short check: the quick compiler
// only and the serial collector, which cost epubcheck 4.9 CPU-seconds
// a book instead of 12.0 (the JVM's defaults warm up for long runs).
var shortJVM = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"}

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

// TestEpubcheck: the sample books pass epubcheck with no error and no
// warning, two at a time (see checkedBooks for which).
func TestEpubcheck(t *testing.T) {
	need(t, "java", "java", "default-jre-headless")
	need(t, "epubcheck", epubcheckJar, "epubcheck")
	paths, trees := writeSampleBooks(t, t.TempDir())
	for _, i := range checkedBooks(trees) {
		p := paths[i]
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			// -w: warnings fail too; -q: only the messages.
			out, err := exec.Command("java", append(shortJVM, "-jar", epubcheckJar, "-q", "-w", p)...).CombinedOutput()
			if err != nil || strings.Contains(string(out), "WARNING") || strings.Contains(string(out), "ERROR") {
				t.Errorf("epubcheck %s: %v\n%s", filepath.Base(p), err, out)
			}
		})
	}
}

// checkedBooks returns the indexes of the books the external checkers
// open. A book costs epubcheck about 8 s (a JVM each) and Calibre about
// as much, so by default they are the books that cover every variant and
// every locale of each sample curriculum (Arabic and Japanese included)
// and every test book (the last three); CUREX_EPUBCHECK_ALL=1 checks
// every sample book.
func checkedBooks(trees []*model.Tree) []int {
	all := os.Getenv("CUREX_EPUBCHECK_ALL") == "1"
	seen := map[string]bool{}
	var out []int
	for i, tr := range trees {
		if all || i >= len(trees)-3 || covers(seen, tr.Dir()) {
			out = append(out, i)
		}
	}
	return out
}

// covers reports whether the export at dir (curriculum/variant/locale)
// brings a variant or a locale of its curriculum that seen lacks, and
// records both.
func covers(seen map[string]bool, dir string) bool {
	parts := strings.Split(dir, "/")
	if len(parts) != 3 {
		return true
	}
	v, l := parts[0]+"/v/"+parts[1], parts[0]+"/l/"+parts[2]
	isNew := !seen[v] || !seen[l]
	if isNew {
		seen[v], seen[l] = true, true
	}
	return isNew
}

// TestCalibre: Calibre opens the sample books (see checkedBooks) and
// converts each to text that holds every node's title, in reading order.
func TestCalibre(t *testing.T) {
	need(t, "ebook-convert", "ebook-convert", "calibre")
	dir := t.TempDir()
	paths, trees := writeSampleBooks(t, dir)
	for _, i := range checkedBooks(trees) {
		p := paths[i]
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
