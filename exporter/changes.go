package exporter

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"github.com/curex/curex/exporter/internal/changes"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
)

// changeLog writes each rendered export's changes.json: its history from
// the previous output, with what changed since the tree it replaces put
// first. The trees' snapshots are kept next to the cache; without a cache
// folder there is nothing to compare with, and histories stay as they were.
type changeLog struct {
	o     changeOptions
	store *changes.Store

	mu        sync.Mutex
	histories map[model.Key]*changes.History // for the website
	// unmatched counts the trees that changed since the previous output
	// while the cache held no snapshot of their previous version.
	unmatched int
}

// changeOptions are the settings of a changeLog.
type changeOptions struct {
	// scopeDir is the cache's folder of the run's API and identity; ""
	// keeps no snapshots.
	scopeDir string
	// date dates the changes instead of the trees' resolved_at, when not
	// zero (Config.SourceDate).
	date time.Time
	log  *slog.Logger
}

func newChangeLog(o changeOptions) (*changeLog, error) {
	l := &changeLog{o: o, histories: map[model.Key]*changes.History{}}
	if o.scopeDir != "" {
		st, err := changes.OpenStore(layout.ScopeDir(o.scopeDir).Snapshots())
		if err != nil {
			return nil, err
		}
		l.store = st
	}
	return l, nil
}

// record writes t's changes.json (t as published) and keeps its history;
// prev is the previous manifest's entry of its export, if hasPrev.
func (l *changeLog) record(w *output.Writer, t *model.Tree, entry *output.ManifestExport, prev output.ManifestExport, hasPrev bool) error {
	h := l.previous(w, t.Export)
	h.CurriculumID, h.CurriculumName, h.Variant, h.Locale = t.CurriculumID, t.CurriculumName, t.Variant, t.Locale
	h.VariantChain = t.VariantChain
	cur := changes.Of(t)
	if l.store != nil {
		if p := prev; hasPrev && p.ETag != "" && p.ETag != t.ETag {
			if old, ok := l.store.Get(t.Export, p.ETag); ok {
				e := changes.Diff(old, cur)
				e.Date = t.ResolvedAt.UTC()
				if !l.o.date.IsZero() {
					e.Date = l.o.date
				}
				h.Add(e)
			} else {
				l.o.log.Debug("changes: no snapshot of the previous tree to compare with", "export", t.Dir())
				l.mu.Lock()
				l.unmatched++
				l.mu.Unlock()
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
	entry.Changes = layout.Changes(t.Export)
	if err := w.Write(entry.Changes, data); err != nil {
		return err
	}
	l.mu.Lock()
	l.histories[t.Key()] = h
	l.mu.Unlock()
	return nil
}

// report logs, once per run, how many changed trees had no snapshot of
// their previous version to compare with (a new or cleared cache folder,
// or one another output used): their histories go on without this
// change. Each tree is named at debug level.
func (l *changeLog) report() {
	l.mu.Lock()
	n := l.unmatched
	l.mu.Unlock()
	if n > 0 {
		l.o.log.Info("changes: the cache held no snapshot of the previous version of some changed trees (a new or cleared cache folder?); their change histories do not record this change",
			"trees", n)
	}
}

// previous reads the export's changes.json from the previous output (never
// through a link); a missing or unreadable one starts a new history.
func (l *changeLog) previous(w *output.Writer, e model.Export) *changes.History {
	data, err := w.ReadPrevious(layout.Changes(e))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.o.log.Warn("changes: previous history unreadable, starting a new one", "export", e.Dir(), "err", err)
		}
		return &changes.History{}
	}
	h, err := changes.Decode(data)
	if err != nil {
		l.o.log.Warn("changes: previous history unreadable, starting a new one", "export", e.Dir(), "err", err)
		return &changes.History{}
	}
	return h
}

// history returns the history recorded for the export with key k.
func (l *changeLog) history(k model.Key) *changes.History {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.histories[k]
}

// prune keeps the snapshots of the exports of m only.
func (l *changeLog) prune(m *output.Manifest) error {
	if l.store == nil {
		return nil
	}
	keep := map[model.Key]string{}
	for _, e := range m.Exports {
		if e.ETag != "" {
			keep[entryKey(e)] = e.ETag
		}
	}
	if err := l.store.Prune(keep); err != nil {
		return fmt.Errorf("changes: %w", err)
	}
	return nil
}
