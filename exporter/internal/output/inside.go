package output

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// Staging inside the output folder. When the folder beside the output
// cannot take the staging folder (its parent is not writable, as /srv
// above a mounted /srv/www; or the output is a mount point, which cannot
// be renamed nor exchanged), the staging folder is made inside the output
// folder (.curex-staging-<time>) and Commit swaps entry by entry:
//
//  1. journal: .curex-swap records "aside" with the staging and aside
//     folders' names (written to a temporary name, then renamed);
//  2. aside: manifest.json first, then every visible entry of the output
//     moves into .curex-old-<time>; hidden entries (the user's .git,
//     .well-known) and lost+found never move;
//  3. the journal is rewritten to "in";
//  4. in: every entry of the staging folder moves into the output,
//     manifest.json last;
//  5. the journal, the aside and the staging folders are removed.
//
// Each move is one rename in the same folder tree. Crash model: a run
// killed before step 3 leaves the journal at "aside"; the next Begin
// moves everything of the aside folder back (the previous output, whole)
// and drops the staging folder. A run killed after it leaves "in"; the
// next Begin moves the rest of the staging folder in (the new output,
// complete: it was written in full before step 1) and drops the aside
// folder. Between those steps a reader may see a mix or an output without
// a manifest; that is the price of a folder that cannot be renamed, and
// what the journal repairs. Without a journal, leftover .curex-* folders
// inside the output are stale and removed.

const (
	journalName = ".curex-swap"
	phaseAside  = "aside"
	phaseIn     = "in"
)

// swapInside is Commit's swap when the staging folder is inside the
// output folder; it returns the folders left to remove.
func (w *Writer) swapInside() (string, error) {
	old := filepath.Join(w.root, oldPrefix+strings.TrimPrefix(filepath.Base(w.staging), stagingPrefix))
	if err := w.fs.Mkdir(old, 0o755); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if err := writeJournal(w.fs, w.root, phaseAside, w.staging, old); err != nil {
		return "", err
	}
	w.step("journal")
	entries, err := afero.ReadDir(w.fs, w.root)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if err := moveEntry(w.fs, w.root, old, ManifestName); err != nil {
		return "", err
	}
	for _, e := range entries {
		if n := e.Name(); n != ManifestName && n != lostFound && !strings.HasPrefix(n, ".") {
			if err := moveEntry(w.fs, w.root, old, n); err != nil {
				return "", err
			}
		}
	}
	w.step("aside")
	if err := writeJournal(w.fs, w.root, phaseIn, w.staging, old); err != nil {
		return "", err
	}
	if err := moveAllIn(w.fs, w.staging, w.root, func() { w.step("in") }); err != nil {
		return "", err
	}
	if err := w.fs.Remove(filepath.Join(w.root, journalName)); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if err := w.fs.RemoveAll(w.staging); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return old, nil
}

// moveEntry moves the entry name of folder from into folder to; a
// missing one is fine (a previous attempt moved it).
func moveEntry(fsys afero.Fs, from, to, name string) error {
	err := fsys.Rename(filepath.Join(from, name), filepath.Join(to, name))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("commit: move %s: %w", name, err)
	}
	return nil
}

// moveAllIn moves every entry of the staging folder into root,
// manifest.json last; between the first and the second it calls mid.
func moveAllIn(fsys afero.Fs, staging, root string, mid func()) error {
	entries, err := afero.ReadDir(fsys, staging)
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	n := 0
	for _, e := range entries {
		if e.Name() == ManifestName {
			continue
		}
		if err := moveEntry(fsys, staging, root, e.Name()); err != nil {
			return err
		}
		if n++; n == 1 {
			mid()
		}
	}
	return moveEntry(fsys, staging, root, ManifestName)
}

// writeJournal records the phase of an inside swap in root's journal.
func writeJournal(fsys afero.Fs, root, phase, staging, old string) error {
	tmp := filepath.Join(root, journalName+".tmp")
	body := phase + "\n" + filepath.Base(staging) + "\n" + filepath.Base(old) + "\n"
	if err := afero.WriteFile(fsys, tmp, []byte(body), 0o644); err != nil {
		return fmt.Errorf("commit: journal: %w", err)
	}
	if err := fsys.Rename(tmp, filepath.Join(root, journalName)); err != nil {
		return fmt.Errorf("commit: journal: %w", err)
	}
	return nil
}

// recoverInside finishes or undoes an inside swap a killed run left (see
// the crash model above), then removes curex's stale working folders
// inside root.
func recoverInside(fsys afero.Fs, root string) error {
	data, err := afero.ReadFile(fsys, filepath.Join(root, journalName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("output %s: read %s: %w", root, journalName, err)
	default:
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[1], stagingPrefix) || !strings.HasPrefix(lines[2], oldPrefix) ||
			strings.ContainsAny(lines[1]+lines[2], `/\`) {
			return fmt.Errorf("output %s: %s is damaged (%q); see docs/reliability.md", root, journalName, data)
		}
		staging, old := filepath.Join(root, lines[1]), filepath.Join(root, lines[2])
		switch lines[0] {
		case phaseAside: // put the previous output back
			entries, err := afero.ReadDir(fsys, old)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("output %s: %w", root, err)
			}
			for _, e := range entries {
				if err := moveEntry(fsys, old, root, e.Name()); err != nil {
					return err
				}
			}
		case phaseIn: // finish moving the new output in
			if err := moveAllIn(fsys, staging, root, func() {}); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		default:
			return fmt.Errorf("output %s: %s is damaged (%q)", root, journalName, data)
		}
		if err := fsys.Remove(filepath.Join(root, journalName)); err != nil {
			return fmt.Errorf("output %s: %w", root, err)
		}
	}
	entries, err := afero.ReadDir(fsys, root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", root, err)
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, stagingPrefix) || strings.HasPrefix(n, oldPrefix) || n == journalName+".tmp" {
			if err := fsys.RemoveAll(filepath.Join(root, n)); err != nil {
				return fmt.Errorf("output %s: remove stale %s: %w", root, n, err)
			}
		}
	}
	return nil
}
