package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"
)

// Whose folder is it? curex replaces the whole output folder at each run,
// so it must be sure the folder is its own output, or holds nothing of the
// user's. The user's hidden entries at its top (.git, .github,
// .well-known, .nojekyll) are kept across runs: moved, never copied.

// ErrNotOutput is returned for an output folder curex will not replace:
// it holds files of the user's, or a manifest.json that is not curex's.
var ErrNotOutput = errors.New("not a curex output folder")

// publishingEntries are the hidden entries a folder may hold, without a
// manifest, and still be taken as a new output: those of a fresh
// checkout or worktree meant for publishing (GitHub Pages and the like).
// Any other hidden entry (.ssh, .bashrc) makes it look like a home or
// configuration folder, refused.
var publishingEntries = []string{".git", ".gitattributes", ".github", ".gitignore", ".gitkeep", ".nojekyll", ".well-known"}

// lostFound is the folder some file systems keep at their top. At the top
// of an output folder that is a mount point it is the file system's, not
// the user's nor curex's: never counted, never moved.
const lostFound = "lost+found"

// curexEntry reports whether the top-level name is curex's own working
// entry inside an output folder (a staging folder inside it; see inside.go).
func curexEntry(name string) bool { return strings.HasPrefix(name, ".curex-") }

// checkReplaceable refuses to replace a folder that is not curex's: a
// file; a folder with visible entries and no manifest; a folder holding
// only hidden entries, some not a publishing checkout's (a home folder);
// a folder whose manifest.json is not curex's (a web app's); one whose
// visible entries are not all listed in curex's manifest. A missing or
// empty folder is fine. It returns the parsed manifest, if any.
func checkReplaceable(fsys afero.Fs, p *previous, root string) (*Manifest, error) {
	info, err := fsys.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("output %s: %w: it is a file", root, ErrNotOutput)
	}
	entries, err := afero.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", root, err)
	}
	var visible, hidden []string
	var manifest fs.FileInfo
	mount := isOS(fsys) && !sameDevice(filepath.Dir(root), root)
	for _, e := range entries {
		switch n := e.Name(); {
		case n == ManifestName:
			manifest = e
		case curexEntry(n), mount && n == lostFound:
		case strings.HasPrefix(n, "."):
			hidden = append(hidden, n)
		default:
			visible = append(visible, n)
		}
	}
	if manifest == nil {
		if len(visible) > 0 {
			return nil, fmt.Errorf("output %s holds %s but no %s: %w; choose an empty or new folder", root, some(visible), ManifestName, ErrNotOutput)
		}
		var foreign []string
		for _, h := range hidden {
			if !slices.Contains(publishingEntries, h) {
				foreign = append(foreign, h)
			}
		}
		if len(foreign) > 0 {
			return nil, fmt.Errorf("output %s holds only hidden entries (%s) and no %s, like a home or configuration folder: %w; choose an empty or new folder", root, some(foreign), ManifestName, ErrNotOutput)
		}
		return nil, nil
	}
	if !manifest.Mode().IsRegular() {
		return nil, fmt.Errorf("output %s: its %s is not a regular file (%s): %w; choose an empty or new folder", root, ManifestName, manifest.Mode().Type(), ErrNotOutput)
	}
	data, err := p.readFile(ManifestName)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", root, err)
	}
	m, err := ParseOwnManifest(data)
	if err != nil {
		return nil, fmt.Errorf("output %s holds a %s that is not curex's (%v): %w; choose an empty or new folder", root, ManifestName, err, ErrNotOutput)
	}
	listed := map[string]bool{}
	for _, f := range m.Files {
		top, _, _ := strings.Cut(f.Path, "/")
		listed[top] = true
	}
	var extra []string
	for _, v := range visible {
		if !listed[v] {
			extra = append(extra, v)
		}
	}
	if len(extra) > 0 {
		return nil, fmt.Errorf("output %s is curex's output but also holds %s, not listed in its %s: %w; curex replaces the whole folder, so move them out of it or choose another folder", root, some(extra), ManifestName, ErrNotOutput)
	}
	return m, nil
}

// some names the first two of names (sorted), and how many more there are.
func some(names []string) string {
	names = slices.Sorted(slices.Values(names))
	if len(names) <= 2 {
		return strings.Join(names, " and ")
	}
	return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
}

// ParseOwnManifest decodes data as curex's manifest.json and checks that
// it is one: a JSON object with the members generator (curex, with its
// version), exports and files, every file entry a safe relative path with
// its size and a 64-digit SHA-256. A web app's manifest.json, or anything
// else, is an error saying what differs.
func ParseOwnManifest(data []byte) (*Manifest, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var gen string
	if g, ok := raw["generator"]; !ok {
		return nil, errors.New("no generator")
	} else if err := json.Unmarshal(g, &gen); err != nil {
		return nil, errors.New("its generator is not a string")
	}
	if gen != "curex" && !strings.HasPrefix(gen, "curex ") {
		return nil, fmt.Errorf("generator %q", truncate(gen, 40))
	}
	for _, k := range []string{"exports", "files"} {
		v, ok := raw[k]
		if !ok {
			return nil, fmt.Errorf("no %s", k)
		}
		if !bytes.HasPrefix(v, []byte("[")) && !bytes.Equal(v, []byte("null")) {
			return nil, fmt.Errorf("its %s is not a list", k)
		}
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("not curex's format: %w", err)
	}
	for _, f := range m.Files {
		if _, ok := sumOf(f); !ok || f.Size < 0 || CheckPath(f.Path) != nil || f.Path == ManifestName {
			return nil, fmt.Errorf("file entry %q is not curex's", truncate(f.Path, 60))
		}
	}
	return &m, nil
}

// truncate shortens s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// moveHidden moves the hidden entries at the top of the current output
// (.git, .github, .nojekyll, links: the user's, never curex's) into the
// staging folder, just before the swap, so that they are in the new
// output. Each is one rename: a folder or a link is moved as it is, never
// followed nor copied.
//
// Crash model: a run killed while they move, or after and before the
// swap, leaves some in the staging folder and the rest in the output
// folder, which is the previous output. The next Begin moves every hidden
// entry of a stale staging folder back into the output folder
// (recoverHidden) before it removes that folder; so does Abort, and
// Commit when the swap fails. Once the swap is done, they are in the new
// output and the staging path holds the previous output without them.
// curex itself never writes a hidden entry at the top of the output, so
// every hidden entry at the top of a staging folder is the user's.
func (w *Writer) moveHidden() error {
	entries, err := afero.ReadDir(w.fs, w.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, ".") || curexEntry(n) {
			continue
		}
		if err := w.fs.Rename(filepath.Join(w.root, n), filepath.Join(w.staging, n)); err != nil {
			return fmt.Errorf("commit: keep %s: %w", n, err)
		}
	}
	return nil
}

// recoverHidden moves the hidden entries at the top of the staging folder
// staging back into the output folder root (see moveHidden). An entry of
// the same name made in root since is kept; the one moved back is
// renamed beside it (name.curex-recovered).
func recoverHidden(fsys afero.Fs, staging, root string) error {
	entries, err := afero.ReadDir(fsys, staging)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", root, err)
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, ".") || curexEntry(n) {
			continue
		}
		if err := fsys.MkdirAll(root, 0o755); err != nil {
			return fmt.Errorf("output %s: put back %s: %w", root, n, err)
		}
		dst := filepath.Join(root, n)
		if _, err := lstat(fsys, dst); err == nil {
			dst += ".curex-recovered"
		}
		if err := fsys.Rename(filepath.Join(staging, n), dst); err != nil {
			return fmt.Errorf("output %s: put back %s from %s: %w", root, n, staging, err)
		}
	}
	return nil
}

// lstat stats name without following a link where the file system can.
func lstat(fsys afero.Fs, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		info, _, err := l.LstatIfPossible(name)
		return info, err
	}
	return fsys.Stat(name)
}
