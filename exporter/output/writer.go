package output

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/curex/curex/exporter/slug"
	"github.com/spf13/afero"
)

const (
	stagingPrefix = ".curex-staging-"
	oldPrefix     = ".curex-old-"
)

// Writer collects one run's output in a staging folder beside the output
// folder, then swaps it in. Methods are safe for concurrent use.
type Writer struct {
	fs      afero.Fs
	root    string // the output folder
	staging string

	prev *Manifest          // the current output's manifest (its Files dropped), or nil
	old  map[string]fileSum // its files by path
	dirs sync.Map           // folders made in the staging folder (some)
	ndir atomic.Int64       // entries in dirs

	mu sync.Mutex
	// files are this run's files by path: what the manifest lists. A
	// run keeps one of these per output file, so it is kept small (the
	// checksum as bytes, the path once, as the key).
	files     map[string]fileSum
	written   int
	unchanged int
	done      bool

	hook func(step string) // tests: called at each point of the swap

	// ctx ends the run: once it is done, Write, CarryOver and Commit fail
	// with its error (see BeginContext).
	ctx context.Context
}

// fileSum is a file's size and SHA-256.
type fileSum struct {
	size int64
	sum  [sha256.Size]byte
}

// sumOf returns the fileSum of a manifest entry; false when its checksum
// is not 64 hex digits (such an entry is never reused).
func sumOf(f ManifestFile) (fileSum, bool) {
	fs := fileSum{size: f.Size}
	if len(f.SHA256) != 2*sha256.Size {
		return fs, false
	}
	if _, err := hex.Decode(fs.sum[:], []byte(f.SHA256)); err != nil {
		return fs, false
	}
	return fs, true
}

// Begin prepares a run writing to root: it removes staging folders that
// earlier, interrupted runs left beside root, and creates a new one.
func Begin(fsys afero.Fs, root string) (*Writer, error) {
	return BeginContext(context.Background(), fsys, root)
}

// BeginContext is Begin for a run that ctx can stop: once ctx is done,
// every Write, CarryOver and Commit fails with ctx's error, so that every
// stage writing through w (each page of the website, each file of a
// bundle) stops at its next file, and the output folder is never
// replaced. The caller then calls Abort, as after any failure.
func BeginContext(ctx context.Context, fsys afero.Fs, root string) (*Writer, error) {
	root = filepath.Clean(root)
	parent, base := filepath.Dir(root), filepath.Base(root)
	if err := fsys.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("output %s: %w", root, err)
	}
	entries, err := afero.ReadDir(fsys, parent)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", root, err)
	}
	if err := recoverSwap(fsys, parent, base, entries); err != nil {
		return nil, err
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, base+stagingPrefix) || strings.HasPrefix(n, base+oldPrefix) {
			if err := fsys.RemoveAll(filepath.Join(parent, n)); err != nil {
				return nil, fmt.Errorf("remove stale %s: %w", n, err)
			}
		}
	}
	if err := checkReplaceable(fsys, root); err != nil {
		return nil, err
	}
	staging := filepath.Join(parent, fmt.Sprintf("%s%s%d", base, stagingPrefix, time.Now().UnixNano()))
	if err := fsys.MkdirAll(staging, 0o755); err != nil {
		return nil, fmt.Errorf("create staging folder: %w", err)
	}
	w := &Writer{fs: fsys, root: root, staging: staging, files: map[string]fileSum{}, old: map[string]fileSum{}, ctx: ctx}
	w.prev = w.readPrevious()
	if w.prev != nil {
		for _, f := range w.prev.Files {
			if s, ok := sumOf(f); ok {
				w.old[f.Path] = s
			}
		}
		w.prev.Files = nil // in old, smaller
	}
	return w, nil
}

// recoverSwap undoes the effect of a run killed in the middle of Commit's
// two-rename swap: when the output folder is missing but the previous
// output was moved aside, it is put back. Without this, the next Begin
// would remove the only complete output as a stale folder. The atomic
// exchange leaves nothing to recover: a run killed after it left the
// previous output at its staging path, removed below as stale.
func recoverSwap(fsys afero.Fs, parent, base string, entries []fs.FileInfo) error {
	root := filepath.Join(parent, base)
	if _, err := fsys.Stat(root); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var olds []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base+oldPrefix) && e.IsDir() {
			olds = append(olds, e.Name())
		}
	}
	if len(olds) == 0 {
		return nil
	}
	slices.Sort(olds) // by the time in the name: put back the latest
	latest := filepath.Join(parent, olds[len(olds)-1])
	if err := fsys.Rename(latest, root); err != nil {
		return fmt.Errorf("output %s: put back the previous output from %s: %w", root, latest, err)
	}
	return nil
}

// ErrNotOutput is returned for an output folder that holds files but no
// manifest.json: it was not made by curex, and curex will not replace it.
var ErrNotOutput = errors.New("not a curex output folder")

// checkReplaceable refuses to replace a folder that curex did not make:
// one with visible files and no manifest. Hidden files alone (.gitkeep)
// are fine; they are kept across runs.
func checkReplaceable(fsys afero.Fs, root string) error {
	info, err := fsys.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", root, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("output %s: %w: it is a file", root, ErrNotOutput)
	}
	entries, err := afero.ReadDir(fsys, root)
	if err != nil {
		return fmt.Errorf("output %s: %w", root, err)
	}
	for _, e := range entries {
		if e.Name() == ManifestName {
			return nil
		}
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("output %s holds %s but no %s: %w; choose an empty or new folder", root, e.Name(), ManifestName, ErrNotOutput)
		}
	}
	return nil
}

// Root returns the output folder.
func (w *Writer) Root() string { return w.root }

// CheckPath rejects a relative output path that could leave the output
// folder or is not in canonical form: empty, absolute, with "." or ".."
// segments, backslashes or control characters, or a segment Windows cannot
// name a file or folder by ("con", "nul.md", "name.": slug.Reserved).
func CheckPath(rel string) error {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, '\\') || path.Clean(rel) != rel {
		return fmt.Errorf("unsafe output path %q", rel)
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == "." || seg == ".." {
			return fmt.Errorf("unsafe output path %q", rel)
		}
		if slug.Reserved(seg) {
			return fmt.Errorf("unsafe output path %q: %q is a name Windows reserves", rel, seg)
		}
	}
	for _, r := range rel {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("unsafe output path %q: control character", rel)
		}
	}
	return nil
}

// Write stores data at rel (forward slashes, relative to the output root).
func (w *Writer) Write(rel string, data []byte) error {
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := CheckPath(rel); err != nil {
		return err
	}
	if rel == ManifestName {
		return fmt.Errorf("write %s: the manifest is written by Commit", rel)
	}
	full := filepath.Join(w.staging, filepath.FromSlash(rel))
	if err := w.mkdir(filepath.Dir(full)); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	f := fileSum{size: int64(len(data)), sum: sha256.Sum256(data)}
	reused, err := w.reuse(rel, f, full, data)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if !reused {
		if err := afero.WriteFile(w.fs, full, data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	w.mu.Lock()
	w.files[rel] = f
	if reused {
		w.unchanged++
	} else {
		w.written++
	}
	w.mu.Unlock()
	return nil
}

// maxDirs bounds the folders mkdir remembers. Pages are written tree by
// tree, so the folders asked for again are recent ones; forgetting the
// rest keeps a run's memory from growing with its pages (a folder made
// before is found again with one failed mkdir).
const maxDirs = 4096

// mkdir makes dir and its parents in the staging folder, remembering the
// folders made: a site has a folder per page and several files in some,
// and asking the file system again for each file would add system calls.
func (w *Writer) mkdir(dir string) error {
	if _, ok := w.dirs.Load(dir); ok {
		return nil
	}
	if err := w.fs.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		if err := w.fs.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if w.ndir.Add(1) > maxDirs {
		w.dirs.Clear()
		w.ndir.Store(1)
	}
	w.dirs.Store(dir, true)
	return nil
}

// reuse keeps the current output's file for f when its bytes are the same
// (size and SHA-256 as the previous manifest lists them, and the same size
// on disk): on the OS file system a hard link into the staging folder, so
// nothing is written and the file keeps its modification time; elsewhere
// the bytes are written and the old modification time is set.
func (w *Writer) reuse(rel string, f fileSum, full string, data []byte) (bool, error) {
	if prev, ok := w.old[rel]; !ok || prev != f {
		return false, nil
	}
	cur := filepath.Join(w.root, filepath.FromSlash(rel))
	info, err := w.fs.Stat(cur)
	if err != nil || !info.Mode().IsRegular() || info.Size() != f.size {
		return false, nil
	}
	if isOS(w.fs) {
		if err := os.Link(cur, full); err == nil {
			return true, nil
		}
		return false, nil // another file system, no links: write it
	}
	if err := afero.WriteFile(w.fs, full, data, 0o644); err != nil {
		return false, err
	}
	if err := w.fs.Chtimes(full, info.ModTime(), info.ModTime()); err != nil {
		return false, err
	}
	return true, nil
}

// Listed returns how many files the manifest lists (itself not counted):
// every file this run wrote or kept.
func (w *Writer) Listed() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Counts returns how many files this run wrote and how many it kept
// unchanged from the current output (same bytes, not rewritten), the
// manifest included once Commit ran.
func (w *Writer) Counts() (written, unchanged int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.written, w.unchanged
}

// CarryOver copies every file under the folder dir of the current output
// into the new one, for an export this run could not refresh. It reports
// whether anything was there to copy.
func (w *Writer) CarryOver(dir string) (bool, error) {
	if err := w.ctx.Err(); err != nil {
		return false, fmt.Errorf("carry over %s: %w", dir, err)
	}
	if err := CheckPath(dir); err != nil {
		return false, err
	}
	src := filepath.Join(w.root, filepath.FromSlash(dir))
	if _, err := w.fs.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	found := false
	err := afero.Walk(w.fs, src, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("carry over %s: %w", dir, err) // a folder can hold thousands of files
		}
		if info.IsDir() {
			return nil
		}
		w.step("carry")
		rel, err := filepath.Rel(w.root, p)
		if err != nil {
			return err
		}
		found = true
		if ok, err := w.carryLinked(filepath.ToSlash(rel), info); ok || err != nil {
			return err
		}
		data, err := afero.ReadFile(w.fs, p)
		if err != nil {
			return err
		}
		return w.Write(filepath.ToSlash(rel), data)
	})
	if err != nil {
		return found, fmt.Errorf("carry over %s: %w", dir, err)
	}
	return found, nil
}

// carryLinked carries the file rel over without reading it: when the
// previous manifest lists it with the size it has on disk, a hard link in
// the staging folder keeps it, and the manifest's size and SHA-256 stay.
// It reports false when that cannot be done (the caller then copies). The
// output folder is curex's: a file edited there by hand at the same size
// would be carried over with the manifest's old checksum.
func (w *Writer) carryLinked(rel string, info fs.FileInfo) (bool, error) {
	if !isOS(w.fs) || CheckPath(rel) != nil || rel == ManifestName {
		return false, nil
	}
	prev, ok := w.old[rel]
	if !ok || prev.size != info.Size() || !info.Mode().IsRegular() {
		return false, nil
	}
	full := filepath.Join(w.staging, filepath.FromSlash(rel))
	if err := w.mkdir(filepath.Dir(full)); err != nil {
		return false, fmt.Errorf("carry over %s: %w", rel, err)
	}
	if err := os.Link(filepath.Join(w.root, filepath.FromSlash(rel)), full); err != nil {
		return false, nil
	}
	w.mu.Lock()
	w.files[rel] = prev
	w.unchanged++
	w.mu.Unlock()
	return true, nil
}

// Previous returns the manifest of the current output as Begin found it,
// or nil when there is none or it cannot be read.
func (w *Writer) Previous() *Manifest { return w.prev }

func (w *Writer) readPrevious() *Manifest {
	f, err := w.fs.Open(filepath.Join(w.root, ManifestName))
	if err != nil {
		return nil
	}
	defer f.Close()
	m, err := ReadManifest(f)
	if err != nil {
		return nil
	}
	return m
}

// Commit writes manifest.json (m with the list of files this run wrote;
// m.Files is ignored and left as it is) and
// swaps the staging folder in place of the output folder. Until the swap,
// the previous output is untouched; the swap itself is one atomic exchange
// on Linux's file system, two renames elsewhere (see swap).
func (w *Writer) Commit(m *Manifest) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return errors.New("commit: writer already finished")
	}
	if err := w.writeManifest(m); err != nil {
		return err
	}
	if err := w.keepHidden(); err != nil {
		return err
	}
	// The last moment a stopped run can leave the output as it was.
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	old, err := w.swap()
	if err != nil {
		return err
	}
	w.done = true
	if old != "" {
		if err := w.fs.RemoveAll(old); err != nil {
			return fmt.Errorf("commit: remove previous output: %w", err)
		}
	}
	return nil
}

// writeManifest writes manifest.json into the staging folder, encoded as
// it goes (a file entry at a time), so that no copy of the whole list is
// made. When its bytes are those of the current output's manifest, that
// file is kept instead (see reuse).
func (w *Writer) writeManifest(m *Manifest) error {
	full := filepath.Join(w.staging, ManifestName)
	paths := slices.Sorted(maps.Keys(w.files))
	mf, err := w.encodeManifest(full, m, paths)
	if err != nil {
		return err
	}
	prev, ok := w.old[ManifestName]
	if !ok {
		// The previous manifest is not in its own list: read it.
		prev, err = fileSumOf(w.fs, filepath.Join(w.root, ManifestName))
		ok = err == nil
	}
	if ok && prev == mf {
		w.old[ManifestName] = mf
		if !isOS(w.fs) {
			// No hard links: the bytes just written are the same; keep
			// the previous file's time, as reuse does.
			if info, err := w.fs.Stat(filepath.Join(w.root, ManifestName)); err == nil {
				if err := w.fs.Chtimes(full, info.ModTime(), info.ModTime()); err != nil {
					return fmt.Errorf("write manifest: %w", err)
				}
				w.unchanged++
				return nil
			}
			w.written++
			return nil
		}
		if err := w.fs.Remove(full); err != nil {
			return fmt.Errorf("write manifest: %w", err)
		}
		reused, err := w.reuse(ManifestName, mf, full, nil)
		if err != nil {
			return fmt.Errorf("write manifest: %w", err)
		}
		if reused {
			w.unchanged++
			return nil
		}
		// Not kept after all (no hard links here): write it again.
		if _, err := w.encodeManifest(full, m, paths); err != nil {
			return err
		}
	}
	w.written++
	return nil
}

// encodeManifest writes m, with the files of paths, to full and returns
// its size and SHA-256.
func (w *Writer) encodeManifest(full string, m *Manifest, paths []string) (fileSum, error) {
	f, err := w.fs.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fileSum{}, fmt.Errorf("write manifest: %w", err)
	}
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, h), 64<<10)
	err = m.encode(bw, len(paths), func(i int) ManifestFile {
		s := w.files[paths[i]]
		return ManifestFile{Path: paths[i], Size: s.size, SHA256: hex.EncodeToString(s.sum[:])}
	})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fileSum{}, fmt.Errorf("write manifest: %w", err)
	}
	info, err := w.fs.Stat(full)
	if err != nil {
		return fileSum{}, fmt.Errorf("write manifest: %w", err)
	}
	mf := fileSum{size: info.Size()}
	h.Sum(mf.sum[:0])
	return mf, nil
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

// errNoExchange is returned by exchange when the platform, the kernel or
// the file system cannot swap two folders atomically.
var errNoExchange = errors.New("atomic exchange of folders not supported")

// swap puts the staging folder in place of the output folder and returns
// where the previous output now is, for the caller to remove ("" when there
// was none).
//
// On the OS file system under Linux the two folders are exchanged in one
// atomic step (see exchange): the output folder always exists and always
// holds a complete output with its manifest, the previous one or the new
// one, and the previous output ends up at the staging path. Elsewhere (a
// memory file system, another platform, a file system without the
// exchange) it is two renames, output to an aside folder and staging to
// output; between them the output folder does not exist, and a run killed
// there has its previous output put back by the next Begin (recoverSwap).
func (w *Writer) swap() (string, error) {
	if _, err := w.fs.Stat(w.root); err != nil {
		if err := w.fs.Rename(w.staging, w.root); err != nil {
			return "", fmt.Errorf("commit: move new output in place: %w", err)
		}
		return "", nil
	}
	if isOS(w.fs) {
		err := exchange(w.staging, w.root)
		if err == nil {
			w.step("exchanged")
			return w.staging, nil
		}
		if !errors.Is(err, errNoExchange) {
			return "", fmt.Errorf("commit: swap new output in: %w", err)
		}
	}
	old := filepath.Join(filepath.Dir(w.root), filepath.Base(w.root)+oldPrefix+fmt.Sprint(time.Now().UnixNano()))
	if err := w.fs.Rename(w.root, old); err != nil {
		return "", fmt.Errorf("commit: move previous output aside: %w", err)
	}
	w.step("aside")
	if err := w.fs.Rename(w.staging, w.root); err != nil {
		_ = w.fs.Rename(old, w.root) // put the previous output back
		return "", fmt.Errorf("commit: move new output in place: %w", err)
	}
	return old, nil
}

// step calls the test hook, if any, at a point of the swap.
func (w *Writer) step(name string) {
	if w.hook != nil {
		w.hook(name)
	}
}

// isOS reports whether fsys is the OS file system, where paths are real
// paths and the system calls afero does not offer (links, the exchange)
// can be used on them.
func isOS(fsys afero.Fs) bool {
	_, ok := fsys.(*afero.OsFs)
	return ok
}

// keepHidden copies hidden files at the top of the current output (such
// as .gitkeep) into the staging folder; they are the user's, not curex's.
func (w *Writer) keepHidden() error {
	entries, err := afero.ReadDir(w.fs, w.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") || !e.Mode().IsRegular() {
			continue
		}
		data, err := afero.ReadFile(w.fs, filepath.Join(w.root, e.Name()))
		if err != nil {
			return fmt.Errorf("commit: keep %s: %w", e.Name(), err)
		}
		if err := afero.WriteFile(w.fs, filepath.Join(w.staging, e.Name()), data, e.Mode().Perm()); err != nil {
			return fmt.Errorf("commit: keep %s: %w", e.Name(), err)
		}
	}
	return nil
}

// Abort removes the staging folder; the output folder stays as it was.
func (w *Writer) Abort() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return nil
	}
	w.done = true
	if err := w.fs.RemoveAll(w.staging); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove staging folder: %w", err)
	}
	return nil
}
