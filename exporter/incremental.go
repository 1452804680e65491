package exporter

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/programid"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
)

// Incremental exports. A tree whose ETag did not change (the server
// answered 304) need not be rendered again when nothing else that shaped
// its files changed either: the program, the options and theme, and the
// other trees of its curriculum (pages link to the same node in the other
// locales and variants). The render key sums up all but the trees; it is
// kept in manifest.json. When the key matches the previous run's and every
// tree of a curriculum came back 304 with the ETag the previous manifest
// lists, the curriculum's files are carried over from the previous output
// instead of rendered (no PDF is printed again). Files are then unchanged
// byte for byte, and the output layer keeps them as they are.

// reuse decides which trees are carried over. The trees it holds back
// are kept in the run's records until every tree of their curriculum is
// in.
type reuse struct {
	// keys holds the render key by base curriculum id, or err why there
	// is none, once done is closed (the program is summed).
	done   chan struct{}
	keys   map[string]string
	err    error
	bodies *bodies
}

// pendingTree is a tree held back: 304, same ETag, same key.
type pendingTree struct {
	result fetch.Result // without Tree and Body, which are kept in bodies
	body   bodyRef
}

// newReuse sums what shapes the files of each curriculum of plan (see
// globalKey). The settings and files a setting names are read now, so
// that their errors stop the run before a request; the program is
// named on a goroutine of its own while the first trees are fetched and
// read (programid.Self: its build ID, or where it has none the SHA-256
// of tens of megabytes).
func newReuse(ctx context.Context, o renderKeyOptions, plan *fetch.Plan, b *bodies) (*reuse, error) {
	global, err := globalKey(ctx, o)
	if err != nil {
		return nil, err
	}
	plans := map[string][]byte{}
	for _, cp := range plan.Curricula {
		data, err := json.Marshal(cp)
		if err != nil {
			return nil, fmt.Errorf("render key: %w", err)
		}
		plans[cp.Curriculum.ID] = data
	}
	u := &reuse{done: make(chan struct{}), bodies: b}
	go func() {
		defer close(u.done)
		program, err := programid.Self()
		if err != nil {
			u.err = fmt.Errorf("render key: %w", err)
			return
		}
		u.keys = map[string]string{}
		for id, data := range plans {
			h := sha256.New()
			h.Write(global)
			h.Write(program)
			h.Write(data)
			u.keys[id] = hex.EncodeToString(h.Sum(nil))
		}
	}()
	return u, nil
}

// key returns the render key of the curriculum whose base id is id.
func (u *reuse) key(id string) (string, error) {
	<-u.done
	return u.keys[id], u.err
}

// reusable reports whether prev, the previous manifest's entry of an
// export, was written with the render key of this run.
func (u *reuse) reusable(prev output.ManifestExport) (bool, error) {
	if prev.State != output.StateOK || prev.RenderKey == "" {
		return false, nil
	}
	key, err := u.key(prev.CurriculumID)
	return err == nil && prev.RenderKey == key, err
}

// hold keeps r back when its tree may be carried over (prev, the previous
// manifest's entry of its export, has the same ETag and render key), and
// returns it; nil when r is to be written.
func (u *reuse) hold(r fetch.Result, prev output.ManifestExport, hasPrev bool) (*pendingTree, error) {
	if !hasPrev || !r.NotModified || r.Tree == nil || prev.ETag != r.Tree.ETag || prev.ETag == "" {
		return nil, nil
	}
	if ok, err := u.reusable(prev); !ok {
		return nil, err
	}
	ref, err := u.bodies.put(r)
	if err != nil {
		return nil, fmt.Errorf("hold %s: %w", r.Export.Dir(), err)
	}
	etag := r.Tree.ETag
	r.Tree, r.Body = &model.Tree{ETag: etag}, nil
	return &pendingTree{result: r, body: ref}, nil
}

// unchanged reports, for each curriculum of the plan, whether every one of
// its exports is held back (and so all can be carried over).
func unchanged(plan *fetch.Plan, held func(model.Export) bool) map[string]bool {
	out := map[string]bool{}
	for _, cp := range plan.Curricula {
		all := len(cp.Exports) > 0
		for _, e := range cp.Exports {
			if !held(e) {
				all = false
				break
			}
		}
		out[cp.Curriculum.ID] = all
	}
	return out
}

// checkIntact renders again every curriculum of same whose previous files
// are not exactly as the previous manifest lists them (edited, removed,
// replaced by a link): it sets same to false for it.
func checkIntact(w *output.Writer, exports []model.Export, held func(model.Export) bool, same map[string]bool) error {
	for _, e := range exports {
		if !held(e) || !same[e.CurriculumID] {
			continue
		}
		for _, dir := range layout.Trees(e) {
			ok, err := w.Intact(dir)
			if err != nil {
				return err
			}
			if !ok {
				same[e.CurriculumID] = false
				break
			}
		}
	}
	return nil
}

// load rebuilds the full result of a held-back tree, its tree as the
// formats see it (see visible).
func (u *reuse) load(p pendingTree) (fetch.Result, error) {
	r := p.result
	t, body, err := u.bodies.load(p.body)
	if err != nil {
		return r, err
	}
	r.Tree, r.Body = t, body
	return r, nil
}

// renderKeyOptions are the settings that shape every export besides the
// trees: a change in any renders every export again.
type renderKeyOptions struct {
	generator, siteURL, paper, themeDir string
	sourceDate                          time.Time
	formats                             []string
	includeUnpublished, markdownHugo    bool
	// assets and allowPrivateAssets decide where pages load images from,
	// and which images are kept.
	assets             string
	allowPrivateAssets bool
	// site is the publisher's identity: its files are summed too.
	site render.Identity
	// hide are the attribute keys no format shows.
	hide []string
	// order and labels are the publisher's order and labels of
	// attributes.
	order  []string
	labels map[string]map[string]string
}

// renderKeyOptions are c's settings that shape every export.
func (c *Config) renderKeyOptions() renderKeyOptions {
	return renderKeyOptions{generator: c.Generator, siteURL: c.SiteURL, paper: c.Paper, themeDir: c.ThemeDir,
		sourceDate: c.SourceDate, formats: c.Formats, includeUnpublished: c.Filter.IncludeUnpublished, markdownHugo: c.MarkdownHugo,
		assets: c.Assets, allowPrivateAssets: c.AllowPrivateAssets || len(c.AssetHosts) > 0, site: c.Site,
		hide: c.HideAttributes, order: c.AttributeOrder, labels: c.AttributeLabels}
}

// globalKey sums up what shapes every export besides the trees and their
// curriculum but the program (programid.Self): options, site files, theme.
func globalKey(ctx context.Context, o renderKeyOptions) ([]byte, error) {
	h := sha256.New()
	formats := slices.Clone(o.formats)
	slices.Sort(formats)
	hide := slices.Clone(o.hide)
	slices.Sort(hide)
	date := ""
	if !o.sourceDate.IsZero() {
		date = strconv.FormatInt(o.sourceDate.Unix(), 10) // as SOURCE_DATE_EPOCH spells it
	}
	opts := struct {
		Generator, SiteURL, Paper, SourceDate string
		Formats                               []string
		IncludeUnpublished, MarkdownHugo      bool
		Assets                                string
		AllowPrivateAssets                    bool
		Site                                  render.Identity
		HideAttributes                        []string                     `json:",omitempty"`
		AttributeOrder                        []string                     `json:",omitempty"`
		AttributeLabels                       map[string]map[string]string `json:",omitempty"`
	}{o.generator, o.siteURL, o.paper, date, formats, o.includeUnpublished, o.markdownHugo, o.assets, o.allowPrivateAssets, o.site, hide,
		o.order, o.labels}
	if err := json.NewEncoder(h).Encode(opts); err != nil {
		return nil, fmt.Errorf("render key: %w", err)
	}
	for _, f := range o.site.Files() {
		fmt.Fprintf(h, "%s\n", filepath.ToSlash(f))
		data, err := localfile.ReadFile(ctx, localfile.OperatorRef(f), localfile.Image)
		if err != nil {
			return nil, &ConfigError{setting.Errorf(siteFileSetting(o.site, f), "%w", err)}
		}
		h.Write(data)
	}
	for _, f := range o.site.Styles {
		fmt.Fprintf(h, "%s\n", filepath.ToSlash(f))
		data, err := localfile.ReadFile(ctx, localfile.OperatorRef(f), localfile.ThemeFile)
		if err != nil {
			return nil, &ConfigError{setting.Errorf(setting.SiteStyles, "%w", err)}
		}
		h.Write(data)
	}
	if o.themeDir != "" {
		if err := hashTheme(ctx, h, o.themeDir); err != nil {
			return nil, &ConfigError{setting.Errorf(setting.Theme, "%w", err)}
		}
	}
	return h.Sum(nil), nil
}

// hashTheme sums the names and bytes of the theme folder's files that
// the renderers read, read through the gate of local files
// (render.ReadTheme).
func hashTheme(ctx context.Context, h io.Writer, dir string) error {
	files, err := render.ReadTheme(ctx, localfile.OperatorRef(dir))
	if err != nil {
		return err
	}
	for _, n := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%s\n", path.Join(filepath.ToSlash(dir), n))
		if _, err := h.Write(files[n]); err != nil {
			return err
		}
	}
	return nil
}

// siteFileSetting names the setting that gave file f of id.
func siteFileSetting(id render.Identity, f string) string {
	switch f {
	case id.Logo:
		return setting.SiteLogo
	case id.Favicon:
		return setting.SiteFavicon
	}
	return setting.SiteImage
}
