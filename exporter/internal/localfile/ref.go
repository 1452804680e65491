package localfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sentinel errors of the gate; every error of this package that refuses a
// file wraps one of them, or an fs error (fs.ErrNotExist).
var (
	// ErrSymlink: a component of the path is a symlink.
	ErrSymlink = errors.New("is a symlink; curex never follows one for a file a setting names")
	// ErrNotRegular: the path is not a regular file (or, for a theme, not
	// a folder).
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is bigger than its kind's cap.
	ErrTooLarge = errors.New("too large")
	// ErrEscapes: a path a file names leaves that file's folder.
	ErrEscapes = errors.New("leaves the folder of the file that names it")
	// ErrContent: the bytes are not what the file's name says they are.
	ErrContent = errors.New("not what its name says")
)

// Ref is a path a setting names, with where it came from.
type Ref struct {
	// Path is the path as given.
	Path string
	// Base is the folder Path is relative to: the folder of the
	// configuration file that names it, or "" for the working folder.
	Base string
	// Operator tells that the operator named the path on the command line
	// or in the environment: it may then be absolute or go up with "..",
	// and only its last component is checked for a symlink. A path a file
	// names (Operator false) is confined to Base, and no component below
	// Base may be a symlink.
	Operator bool
}

// OperatorRef returns the Ref of a path the operator named (a flag, a
// variable, or a library caller's own option), relative to the working
// folder.
func OperatorRef(path string) Ref { return Ref{Path: path, Operator: true} }

// FileRef returns the Ref of a path the configuration file at config
// names: relative to, and confined to, the file's folder.
func FileRef(path, config string) Ref {
	return Ref{Path: path, Base: filepath.Dir(config)}
}

// split returns the folder to open as a root and the name below it.
// For a path a file names the root is Base and the name must be local
// (filepath.IsLocal); for the operator's, the root is the path's own
// folder and the name its last component.
func (r Ref) split() (root, name string, err error) {
	if r.Path == "" {
		return "", "", errors.New("empty path")
	}
	if r.Operator {
		p := r.Path
		if r.Base != "" && !filepath.IsAbs(p) {
			p = filepath.Join(r.Base, p)
		}
		p = filepath.Clean(p)
		return filepath.Dir(p), filepath.Base(p), nil
	}
	if filepath.IsAbs(r.Path) || !filepath.IsLocal(r.Path) || strings.HasPrefix(r.Path, "/") || strings.HasPrefix(r.Path, `\`) {
		return "", "", fmt.Errorf("%s: %w (%s): an absolute path or one with \"..\" is allowed only on the command line or in the environment", r.Path, ErrEscapes, dirName(r.Base))
	}
	base := r.Base
	if base == "" {
		base = "."
	}
	return base, filepath.Clean(r.Path), nil
}

func dirName(d string) string {
	if d == "" || d == "." {
		return "the working folder"
	}
	return d
}

// Resolve checks r as the gate would open it and returns the path to use
// in its place (the path joined to its base): for a path a file names, it
// must stay in the file's folder and no component below that folder may
// be a symlink; for any path, the last component must not be a symlink.
// It does not check what the file holds (ReadFile and OpenDir do).
func Resolve(ctx context.Context, r Ref) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	root, name, err := r.split()
	if err != nil {
		return "", err
	}
	rt, err := os.OpenRoot(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", r.Path, unwrapPath(err))
	}
	defer rt.Close()
	if _, err := lstatWalk(rt, name, r.Path); err != nil {
		return "", err
	}
	if root == "." {
		return name, nil
	}
	return filepath.Join(root, name), nil
}

// lstatWalk Lstats every component of name below rt and refuses a
// symlink; it returns the last component's information. shown is the
// path as the user gave it, for errors.
func lstatWalk(rt *os.Root, name, shown string) (fs.FileInfo, error) {
	parts := strings.Split(filepath.ToSlash(name), "/")
	var info fs.FileInfo
	for i := range parts {
		p := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		st, err := rt.Lstat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", shown, unwrapPath(err))
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			if i == len(parts)-1 {
				return nil, fmt.Errorf("%s: %w", shown, ErrSymlink)
			}
			return nil, fmt.Errorf("%s: %s %w", shown, filepath.ToSlash(p), ErrSymlink)
		}
		info = st
	}
	return info, nil
}

// unwrapPath drops an *fs.PathError's operation and path (the caller
// names the path as the user gave it): "no such file or directory".
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
