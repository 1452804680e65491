package output

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// The user's files in and around the output folder: what curex keeps,
// what it refuses to replace, and what it never reads.

// snapshot describes every entry under dir, hidden ones and links
// included, without following links: "path=content" for files,
// "path->target" for links, "path/" for folders.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out = append(out, rel+"->"+target)
		case d.IsDir():
			out = append(out, rel+"/")
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, rel+"="+string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// mkfiles makes the files of spec ("path=content" or "path->target"
// fields) under dir.
func mkfiles(t *testing.T, dir, spec string) {
	t.Helper()
	for _, f := range strings.Fields(spec) {
		if rel, target, ok := strings.Cut(f, "->"); ok {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rel, body, _ := strings.Cut(f, "=")
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func lstatT(t *testing.T, p string) os.FileInfo {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// TestHiddenEntriesSurviveTheSwap exports twice into a GitHub Pages
// worktree: its .git folder, .github and .well-known folders, .nojekyll
// and a hidden link all survive, moved (the same inodes), not copied.
func TestHiddenEntriesSurviveTheSwap(t *testing.T) {
	root := filepath.Join(t.TempDir(), "site")
	mkfiles(t, root, ".git/HEAD=ref .git/objects/ab/cd=blob .nojekyll=")
	run(t, root, map[string]string{"index.html": "v0"}, true)
	// Added once the site exists: workflows, a link of the user's.
	mkfiles(t, root, ".github/workflows/pages.yml=on .well-known/security.txt=contact .cname->.well-known/security.txt")
	hidden := strings.Fields(snapshot(t, root))
	hidden = slices.DeleteFunc(hidden, func(s string) bool { return !strings.HasPrefix(s, ".") })
	want := strings.Join(hidden, " ")
	git := lstatT(t, filepath.Join(root, ".git"))
	for i, body := range []string{"v1", "v2"} {
		run(t, root, map[string]string{"index.html": body}, true)
		got := snapshot(t, root)
		if !strings.HasPrefix(got, want+" ") || !strings.Contains(got, "index.html="+body) {
			t.Fatalf("export %d: %s\nwant the hidden entries %s", i+1, got, want)
		}
	}
	if !os.SameFile(lstatT(t, filepath.Join(root, ".git")), git) {
		t.Error(".git was copied, not moved")
	}
}

// TestHiddenEntriesSurviveACrashedCommit kills Commit (a panic in its
// hook) after the hidden entries moved into the staging folder and before
// the swap: the next Begin moves them back, before it removes the stale
// staging folder.
func TestHiddenEntriesSurviveACrashedCommit(t *testing.T) {
	root := filepath.Join(t.TempDir(), "site")
	mkfiles(t, root, ".git/HEAD=ref .nojekyll=")
	run(t, root, map[string]string{"index.html": "v1"}, true)
	want := snapshot(t, root)
	w := run(t, root, map[string]string{"index.html": "v2"}, false)
	w.hook = func(step string) {
		if step == "hidden" {
			panic("killed")
		}
	}
	func() {
		defer func() { _ = recover() }()
		_ = w.Commit(&Manifest{Generator: "curex test"})
	}()
	if _, err := os.Lstat(filepath.Join(root, ".git")); err == nil {
		t.Fatal("the hook did not stop Commit after the hidden entries moved")
	}
	w2, err := Begin(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Abort()
	if got := snapshot(t, root); got != want {
		t.Fatalf("after the crash and a new Begin:\n%s\nwant\n%s", got, want)
	}
}

// TestRefusesFoldersNotCurexs: a folder is replaced only when it is
// curex's output (its manifest curex's, every visible entry listed) or
// holds nothing of the user's; anything else is refused and untouched.
func TestRefusesFoldersNotCurexs(t *testing.T) {
	curex := `{"generator":"curex\u00200.1.0","exports":[],"files":[{"path":"index.html","size":2,"sha256":"` + strings.Repeat("0", 64) + `"},{"path":"c/v/en/index.html","size":1,"sha256":"` + strings.Repeat("0", 64) + `"}]}`
	tests := []struct {
		name  string
		files string
		want  []string // in the error; nil: accepted
	}{
		{"missing", "", nil},
		{"empty", "./", nil},
		{"curex's output", "manifest.json=" + curex + " index.html=hi c/v/en/index.html=x", nil},
		{"a fresh GitHub Pages worktree", ".git=gitdir:/repo .nojekyll=", nil},
		{"a web app with its own manifest", `manifest.json={"name":"App","start_url":"/","icons":[]} index.html=app`, []string{"manifest.json", "not curex's"}},
		{"a web app manifest naming a generator", `manifest.json={"generator":"webpack","files":[]} index.html=app`, []string{"webpack"}},
		{"curex's manifest, a file not listed", "manifest.json=" + curex + " index.html=hi notes.txt=mine", []string{"notes.txt", "not listed"}},
		{"curex's manifest, folders not listed", "manifest.json=" + curex + " index.html=hi drafts/a.md=1 photos/b.jpg=2 thesis.docx=3", []string{"drafts", "photos", "and 1 more"}},
		{"a home folder", ".ssh/id_ed25519=secret .bashrc=alias", []string{".bashrc", ".ssh", "no manifest.json"}},
		{"a folder of documents", "thesis.docx=precious", []string{"thesis.docx"}},
		{"a manifest that is a link", "manifest.json->/etc/hostname index.html=hi", []string{"manifest.json", "not a regular file"}},
		{"a manifest that does not parse", "manifest.json={ index.html=hi", []string{"manifest.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "out")
			mkfiles(t, root, tc.files)
			if tc.files == "" {
				_ = os.Remove(root)
			}
			var before string
			if _, err := os.Stat(root); err == nil {
				before = snapshot(t, root)
			}
			w, err := Begin(afero.NewOsFs(), root)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				_ = w.Abort()
				return
			}
			if err == nil {
				_ = w.Abort()
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrNotOutput) {
				t.Errorf("error %v is not ErrNotOutput", err)
			}
			for _, s := range append(tc.want, root) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			if got := snapshot(t, root); got != before {
				t.Errorf("the folder changed:\n%s\nwas\n%s", got, before)
			}
			entries, _ := os.ReadDir(filepath.Dir(root))
			if len(entries) != 1 {
				t.Errorf("left beside the output: %v", entries)
			}
		})
	}
}

// TestPreviousOutputNeverFollowsLinks plants links in the previous output,
// each to a file or folder outside it of the size the manifest lists:
// nothing from outside reaches the new output, as a file or as a link.
func TestPreviousOutputNeverFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "out")
	secret := filepath.Join(dir, "secret")
	mkfiles(t, dir, "secret/id=SECRET secret/a/b/tree.json=SECRET secret/x/page.html=SECRET")
	run(t, root, map[string]string{"a/b/tree.json": "genuin", "x/page.html": "genuin", "k/id": "genuin", "l/m/n.json": "genuin"}, true)
	for _, p := range []string{"a/b/tree.json", "k/id"} {
		_ = os.Remove(filepath.Join(root, p))
	}
	_ = os.RemoveAll(filepath.Join(root, "x"))
	_ = os.RemoveAll(filepath.Join(root, "l"))
	mkfiles(t, root, "a/b/tree.json->"+filepath.Join(secret, "id")+" k/id->"+filepath.Join(secret, "id")+" x->"+filepath.Join(secret, "x")+" l->"+secret)
	w, err := Begin(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	// The same bytes as before: reused from the previous output if safe.
	if err := w.Write("a/b/tree.json", []byte("genuin")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"k", "x", "l/m", "l"} {
		if _, err := w.CarryOver(d); err != nil {
			t.Fatalf("CarryOver(%s): %v", d, err)
		}
	}
	if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, root)
	if strings.Contains(got, "SECRET") || strings.Contains(got, "->") {
		t.Fatalf("something from outside reached the output: %s", got)
	}
	if !strings.Contains(got, "a/b/tree.json=genuin") {
		t.Fatalf("the file written is missing: %s", got)
	}
	data, err := os.ReadFile(filepath.Join(root, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{`"k/id"`, `"x/page.html"`, `"l/m/n.json"`} {
		if strings.Contains(string(data), p) {
			t.Errorf("the manifest lists %s, a link's target", p)
		}
	}
}

// TestPreviousManifestIsNotALink: a manifest.json planted as a link to a
// curex manifest outside is refused, not read.
func TestPreviousManifestIsNotALink(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	run(t, other, map[string]string{"index.html": "other"}, true)
	root := filepath.Join(dir, "out")
	mkfiles(t, root, "manifest.json->"+filepath.Join(other, ManifestName))
	w, err := Begin(afero.NewOsFs(), root)
	if err == nil {
		_ = w.Abort()
		t.Fatal("a manifest that is a link was accepted")
	}
	if !errors.Is(err, ErrNotOutput) {
		t.Fatalf("error %v", err)
	}
}

// TestCarriedFileEditedAtTheSameSize: a file of the previous output whose
// bytes no longer match the manifest is carried over with its real
// checksum, never the manifest's.
func TestCarriedFileEditedAtTheSameSize(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out")
	run(t, root, map[string]string{"c/v/es/tree.json": "old-es"}, true)
	if err := os.WriteFile(filepath.Join(root, "c/v/es/tree.json"), []byte("EDITED"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := run(t, root, nil, false)
	if ok, err := w.Intact("c/v/es"); err != nil || ok {
		t.Errorf("Intact of an edited folder = %v, %v; want false", ok, err)
	}
	if _, err := w.CarryOver("c/v/es"); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
		t.Fatal(err)
	}
	checkManifestMatchesDisk(t, root)
}

// TestReusedFileEditedAtTheSameSize: Write of bytes the manifest lists for
// a file edited since (same size) writes them, never keeps the edit.
func TestReusedFileEditedAtTheSameSize(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out")
	run(t, root, map[string]string{"index.html": "genuine"}, true)
	if err := os.WriteFile(filepath.Join(root, "index.html"), []byte("EDITED!"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, root, map[string]string{"index.html": "genuine"}, true)
	if got := tree(t, root); got != "index.html=genuine manifest.json=…" {
		t.Fatalf("after the run: %s", got)
	}
	checkManifestMatchesDisk(t, root)
}

// checkManifestMatchesDisk checks every file the manifest lists against
// its bytes on disk.
func checkManifestMatchesDisk(t *testing.T, root string) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ReadManifest(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range m.Files {
		s, err := fileSumOf(afero.NewOsFs(), filepath.Join(root, filepath.FromSlash(mf.Path)))
		want, _ := sumOf(mf)
		if err != nil || s != want {
			t.Errorf("%s: the manifest's checksum is not the file's (%v)", mf.Path, err)
		}
	}
}

// TestOutputThatIsALink: --output naming a link to a folder swaps the
// folder and keeps the link.
func TestOutputThatIsALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "releases", "site")
	link := filepath.Join(dir, "www")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"v1", "v2"} {
		run(t, link, map[string]string{"index.html": body}, true)
		if target, err := os.Readlink(link); err != nil || target != real {
			t.Fatalf("the link is gone: %q %v", target, err)
		}
		if got := tree(t, real); got != "index.html="+body+" manifest.json=…" {
			t.Fatalf("the link's target holds %s", got)
		}
	}
	// A link that leads nowhere is refused at Begin, naming it.
	dangling := filepath.Join(dir, "gone")
	if err := os.Symlink(filepath.Join(dir, "missing"), dangling); err != nil {
		t.Fatal(err)
	}
	if w, err := Begin(afero.NewOsFs(), dangling); err == nil || !strings.Contains(err.Error(), dangling) {
		if w != nil {
			_ = w.Abort()
		}
		t.Fatalf("Begin on a dangling link: %v", err)
	}
}

// TestStagesInsideWhenTheParentIsReadOnly: an output folder whose parent
// cannot take a staging folder (a mounted /srv/www) is staged inside
// itself, and swapped entry by entry, its hidden entries untouched. Root
// ignores permission bits, so the parent's refusal is injected (and, when
// not root, also made with chmod).
func TestStagesInsideWhenTheParentIsReadOnly(t *testing.T) {
	for _, how := range []string{"injected", "chmod"} {
		t.Run(how, func(t *testing.T) {
			parent := filepath.Join(t.TempDir(), "srv")
			root := filepath.Join(parent, "www")
			mkfiles(t, root, ".well-known/security.txt=contact")
			if how == "chmod" {
				if os.Geteuid() == 0 {
					t.Skip("running as root: permission bits do not stop root; the injected case covers the decision")
				}
				if err := os.Chmod(parent, 0o555); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.Chmod(parent, 0o755) })
			}
			for _, body := range []string{"v1", "v2"} {
				w, err := begin(context.Background(), afero.NewOsFs(), root, beginOptions{besideRefused: how == "injected"})
				if err != nil {
					t.Fatal(err)
				}
				if filepath.Dir(w.staging) != root {
					t.Fatalf("staging at %s, want inside %s", w.staging, root)
				}
				if err := w.Write("a/index.html", []byte(body)); err != nil {
					t.Fatal(err)
				}
				if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
					t.Fatal(err)
				}
				if got := snapshot(t, root); !strings.Contains(got, "a/index.html="+body) || !strings.Contains(got, ".well-known/security.txt=contact") || strings.Contains(got, ".curex-") {
					t.Fatalf("after export %s: %s", body, got)
				}
			}
			checkManifestMatchesDisk(t, root)
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 {
				t.Errorf("parent holds %v", entries)
			}
		})
	}
}

// TestInsideSwapRecoversFromACrash kills the entry-by-entry swap at each
// of its points; the next Begin finds a complete output, the previous one
// or the new one, never a mix, and the user's hidden entries.
func TestInsideSwapRecoversFromACrash(t *testing.T) {
	for _, at := range []string{"journal", "aside", "in"} {
		t.Run(at, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "www")
			mkfiles(t, root, ".git/HEAD=ref")
			commit := func(body string, kill string) {
				w, err := begin(context.Background(), afero.NewOsFs(), root, beginOptions{besideRefused: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range []string{"index.html", "a/b.html", body + ".html"} {
					if err := w.Write(p, []byte(body)); err != nil {
						t.Fatal(err)
					}
				}
				w.hook = func(step string) {
					if step == kill {
						panic("killed")
					}
				}
				func() {
					defer func() { _ = recover() }()
					_ = w.Commit(&Manifest{Generator: "curex " + body})
				}()
			}
			commit("v1", "")
			commit("v2", at)
			w, err := begin(context.Background(), afero.NewOsFs(), root, beginOptions{besideRefused: true})
			if err != nil {
				t.Fatal(err)
			}
			_ = w.Abort()
			got := checkComplete(t, afero.NewOsFs(), root)
			want := map[string]string{"journal": "curex v1", "aside": "curex v1", "in": "curex v2"}[at]
			if got != want {
				t.Errorf("output after the crash: %q, want %q", got, want)
			}
			checkManifestMatchesDisk(t, root)
			snap := snapshot(t, root)
			if !strings.Contains(snap, ".git/HEAD=ref") || strings.Contains(snap, ".curex-") {
				t.Errorf("after recovery: %s", snap)
			}
			other := map[string]string{"curex v1": "v2.html", "curex v2": "v1.html"}[got]
			if strings.Contains(snap, other) {
				t.Errorf("a mix of outputs: %s", snap)
			}
		})
	}
}

// fileSumOf reads the file at path through SHA-256.
func fileSumOf(fsys afero.Fs, path string) (fileSum, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fileSum{}, err
	}
	s := fileSum{size: n}
	h.Sum(s.sum[:0])
	return s, nil
}

// FuzzParseOwnManifest: any bytes found as manifest.json are parsed
// without a panic, and what is accepted lists only safe paths and
// encodes back to a manifest accepted again.
func FuzzParseOwnManifest(f *testing.F) {
	f.Add([]byte(`{"generator":"curex 0.1.0","exports":[],"files":[{"path":"index.html","size":2,"sha256":"` + strings.Repeat("0", 64) + `"}]}`))
	f.Add([]byte(`{"name":"App","start_url":"/","icons":[]}`))
	f.Add([]byte(`{"generator":"curex","exports":null,"files":[{"path":"../x","size":1,"sha256":"00"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseOwnManifest(data)
		if err != nil {
			return
		}
		for _, mf := range m.Files {
			if CheckPath(mf.Path) != nil {
				t.Fatalf("accepted unsafe path %q", mf.Path)
			}
		}
		b, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseOwnManifest(b); err != nil {
			t.Fatalf("re-encoded manifest refused: %v", err)
		}
	})
}

// TestStagesInsideAMountPoint mounts a tmpfs as the output folder (a
// mounted /srv/www: it cannot be renamed, and a staging folder beside it is
// on another file system): the export is staged inside it, the file
// system's lost+found and the user's hidden entries stay. It needs the
// right to mount (root in CI); elsewhere it is skipped.
func TestStagesInsideAMountPoint(t *testing.T) {
	root := filepath.Join(t.TempDir(), "srv", "www")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mount(root); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v); TestStagesInsideWhenTheParentIsReadOnly covers the decision", err)
	}
	t.Cleanup(func() { _ = unmount(root) })
	mkfiles(t, root, "lost+found/ .gitkeep=")
	for _, body := range []string{"v1", "v2"} {
		w, err := Begin(afero.NewOsFs(), root)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(w.staging) != root {
			t.Fatalf("staging at %s, want inside the mount point %s", w.staging, root)
		}
		if err := w.Write("index.html", []byte(body)); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(&Manifest{Generator: "curex test"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := snapshot(t, root); !strings.HasPrefix(got, ".gitkeep= index.html=v2 lost+found/ manifest.json=") {
		t.Fatalf("after two exports: %s", got)
	}
}

// TestUnwritableOutputRefusedAtBegin: a new output folder whose parent
// refuses the staging folder cannot be staged inside either: Begin fails,
// naming it, before the run sends anything.
func TestUnwritableOutputRefusedAtBegin(t *testing.T) {
	root := filepath.Join(t.TempDir(), "srv", "www")
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := begin(context.Background(), afero.NewOsFs(), root, beginOptions{besideRefused: true})
	if err == nil {
		_ = w.Abort()
		t.Fatal("Begin accepted an output it cannot write")
	}
	if !strings.Contains(err.Error(), root) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("error %v: want one naming %s, wrapping the permission error", err, root)
	}
	if _, err := os.Stat(root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Begin made %s: %v", root, err)
	}
}
