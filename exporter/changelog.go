package exporter

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"github.com/curex/curex/exporter/changes"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
)

// changeLog writes each rendered export's changes.json: its history from
// the previous output, with what changed since the tree it replaces put
// first. The trees' snapshots are kept next to the cache; without a cache
// folder there is nothing to compare with, and histories stay as they were.
type changeLog struct {
	c     *Config
	store *changes.Store
	prev  map[string]output.ManifestExport // by export key
	date  time.Time                        // SOURCE_DATE_EPOCH, or zero

	mu        sync.Mutex
	histories map[string]*changes.History // by export key, for the website
}

func newChangeLog(c *Config, prev *output.Manifest, date time.Time) (*changeLog, error) {
	l := &changeLog{c: c, prev: map[string]output.ManifestExport{}, date: date, histories: map[string]*changes.History{}}
	if prev != nil {
		for _, e := range prev.Exports {
			l.prev[e.CurriculumID+"\x00"+e.Variant+"\x00"+e.Locale] = e
		}
	}
	if c.scopeDir != "" {
		st, err := changes.OpenStore(filepath.Join(c.scopeDir, "state", "snapshots"))
		if err != nil {
			return nil, err
		}
		l.store = st
	}
	return l, nil
}

// changesPath is an export's changes.json, relative to the output root.
func changesPath(e model.Export) string { return "bundles/" + e.Dir() + "/changes.json" }

// record writes t's changes.json (t as published) and keeps its history.
func (l *changeLog) record(w *output.Writer, t *model.Tree, entry *output.ManifestExport) error {
	h := l.previous(w, t.Export)
	h.CurriculumID, h.CurriculumName, h.Variant, h.Locale = t.CurriculumID, t.CurriculumName, t.Variant, t.Locale
	h.VariantChain = t.VariantChain
	cur := changes.Of(t)
	if l.store != nil {
		if p, ok := l.prev[t.Key()]; ok && p.ETag != "" && p.ETag != t.ETag {
			if old, ok := l.store.Get(t.Export, p.ETag); ok {
				e := changes.Diff(old, cur)
				e.Date = t.ResolvedAt.UTC()
				if !l.date.IsZero() {
					e.Date = l.date
				}
				h.Add(e)
			} else {
				l.c.Log.Info("changes: no snapshot of the previous tree to compare with", "export", t.Dir())
			}
		}
		if err := l.store.Put(t.Export, cur); err != nil {
			return err
		}
	}
	data, err := h.Encode()
	if err != nil {
		return err
	}
	entry.Changes = changesPath(t.Export)
	if err := w.Write(entry.Changes, data); err != nil {
		return err
	}
	l.mu.Lock()
	l.histories[t.Key()] = h
	l.mu.Unlock()
	return nil
}

// previous reads the export's changes.json from the previous output (never
// through a link); a missing or unreadable one starts a new history.
func (l *changeLog) previous(w *output.Writer, e model.Export) *changes.History {
	data, err := w.ReadPrevious(changesPath(e))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.c.Log.Warn("changes: previous history unreadable, starting a new one", "export", e.Dir(), "err", err)
		}
		return &changes.History{}
	}
	h, err := changes.Decode(data)
	if err != nil {
		l.c.Log.Warn("changes: previous history unreadable, starting a new one", "export", e.Dir(), "err", err)
		return &changes.History{}
	}
	return h
}

// history returns the history recorded for the export with key k.
func (l *changeLog) history(k string) *changes.History {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.histories[k]
}

// prune keeps the snapshots of the exports of m only.
func (l *changeLog) prune(m *output.Manifest) error {
	if l.store == nil {
		return nil
	}
	keep := map[string]string{}
	for _, e := range m.Exports {
		if e.ETag != "" {
			keep[e.CurriculumID+"\x00"+e.Variant+"\x00"+e.Locale] = e.ETag
		}
	}
	if err := l.store.Prune(keep); err != nil {
		return fmt.Errorf("changes: %w", err)
	}
	return nil
}
