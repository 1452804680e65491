package localfile

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ReadFile reads the file r names as a file of kind k: it opens it
// without following a symlink (see Resolve for the rules of the path),
// refuses anything but a regular file and a file over k's cap, and
// checks the bytes are what the file's extension says (Kind.Check). The
// error names r.Path as given.
func ReadFile(ctx context.Context, r Ref, k Kind) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, name, err := r.split()
	if err != nil {
		return nil, err
	}
	rt, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, unwrapPath(err))
	}
	defer rt.Close()
	return readIn(ctx, rt, name, r.Path, k)
}

// readIn reads name below rt as ReadFile does; shown is the path for
// errors.
func readIn(ctx context.Context, rt *os.Root, name, shown string, k Kind) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := lstatWalk(rt, name, shown)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", shown, ErrNotRegular)
	}
	if st.Size() > k.Max() {
		return nil, tooLarge(shown, st.Size(), k)
	}
	f, err := rt.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, unwrapPath(err))
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, unwrapPath(err))
	}
	if !os.SameFile(st, opened) {
		return nil, fmt.Errorf("%s: changed between its check and its opening: %w", shown, ErrSymlink)
	}
	data, err := io.ReadAll(io.LimitReader(f, k.Max()+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, unwrapPath(err))
	}
	if int64(len(data)) > k.Max() {
		return nil, tooLarge(shown, int64(len(data)), k)
	}
	if err := k.Check(name, data); err != nil {
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	return data, nil
}

func tooLarge(shown string, n int64, k Kind) error {
	return fmt.Errorf("%s: %d bytes: %w: %s may have at most %d bytes", shown, n, ErrTooLarge, k, k.Max())
}

// MaxThemeFiles bounds the number of files in a theme folder.
const MaxThemeFiles = 2000

// Dir is a theme folder opened through the gate: no file in it is read
// through a symlink, and none outside it is read at all. Close it when
// done.
type Dir struct {
	rt    *os.Root
	shown string
}

// OpenDir opens the folder r names, under the rules of Resolve; the
// folder itself must not be a symlink.
func OpenDir(ctx context.Context, r Ref) (*Dir, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, name, err := r.split()
	if err != nil {
		return nil, err
	}
	rt, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, unwrapPath(err))
	}
	defer rt.Close()
	st, err := lstatWalk(rt, name, r.Path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a folder", r.Path)
	}
	sub, err := rt.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, unwrapPath(err))
	}
	opened, err := sub.Stat(".")
	if err != nil || !os.SameFile(st, opened) {
		sub.Close()
		return nil, fmt.Errorf("%s: changed between its check and its opening: %w", r.Path, ErrSymlink)
	}
	return &Dir{rt: sub, shown: r.Path}, nil
}

// Close releases the folder.
func (d *Dir) Close() error { return d.rt.Close() }

// ReadFile reads the theme file name (slash-separated, relative to the
// folder) as a ThemeFile: no symlink at any component, a regular file
// under MaxThemeFile, its bytes what its extension says. A missing file
// wraps fs.ErrNotExist.
func (d *Dir) ReadFile(ctx context.Context, name string) ([]byte, error) {
	shown := path.Join(filepath.ToSlash(d.shown), name)
	if !fs.ValidPath(name) || name == "." {
		return nil, fmt.Errorf("%s: %w", shown, ErrEscapes)
	}
	return readIn(ctx, d.rt, filepath.FromSlash(name), shown, ThemeFile)
}

// Files lists the regular files of the folder, slash-separated and
// sorted, leaving out hidden files and folders (a name starting with
// "."). A symlink anywhere, or anything that is neither a file nor a
// folder, is an error, as are more than MaxThemeFiles files.
func (d *Dir) Files(ctx context.Context) ([]string, error) {
	var out []string
	err := fs.WalkDir(d.rt.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		shown := path.Join(filepath.ToSlash(d.shown), p)
		switch {
		case p == ".":
			return nil
		case strings.HasPrefix(e.Name(), "."):
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		case e.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s: %w", shown, ErrSymlink)
		case e.IsDir():
			return nil
		case !e.Type().IsRegular():
			return fmt.Errorf("%s: %w", shown, ErrNotRegular)
		}
		if len(out) == MaxThemeFiles {
			return fmt.Errorf("%s: more than %d files: %w", d.shown, MaxThemeFiles, ErrTooLarge)
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}
