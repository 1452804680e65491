package output

import (
	"bufio"
	"bytes"
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

	"github.com/curex/curex/exporter/internal/plainfile"
	"github.com/curex/curex/exporter/internal/slug"
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

	prev   *Manifest          // the current output's manifest (its Files dropped), or nil
	old    map[string]fileSum // its files by path
	reader *previous          // reads the current output, never through a link
	inside bool               // the staging folder is inside the output folder (see inside.go)
	dirs   sync.Map           // folders made in the staging folder (some)
	ndir   atomic.Int64       // entries in dirs

	mu sync.Mutex
	// files are this run's files by path: what the manifest lists. A
	// run keeps one of these per output file, so it is kept small (the
	// checksum as bytes, the path once, as the key).
	files     map[string]fileSum
	written   int
	unchanged int
	done      bool
	counts    map[string]int         // files of old by folder, for Intact (made on first use)
	checked   map[string]fs.FileInfo // files Intact found as listed, for CarryOver

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
// earlier, interrupted runs left beside root (after putting back what
// they held of the user's), checks that root is curex's output or holds
// nothing of the user's (else the error wraps ErrNotOutput), and creates
// a new staging folder. A root that is a symbolic link is resolved: its
// target is replaced and the link kept. Begin sends no request: the
// command calls it before the first one, so an output that cannot be
// written or replaced is refused before any work is done.
func Begin(fsys afero.Fs, root string) (*Writer, error) {
	return BeginContext(context.Background(), fsys, root)
}

// BeginContext is Begin for a run that ctx can stop: once ctx is done,
// every Write, CarryOver and Commit fails with ctx's error, so that every
// stage writing through w (each page of the website, each file of a
// bundle) stops at its next file, and the output folder is never
// replaced. The caller then calls Abort, as after any failure.
func BeginContext(ctx context.Context, fsys afero.Fs, root string) (*Writer, error) {
	return begin(ctx, fsys, root, beginOptions{})
}

// beginOptions are Begin's test hooks.
type beginOptions struct {
	// besideRefused makes the folder beside root refuse the staging
	// folder, as a parent without write permission does: tests run as
	// root, whom permission bits do not stop.
	besideRefused bool
}

func begin(ctx context.Context, fsys afero.Fs, root string, opts beginOptions) (*Writer, error) {
	root, err := resolveRoot(fsys, filepath.Clean(root))
	if err != nil {
		return nil, err
	}
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
			stale := filepath.Join(parent, n)
			if strings.HasPrefix(n, base+stagingPrefix) {
				if err := recoverHidden(fsys, stale, root); err != nil {
					return nil, err
				}
			}
			if err := fsys.RemoveAll(stale); err != nil {
				return nil, fmt.Errorf("remove stale %s: %w", n, err)
			}
		}
	}
	if err := recoverInside(fsys, root); err != nil {
		return nil, err
	}
	reader, err := openPrevious(fsys, root)
	if err != nil {
		return nil, err
	}
	prev, err := checkReplaceable(fsys, reader, root)
	if err != nil {
		reader.close()
		return nil, err
	}
	staging, inside, err := makeStaging(fsys, root, opts)
	if err != nil {
		reader.close()
		return nil, err
	}
	w := &Writer{fs: fsys, root: root, staging: staging, inside: inside, reader: reader, files: map[string]fileSum{}, old: map[string]fileSum{}, checked: map[string]fs.FileInfo{}, ctx: ctx}
	w.prev = prev
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

// resolveRoot returns the folder a root that is a symbolic link names
// (the link is kept; its target is what gets replaced), or root.
func resolveRoot(fsys afero.Fs, root string) (string, error) {
	if !isOS(fsys) {
		return root, nil
	}
	info, err := os.Lstat(root)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return root, nil
	}
	target, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("output %s is a link that leads nowhere: %w", root, err)
	}
	return target, nil
}

// makeStaging creates the staging folder: beside root, so that the swap is
// one exchange of folders; inside root when the folder beside it refuses
// (a parent without write permission, such as /srv above a mounted
// /srv/www) or is on another file system (root is a mount point, which
// cannot be renamed).
func makeStaging(fsys afero.Fs, root string, opts beginOptions) (string, bool, error) {
	parent, base := filepath.Dir(root), filepath.Base(root)
	name := fmt.Sprintf("%s%d", stagingPrefix, time.Now().UnixNano())
	beside := filepath.Join(parent, base+name)
	info, statErr := fsys.Stat(root)
	exists := statErr == nil && info.IsDir()
	var err error
	if opts.besideRefused {
		err = &fs.PathError{Op: "mkdir", Path: beside, Err: fs.ErrPermission}
	} else {
		err = fsys.Mkdir(beside, 0o755)
	}
	if err == nil && (!exists || !isOS(fsys) || sameDevice(parent, root)) {
		return beside, false, nil
	}
	if err == nil {
		_ = fsys.Remove(beside) // root is a mount point
	}
	if !exists {
		return "", false, fmt.Errorf("output %s: cannot create a staging folder beside it: %w", root, err)
	}
	inside := filepath.Join(root, name)
	if ierr := fsys.Mkdir(inside, 0o755); ierr != nil {
		if err == nil {
			err = ierr
		}
		return "", false, fmt.Errorf("output %s: cannot write beside it nor inside it: %w", root, err)
	}
	return inside, true, nil
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
		if err := w.writeFile(full, data); err != nil {
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
// (size and SHA-256 as the previous manifest lists them, and the bytes on
// disk, read without following a link, equal to data): on the OS file
// system a hard link into the staging folder, so nothing is written and
// the file keeps its modification time; elsewhere the bytes are written
// and the old modification time is set.
func (w *Writer) reuse(rel string, f fileSum, full string, data []byte) (bool, error) {
	if prev, ok := w.old[rel]; !ok || prev != f {
		return false, nil
	}
	cur, info, err := w.reader.open(rel)
	if err != nil {
		return false, nil
	}
	defer cur.Close()
	if info.Size() != f.size {
		return false, nil
	}
	if data != nil {
		if same, err := sameBytes(cur, data); err != nil || !same {
			return false, nil
		}
	} else if s, err := sumReader(cur); err != nil || s != f {
		return false, nil
	}
	return w.keep(rel, full, info, data)
}

// keep puts the current output's file rel, whose bytes were checked, at
// full in the staging folder: a hard link to the very file checked (info)
// on the OS file system; elsewhere data, with the old modification time.
// It reports false when no link can be made there (the caller writes).
func (w *Writer) keep(rel, full string, info fs.FileInfo, data []byte) (bool, error) {
	if isOS(w.fs) {
		if err := os.Link(filepath.Join(w.root, filepath.FromSlash(rel)), full); err != nil {
			return false, nil // another file system, no links: write it
		}
		// The path may have changed since it was checked (a folder on its
		// way swapped for a link): keep the link only if it is that file.
		if linked, err := os.Lstat(full); err != nil || !os.SameFile(info, linked) {
			if err := os.Remove(full); err != nil {
				return false, err
			}
			return false, nil
		}
		return true, nil
	}
	if data == nil {
		return false, nil
	}
	if err := w.writeFile(full, data); err != nil {
		return false, err
	}
	if err := w.fs.Chtimes(full, info.ModTime(), info.ModTime()); err != nil {
		return false, err
	}
	return true, nil
}

// sameBytes reports whether r reads exactly data.
func sameBytes(r io.Reader, data []byte) (bool, error) {
	buf := make([]byte, 32<<10)
	for {
		n, err := io.ReadFull(r, buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false, nil
		}
		data = data[n:]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return len(data) == 0, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// sumReader reads r through SHA-256.
func sumReader(r io.Reader) (fileSum, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return fileSum{}, err
	}
	s := fileSum{size: n}
	h.Sum(s.sum[:0])
	return s, nil
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

// CarryOver carries every file under the folder dir of the current output
// over into the new one, for an export this run could not refresh or did
// not need to. It reports whether anything was there. Files are read
// without following a link (see previous.go): a link, or a file reached
// through one, is not carried. A file whose bytes still match the
// previous manifest is kept as it is (a hard link); one that does not is
// copied with its own size and checksum, never the manifest's old ones.
// Callers that can render the files again ask Intact first.
func (w *Writer) CarryOver(dir string) (bool, error) {
	if err := w.ctx.Err(); err != nil {
		return false, fmt.Errorf("carry over %s: %w", dir, err)
	}
	if err := CheckPath(dir); err != nil {
		return false, err
	}
	found := false
	err := w.reader.walk(dir, func(rel string, open opener) error {
		if err := w.ctx.Err(); err != nil {
			return err // a folder can hold thousands of files
		}
		if rel == ManifestName || CheckPath(rel) != nil {
			return nil
		}
		w.step("carry")
		found = true
		return w.carry(rel, open)
	})
	if err != nil {
		return found, fmt.Errorf("carry over %s: %w", dir, err)
	}
	return found, nil
}

// carry carries the current output's file rel over. A file Intact
// checked is linked without being read again.
func (w *Writer) carry(rel string, open opener) error {
	full := filepath.Join(w.staging, filepath.FromSlash(rel))
	if err := w.mkdir(filepath.Dir(full)); err != nil {
		return err
	}
	w.mu.Lock()
	checked, ok := w.checked[rel]
	delete(w.checked, rel)
	w.mu.Unlock()
	if ok {
		kept, err := w.keep(rel, full, checked, nil)
		if err != nil {
			return err
		}
		if kept {
			w.mu.Lock()
			w.files[rel] = w.old[rel]
			w.unchanged++
			w.mu.Unlock()
			return nil
		}
	}
	f, info, err := open()
	if errors.Is(err, errNotCurexFile) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	s := fileSum{size: int64(len(data)), sum: sha256.Sum256(data)}
	kept := false
	if prev, ok := w.old[rel]; ok && prev == s {
		if kept, err = w.keep(rel, full, info, data); err != nil {
			return err
		}
	}
	if !kept {
		if err := w.writeFile(full, data); err != nil {
			return err
		}
	}
	w.mu.Lock()
	w.files[rel] = s
	if kept {
		w.unchanged++
	} else {
		w.written++
	}
	w.mu.Unlock()
	return nil
}

// Intact reports whether every file the previous manifest lists under the
// folder dir is in the current output with the bytes it lists, as a
// regular file, and nothing else is there: then CarryOver(dir) keeps the
// previous export exactly. A caller that can render the files again does
// so when it is not.
func (w *Writer) Intact(dir string) (bool, error) {
	if err := CheckPath(dir); err != nil {
		return false, err
	}
	w.mu.Lock()
	if w.counts == nil {
		w.counts = map[string]int{}
		for p := range w.old {
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				w.counts[d]++
			}
		}
	}
	want := w.counts[dir]
	w.mu.Unlock()
	n := 0
	intact := true
	checked := map[string]fs.FileInfo{}
	err := w.reader.walk(dir, func(rel string, open opener) error {
		n++
		prev, ok := w.old[rel]
		if !ok {
			intact = false
			return fs.SkipAll
		}
		f, info, err := open()
		if err != nil {
			intact = false
			return fs.SkipAll
		}
		defer f.Close()
		if s, err := sumReader(f); err != nil || s != prev {
			intact = false
			return fs.SkipAll
		}
		checked[rel] = info
		return nil
	})
	if errors.Is(err, fs.SkipAll) {
		err = nil
	}
	if err != nil {
		return false, fmt.Errorf("check %s: %w", dir, err)
	}
	if !intact || n != want {
		return false, nil
	}
	// CarryOver links these files without reading them again.
	w.mu.Lock()
	maps.Copy(w.checked, checked)
	w.mu.Unlock()
	return true, nil
}

// Previous returns the manifest of the current output as Begin found it,
// or nil when there is none.
func (w *Writer) Previous() *Manifest { return w.prev }

// ReadPrevious returns the bytes of the current output's file rel
// (slash-separated), read without following a link: a link, or a file
// reached through one, is an error.
func (w *Writer) ReadPrevious(rel string) ([]byte, error) {
	return w.reader.readFile(rel)
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
	// The last moment a stopped run can leave the output as it was.
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	w.reader.close() // the previous output is read no more
	var old string
	var err error
	if w.inside {
		old, err = w.swapInside()
	} else {
		if err = w.moveHidden(); err != nil {
			return err
		}
		w.step("hidden")
		old, err = w.swap()
		if err != nil {
			// The output folder is the previous one: its hidden entries go
			// back before Abort removes the staging folder.
			if rerr := recoverHidden(w.fs, w.staging, w.root); rerr != nil {
				return fmt.Errorf("%w; %w", err, rerr)
			}
		}
	}
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
		prev, err = w.previousSum(ManifestName)
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

// previousSum reads the current output's file rel through SHA-256.
func (w *Writer) previousSum(rel string) (fileSum, error) {
	f, _, err := w.reader.open(rel)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	return sumReader(f)
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

// writeFile writes data to the file full, created or truncated, as
// afero.WriteFile does; on the operating system's file system without the
// runtime's poller (plainfile: a site writes a file a page).
func (w *Writer) writeFile(full string, data []byte) error {
	if !isOS(w.fs) {
		return afero.WriteFile(w.fs, full, data, 0o644)
	}
	return plainfile.WriteFile(full, data, 0o644)
}

// isOS reports whether fsys is the OS file system, where paths are real
// paths and the system calls afero does not offer (links, the exchange)
// can be used on them.
func isOS(fsys afero.Fs) bool {
	_, ok := fsys.(*afero.OsFs)
	return ok
}

// Abort removes the staging folder; the output folder stays as it was.
func (w *Writer) Abort() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return nil
	}
	w.done = true
	w.reader.close()
	if !w.inside {
		// Nothing of the user's is in the staging folder unless a Commit
		// failed half way; put it back if so.
		if err := recoverHidden(w.fs, w.staging, w.root); err != nil {
			return err
		}
	}
	if err := w.fs.RemoveAll(w.staging); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove staging folder: %w", err)
	}
	return nil
}
