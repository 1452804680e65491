package exporter

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
)

// bodies keeps the raw /resolved bodies of a run's trees for a later
// phase (the website's second phase, carried-over curricula): a body the
// ETag cache holds (a 304, a tree served from the cache, a 200 with an
// ETag) is read back from the cache, so an unchanged night writes no copy
// of it; any other is spooled to a temporary folder.
type bodies struct {
	client *api.Client
	// includeUnpublished keeps drafts in the trees load returns.
	includeUnpublished bool
	// hide are the attribute keys removed from the trees load returns
	// (Config.HideAttributes; see visible).
	hide []string

	mu    sync.Mutex
	spool string
	n     int
}

// bodyRef names a kept body.
type bodyRef struct {
	export model.Export
	etag   string
	file   string // the spooled copy, or "" when the cache holds it
}

func (b *bodies) put(r fetch.Result) (bodyRef, error) {
	ref := bodyRef{export: r.Export}
	if r.Tree != nil {
		ref.etag = r.Tree.ETag
	}
	if ref.etag != "" && (r.NotModified || r.FromCache || b.client.Caches()) {
		return ref, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spool == "" {
		dir, err := os.MkdirTemp("", "curex-spool-")
		if err != nil {
			return ref, fmt.Errorf("spool: %w", err)
		}
		b.spool = dir
	}
	ref.file = filepath.Join(b.spool, strconv.Itoa(b.n)+".json")
	b.n++
	if err := os.WriteFile(ref.file, r.Body, 0o600); err != nil {
		return ref, fmt.Errorf("spool %s: %w", r.Export.Dir(), err)
	}
	return ref, nil
}

// load returns the kept tree of ref, decoded and normalized, as the
// formats see it (see visible), and its raw body.
func (b *bodies) load(ref bodyRef) (*model.Tree, []byte, error) {
	if ref.file == "" {
		// From the cache, through the client: a build of curex dev reads
		// the curriculum its session decoded before (api.DecodedMemo).
		rc, resp, err := b.client.CachedResolved(ref.export.CurriculumID, resolveOptions(ref.export))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", ref.export.Dir(), err)
		}
		if resp.ETag != ref.etag {
			return nil, nil, fmt.Errorf("%s: the cached answer changed during the run (ETag %s, was %s)", ref.export.Dir(), resp.ETag, ref.etag)
		}
		return visible(fetch.Normalize(ref.export, rc, ref.etag), b.includeUnpublished, b.hide), resp.Body, nil
	}
	body, err := os.ReadFile(ref.file)
	if err != nil {
		return nil, nil, err
	}
	rc, err := api.DecodeResolved(body)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", ref.export.Dir(), err)
	}
	return visible(fetch.Normalize(ref.export, rc, ref.etag), b.includeUnpublished, b.hide), body, nil
}

func (b *bodies) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spool != "" {
		_ = os.RemoveAll(b.spool)
		b.spool = ""
	}
}

// visible is a tree as the run shows it: published nodes only, unless
// the run includes the others, and without the attributes the publisher
// hides (hide). It is the one gate of what a tree shows: every tree goes
// through it once, as it arrives (from the fetcher, or read back from the
// cache or spool), before the images, the formats, the website and the
// change log see it, so a hidden attribute is neither shown, nor fetched
// from, nor counted as a change.
func visible(t *model.Tree, includeUnpublished bool, hide []string) *model.Tree {
	if !includeUnpublished {
		t = t.PublishedOnly()
	}
	return t.WithoutAttributes(hide)
}
