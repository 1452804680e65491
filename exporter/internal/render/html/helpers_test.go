package html

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/slug"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// memWriter keeps written files in memory and refuses to write a file twice.
type memWriter struct {
	mu    sync.Mutex
	files map[string][]byte
}

func newMemWriter() *memWriter { return &memWriter{files: map[string][]byte{}} }

func (w *memWriter) Write(rel string, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, dup := w.files[rel]; dup {
		return fmt.Errorf("%s written twice", rel)
	}
	w.files[rel] = bytes.Clone(data) // the renderer reuses data
	return nil
}

func (w *memWriter) names() []string { return slices.Sorted(maps.Keys(w.files)) }

// outlineMap implements Outlines.
type outlineMap map[string]*Outline

func (m outlineMap) Outline(c, v, l string) *Outline { return m[c+"/"+v+"/"+l] }

// fixture is a whole site built from a dataset: the Site, every tree (as
// the exporter would pass it) and their outlines.
type fixture struct {
	site     *SiteInfo
	trees    []*model.Tree
	outlines outlineMap
}

// fromDataset resolves every curriculum of ds (base and variants) in every
// locale, converts the results to model trees the way the exporter does,
// and drops unpublished nodes unless includeUnpublished.
func fromDataset(tb testing.TB, ds *dataset.Dataset, includeUnpublished bool) *fixture {
	tb.Helper()
	ix, err := dataset.NewIndex(ds)
	if err != nil {
		tb.Fatal(err)
	}
	f := &fixture{site: &SiteInfo{Generator: "curex test"}, outlines: outlineMap{}}
	for _, base := range ds.Curricula {
		if base.Parent != "" {
			continue
		}
		c := &Curriculum{ID: base.ID, Name: base.Name, Description: base.Description, Slug: slug.Make(base.Name),
			PrimaryLocale: base.PrimaryLocale, Exported: map[string]bool{}}
		progress, err := ix.Progress(base.ID)
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range progress {
			c.Locales = append(c.Locales, model.Locale{Code: p.Locale.Code, Name: p.Locale.Name, Slug: strings.ToLower(p.Locale.Code),
				IsPrimary: p.IsPrimary, TranslationProgress: p.Translated, PublishedProgress: p.Published})
		}
		ids := append([]string{base.ID}, ix.Descendants(base.ID)...)
		slugOf := map[string]string{base.ID: "base"}
		for _, id := range ids {
			vc := ix.Curriculum(id)
			v := Variant{ID: id, Slug: "base", Depth: len(ix.Chain(id)) - 1}
			if id != base.ID {
				v.Name, v.Slug, v.ParentSlug = vc.Name, slug.Make(vc.Name), slugOf[vc.Parent]
				slugOf[id] = v.Slug
			}
			c.Variants = append(c.Variants, v)
			for _, l := range c.Locales {
				rt, err := ix.Resolve(id, l.Code)
				if err != nil {
					tb.Fatal(err)
				}
				e := model.Export{CurriculumID: base.ID, CurriculumName: base.Name, Variant: v.Name, VariantID: id,
					Locale: l.Code, PrimaryLocale: base.PrimaryLocale, CurriculumSlug: c.Slug, VariantSlug: v.Slug, LocaleSlug: l.Slug}
				t := convert(e, rt)
				if !includeUnpublished {
					t = t.PublishedOnly()
				}
				f.trees = append(f.trees, t)
				f.outlines[e.Dir()] = OutlineOf(t)
				c.Exported[v.Slug+"/"+l.Slug] = true
			}
		}
		f.site.Curricula = append(f.site.Curricula, c)
	}
	return f
}

// convert turns a resolved dataset tree into a model tree.
func convert(e model.Export, rt *dataset.Tree) *model.Tree {
	t := &model.Tree{Export: e, ETag: `"test"`, ResolvedAt: rt.UpdatedAt}
	for _, c := range rt.Chain {
		t.VariantChain = append(t.VariantChain, c.Name)
	}
	var conv func(ns []*dataset.ResolvedNode) []*model.Node
	conv = func(ns []*dataset.ResolvedNode) []*model.Node {
		var out []*model.Node
		for _, n := range ns {
			out = append(out, &model.Node{
				ID: n.ID, Title: n.Title,
				NodeType:     model.NodeType{Name: n.NodeType.Name, DisplayName: n.NodeType.DisplayName, Icon: n.NodeType.Icon},
				OrdinalLabel: n.OrdinalLabel, TypeDisplay: n.TypeDisplay, WorkflowStatus: n.WorkflowStatus,
				Position: n.Position, Depth: n.Depth, Attributes: n.Attributes,
				Inheritance: model.Inheritance{IsInherited: n.Inheritance.IsInherited, SourceCurriculum: n.Inheritance.SourceCurriculum, OverrideLevel: n.Inheritance.OverrideLevel},
				Translation: model.Translation{IsTranslated: n.Translation.IsTranslated, Status: n.Translation.Status, SourceLocale: n.Translation.SourceLocale},
				Segment:     slug.ID(n.ID),
				Children:    conv(n.Children),
			})
		}
		return out
	}
	t.Nodes = conv(rt.Roots)
	return t
}

// sample builds the fixture of the sample dataset.
func sample(tb testing.TB, includeUnpublished bool) *fixture {
	tb.Helper()
	ds, err := dataset.Sample()
	if err != nil {
		tb.Fatal(err)
	}
	return fromDataset(tb, ds, includeUnpublished)
}

// render renders the whole fixture with o, trees concurrently.
func (f *fixture) render(tb testing.TB, o Options) *memWriter {
	tb.Helper()
	r, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	w := newMemWriter()
	// As many workers as processors, as an export renders (the bytes no
	// longer depend on the load: see content.HighlightTimeout).
	var wg sync.WaitGroup
	errs := make([]error, len(f.trees))
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				errs[i] = r.RenderTree(context.Background(), w, f.site, f.trees[i], f.outlines)
			}
		})
	}
	for i := range f.trees {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.RenderSite(w, f.site); err != nil {
		tb.Fatal(err)
	}
	return w
}

var (
	renderedOnce sync.Once
	renderedF    *fixture
	renderedW    *memWriter
)

// rendered returns the sample site rendered with default options, shared
// by the tests that only read it.
func rendered(tb testing.TB) (*fixture, *memWriter) {
	tb.Helper()
	renderedOnce.Do(func() {
		renderedF = sample(tb, false)
		renderedW = renderedF.render(tb, Options{})
	})
	if renderedW == nil {
		tb.Fatal("rendering the sample failed")
	}
	return renderedF, renderedW
}
