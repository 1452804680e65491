package fresh

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/curex/curex/exporter/internal/atomicfile"
	"github.com/curex/curex/exporter/internal/model"
)

// Record is what a run knows of one tree after fetching it.
type Record struct {
	// Curriculum, Variant and Locale name the tree as model.Export does
	// (the base curriculum's id, the variant's name or "", the locale code).
	Curriculum string `json:"curriculum"`
	Variant    string `json:"variant"`
	Locale     string `json:"locale"`
	// Signal sums up the cheap signals when the tree was fetched.
	Signal string `json:"signal"`
	// ETag is the tree's ETag then; the ETag cache holds its body.
	ETag string `json:"etag"`
	// Validated is when the server last confirmed the body (200 or 304).
	Validated time.Time `json:"validated"`
}

// RecordOf returns the record of e's tree with the given signal, ETag and
// time of validation.
func RecordOf(e model.Export, signal, etag string, validated time.Time) Record {
	return Record{Curriculum: e.CurriculumID, Variant: e.Variant, Locale: e.Locale, Signal: signal, ETag: etag, Validated: validated.UTC()}
}

func (r Record) key() string { return key(r.Curriculum, r.Variant, r.Locale) }

func key(curriculum, variant, locale string) string {
	return curriculum + "\x00" + variant + "\x00" + locale
}

// The files of a Store's folder.
const (
	snapshotName = "state.json"
	journalName  = "journal.jsonl"
	stateVersion = 1
)

// snapshot is the state file: what was known at the end of the last run.
type snapshot struct {
	Version int `json:"version"`
	// LastRun is when the last completed run started.
	LastRun time.Time `json:"last_run"`
	Trees   []Record  `json:"trees"`
}

// Store keeps the Record of every tree in a folder next to the ETag cache:
// a snapshot written at the end of each run (state.json, replaced
// atomically) and a journal (journal.jsonl) that each fetched tree is
// appended to at once. Opening replays the journal over the snapshot, so a
// run killed half way keeps what it had fetched; a line cut short by the
// kill is ignored. A damaged snapshot is set aside and the state starts
// empty (every tree is then fetched once, conditionally).
//
// A Store is safe for concurrent use. One run at a time should use a
// folder.
type Store struct {
	dir string

	mu      sync.Mutex
	trees   map[string]Record
	lastRun time.Time
	journal *os.File
	// Problems lists what was wrong with the files when opened.
	problems []string
}

// Open opens the state kept in dir, creating dir (mode 0700) when it does
// not exist.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state folder: %w", err)
	}
	s := &Store{dir: dir, trees: map[string]Record{}}
	if err := s.readSnapshot(); err != nil {
		return nil, err
	}
	if err := s.replay(); err != nil {
		return nil, err
	}
	j, err := os.OpenFile(filepath.Join(dir, journalName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state journal: %w", err)
	}
	s.journal = j
	return s, nil
}

func (s *Store) readSnapshot() error {
	path := filepath.Join(s.dir, snapshotName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	var snap snapshot
	if err := json.Unmarshal(data, &snap); err != nil || snap.Version != stateVersion {
		why := fmt.Sprintf("version %d, want %d", snap.Version, stateVersion)
		if err != nil {
			why = err.Error()
		}
		// Keep the damaged file for a look, and start afresh: the cost is
		// one conditional request per tree.
		_ = os.Rename(path, path+".damaged")
		s.problems = append(s.problems, fmt.Sprintf("%s set aside as %s.damaged (%s)", path, snapshotName, why))
		return nil
	}
	s.lastRun = snap.LastRun
	for _, r := range snap.Trees {
		s.trees[r.key()] = r
	}
	return nil
}

// replay applies the journal's records in order; a line that does not
// decode (cut short by a kill) is skipped.
func (s *Store) replay() error {
	f, err := os.Open(filepath.Join(s.dir, journalName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state journal: %w", err)
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	bad := 0
	for {
		line, err := rd.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var r Record
			if json.Unmarshal(line, &r) != nil || r.Curriculum == "" {
				bad++
			} else {
				s.trees[r.key()] = r
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("state journal: %w", err)
		}
	}
	if bad > 0 {
		s.problems = append(s.problems, fmt.Sprintf("%d unreadable line(s) of %s skipped (a run stopped while writing?)", bad, journalName))
	}
	return nil
}

// Problems says what was wrong with the state files when they were
// opened, for the log; nil when nothing was.
func (s *Store) Problems() []string { return slices.Clone(s.problems) }

// Get returns the record of e's tree.
func (s *Store) Get(e model.Export) (Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.trees[e.Key().String()]
	return r, ok
}

// Len returns the number of trees recorded.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.trees)
}

// LastRun returns when the last completed run started (zero if none).
func (s *Store) LastRun() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastRun
}

// Put records r at once: in memory and as a line of the journal, written
// before Put returns (it survives the process being killed).
func (s *Store) Put(r Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		return errors.New("state: store closed")
	}
	if _, err := s.journal.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("state journal: %w", err)
	}
	s.trees[r.key()] = r
	return nil
}

// Commit ends a run that started at started: the state, with every record
// put so far, is written to a new snapshot (synced, then renamed over the
// old one), and the journal is emptied. Records of trees not in keep are
// dropped; a nil keep drops none (a run that selects some curricula or
// locales must not forget the others).
func (s *Store) Commit(started time.Time, keep func(curriculum, variant, locale string) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		return errors.New("state: store closed")
	}
	snap := snapshot{Version: stateVersion, LastRun: started.UTC(), Trees: make([]Record, 0, len(s.trees))}
	for k, r := range s.trees {
		if keep != nil && !keep(r.Curriculum, r.Variant, r.Locale) {
			delete(s.trees, k)
			continue
		}
		snap.Trees = append(snap.Trees, r)
	}
	slices.SortFunc(snap.Trees, func(a, b Record) int { return strings.Compare(a.key(), b.key()) })
	data, err := json.MarshalIndent(snap, "", " ")
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(s.dir, snapshotName), data); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	// The snapshot holds every journal line now; a kill before the
	// truncation only replays them again, which changes nothing.
	if err := s.journal.Truncate(0); err != nil {
		return fmt.Errorf("state journal: %w", err)
	}
	s.lastRun = snap.LastRun
	return nil
}

// Close closes the journal. Records put since the last Commit stay in it
// for the next Open.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		return nil
	}
	err := s.journal.Close()
	s.journal = nil
	return err
}
