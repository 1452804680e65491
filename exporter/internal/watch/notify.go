package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Notifier is the Source of real changes: it watches the theme folder,
// every folder in it (fsnotify watches one folder at a time, so folders
// created later are added as they appear), and the folder of the
// configuration file (editors save by writing a new file and renaming it
// over the old one, which a watch on the file itself would lose).
type Notifier struct {
	w      *fsnotify.Watcher
	events chan string
	errs   chan error

	mu      sync.Mutex
	watched map[string]bool // folders watched
	theme   string          // the theme folder, cleaned; "" for none
	targets *Targets        // what Watch was last given
}

// Notify starts a Notifier, which watches nothing until Watch (Run
// calls it with its targets) and stops when ctx ends.
func Notify(ctx context.Context) (*Notifier, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	n := &Notifier{w: w, events: make(chan string), errs: make(chan error), watched: map[string]bool{}}
	go n.forward(ctx)
	return n, nil
}

// Events implements Source.
func (n *Notifier) Events() <-chan string { return n.events }

// Errors implements Source.
func (n *Notifier) Errors() <-chan error { return n.errs }

// Watch implements Source: it watches t's folders, and no others. Given
// the targets it watches already, it does nothing (so a caller may start
// watching before Run, which calls Watch, and lose no event between).
func (n *Notifier) Watch(t Targets) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.targets != nil && *n.targets == t {
		return nil
	}
	n.targets = nil
	for dir := range n.watched {
		_ = n.w.Remove(dir) // a removed folder is no longer watched anyway
		delete(n.watched, dir)
	}
	n.theme = ""
	if t.ConfigFile != "" {
		if err := n.add(filepath.Dir(filepath.Clean(t.ConfigFile))); err != nil {
			return fmt.Errorf("watch the configuration file %s: %w", t.ConfigFile, err)
		}
	}
	if t.ThemeDir != "" {
		n.theme = filepath.Clean(t.ThemeDir)
		if err := n.addTree(n.theme); err != nil {
			return fmt.Errorf("watch the theme folder %s: %w", t.ThemeDir, err)
		}
	}
	n.targets = &t
	return nil
}

// add watches dir; n.mu is held.
func (n *Notifier) add(dir string) error {
	if n.watched[dir] {
		return nil
	}
	if err := n.w.Add(dir); err != nil {
		return err
	}
	n.watched[dir] = true
	return nil
}

// addTree watches root and every folder under it but hidden ones; n.mu
// is held.
func (n *Notifier) addTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != root && errors.Is(err, fs.ErrNotExist) {
				return nil // gone while walked
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		return n.add(p)
	})
}

// forward passes fsnotify's events on as paths until ctx ends, watching
// each folder created in the theme folder.
func (n *Notifier) forward(ctx context.Context) {
	defer n.w.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-n.w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				n.created(ev.Name)
			}
			select {
			case n.events <- ev.Name:
			case <-ctx.Done():
				return
			}
		case err, ok := <-n.w.Errors:
			if !ok {
				return
			}
			select {
			case n.errs <- err:
			case <-ctx.Done():
				return
			}
		}
	}
}

// created watches p when it is a new folder in the theme folder.
func (n *Notifier) created(p string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.theme == "" || !strings.HasPrefix(p, n.theme+string(filepath.Separator)) {
		return
	}
	if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
		if err := n.addTree(p); err != nil {
			select {
			case n.errs <- fmt.Errorf("watch %s: %w", p, err):
			default:
			}
		}
	}
}
