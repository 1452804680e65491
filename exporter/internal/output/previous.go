package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/afero"
)

// Reading the previous output. The output folder is the user's as much as
// curex's: anyone may have planted a symbolic link in it, to ~/.ssh or to
// /etc. Nothing read from it may follow one, or a file from outside would
// reach the new site, its manifest or a bucket. On the OS file system
// every read goes through an os.Root opened at the output folder (no path
// resolves outside it) and, on top of that, every folder on the way and
// the file itself are checked with Lstat to be real folders and a regular
// file: curex never writes a link, so a link is never curex's file. The
// file opened is checked to be the one looked at (os.SameFile), so a link
// swapped in between is refused too. Other file systems (the memory file
// system of tests) have no links.

// errNotCurexFile is returned for a path of the previous output that is
// not a regular file in real folders (a link, a device, a missing file).
var errNotCurexFile = errors.New("not a regular file of the previous output")

// previous reads the output folder as the previous run left it.
type previous struct {
	fs   afero.Fs
	dir  string
	root *os.Root // the OS file system with the folder there; else nil
	dirs sync.Map // folders (slash paths) found real by lstat
}

// openPrevious opens the output folder dir for reading; a missing folder
// reads as empty.
func openPrevious(fsys afero.Fs, dir string) (*previous, error) {
	p := &previous{fs: fsys, dir: dir}
	if !isOS(fsys) {
		return p, nil
	}
	r, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", dir, err)
	}
	p.root = r
	return p, nil
}

// close releases the folder.
func (p *previous) close() {
	if p.root != nil {
		_ = p.root.Close()
	}
}

// lstat returns the entry rel (slash-separated, checked by CheckPath)
// without following a link; every folder on its way must be a real one.
func (p *previous) lstat(rel string) (fs.FileInfo, error) {
	if err := CheckPath(rel); err != nil {
		return nil, err
	}
	if p.root == nil {
		if isOS(p.fs) {
			return nil, fs.ErrNotExist // no output folder
		}
		return p.fs.Stat(filepath.Join(p.dir, filepath.FromSlash(rel)))
	}
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if _, ok := p.dirs.Load(dir); ok {
			break // and so are its parents
		}
		info, err := p.root.Lstat(dir)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("%s: %w", dir, errNotCurexFile)
		}
	}
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if _, loaded := p.dirs.LoadOrStore(dir, true); loaded {
			break
		}
	}
	return p.root.Lstat(rel)
}

// open opens the regular file rel of the previous output, never through a
// link, and returns it with its information.
func (p *previous) open(rel string) (afero.File, fs.FileInfo, error) {
	info, err := p.lstat(rel)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w", rel, errNotCurexFile)
	}
	if p.root == nil {
		f, err := p.fs.Open(filepath.Join(p.dir, filepath.FromSlash(rel)))
		return f, info, err
	}
	f, err := p.root.OpenFile(rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err != nil || !os.SameFile(info, opened) {
		_ = f.Close()
		return nil, nil, fmt.Errorf("%s: changed while opened: %w", rel, errNotCurexFile)
	}
	return f, opened, nil
}

// readFile returns the bytes of the regular file rel.
func (p *previous) readFile(rel string) ([]byte, error) {
	f, _, err := p.open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// opener opens a file found by walk, never through a link.
type opener func() (afero.File, fs.FileInfo, error)

// walk calls fn with every regular file under the folder dir (slash
// path), itself a real folder reached through real folders, and a
// function that opens it. Links and anything else that is not a file or a
// folder are left out; folders are entered, never followed. On the OS
// file system each folder is opened as an os.Root of its own, so a file
// is opened with one openat(2) in its folder (O_NOFOLLOW) rather than a
// walk from the output's root: an export carries thousands of files.
func (p *previous) walk(dir string, fn func(rel string, open opener) error) error {
	info, err := p.lstat(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotCurexFile) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		if info.Mode().IsRegular() {
			return fn(dir, func() (afero.File, fs.FileInfo, error) { return p.open(dir) })
		}
		return nil
	}
	if p.root == nil {
		fsys := afero.NewIOFS(afero.NewBasePathFs(p.fs, p.dir))
		return fs.WalkDir(fsys, dir, func(rel string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			return fn(rel, func() (afero.File, fs.FileInfo, error) { return p.open(rel) })
		})
	}
	r, err := p.root.OpenRoot(dir)
	if err != nil {
		return err
	}
	return walkRoot(r, dir, fn)
}

// walkRoot walks the folder r (at rel) for walk, and closes it.
func walkRoot(r *os.Root, rel string, fn func(rel string, open opener) error) error {
	defer r.Close()
	d, err := r.Open(".")
	if err != nil {
		return err
	}
	entries, err := d.ReadDir(-1)
	_ = d.Close()
	if err != nil {
		return err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		name, child := e.Name(), rel+"/"+e.Name()
		switch {
		case e.Type().IsRegular():
			err = fn(child, func() (afero.File, fs.FileInfo, error) { return openIn(r, name) })
		case e.Type().IsDir():
			var sub *os.Root
			if sub, err = r.OpenRoot(name); err == nil {
				err = walkRoot(sub, child, fn)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// openIn opens the regular file name of the folder r.
func openIn(r *os.Root, name string) (afero.File, fs.FileInfo, error) {
	// os.Root opens the last segment with O_NOFOLLOW (where the system
	// has it); the entry was a regular file when listed, and is checked
	// to be one once open.
	f, err := r.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, nil, fmt.Errorf("%s: %w", name, errNotCurexFile)
	}
	return f, info, nil
}
