package html

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
)

// flatFixture is a site of one tree of n sibling lessons and nothing else:
// the broadest tree there is.
func flatFixture(n int) (*SiteInfo, *model.Tree) {
	e := model.Export{CurriculumID: "1", CurriculumName: "Flat", Locale: "en", PrimaryLocale: "en",
		CurriculumSlug: "flat", VariantSlug: "base", LocaleSlug: "en"}
	c := &Curriculum{ID: "1", Name: "Flat", Slug: "flat", PrimaryLocale: "en",
		Locales:  []model.Locale{{Code: "en", Name: "English", Slug: "en", IsPrimary: true}},
		Variants: []Variant{{ID: "1", Slug: "base"}}, Exported: map[string]bool{"base/en": true}}
	t := &model.Tree{Export: e}
	t.Nodes = make([]*model.Node, n)
	for i := range t.Nodes {
		id := "l" + strconv.Itoa(i)
		t.Nodes[i] = &model.Node{ID: id, Title: "Lesson " + strconv.Itoa(i),
			NodeType: model.NodeType{Name: "lesson", DisplayName: "Lesson", Icon: "file"}, OrdinalLabel: strconv.Itoa(i + 1),
			WorkflowStatus: model.StatusPublished, Segment: id}
	}
	return &SiteInfo{Generator: "curex test", Curricula: []*Curriculum{c}}, t
}

// errEnough stops a render once pageProbe has what it wants.
var errEnough = errors.New("enough pages")

// pageProbe is a Writer that measures node pages and keeps the ones it
// wants; once it holds them all it refuses every write, which ends the
// render: a broad tree is measured without writing all of its pages.
type pageProbe struct {
	mu     sync.Mutex
	want   map[string]bool
	kept   map[string]string
	pages  int
	bytes  int64
	maxLen int
}

func newPageProbe(paths ...string) *pageProbe {
	p := &pageProbe{want: map[string]bool{}, kept: map[string]string{}}
	for _, s := range paths {
		p.want[s] = true
	}
	return p
}

func (p *pageProbe) Write(rel string, data []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.kept) == len(p.want) {
		return errEnough
	}
	if !strings.HasSuffix(rel, "/index.html") || rel == "flat/base/en/index.html" {
		return nil // the contents page, the search index
	}
	p.pages++
	p.bytes += int64(len(data))
	p.maxLen = max(p.maxLen, len(data))
	if p.want[rel] {
		p.kept[rel] = string(data)
	}
	return nil
}

// probe renders the flat tree of n siblings until the node pages of the
// given indexes are written.
func probe(t testing.TB, n int, indexes ...int) *pageProbe {
	t.Helper()
	site, tree := flatFixture(n)
	var paths []string
	for _, i := range indexes {
		paths = append(paths, layout.NodePage(tree.Export, tree.Nodes[i].Segment))
	}
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := newPageProbe(paths...)
	if err := r.RenderTree(context.Background(), w, site, tree, nil); err != nil && !errors.Is(err, errEnough) {
		t.Fatal(err)
	}
	if len(w.kept) != len(paths) {
		t.Fatalf("rendered %d of the %d pages wanted", len(w.kept), len(paths))
	}
	return w
}

// TestSidebarBoundedByBreadth renders one flat tree of 500 and one of
// 5,000 siblings: a node page is no larger in the broader tree, its
// sidebar lists a window of siblings around the page's node, and a link
// to the contents page counts the others.
func TestSidebarBoundedByBreadth(t *testing.T) {
	const limit = 24 << 10 // a node page with a window of 21 siblings is about 14 KiB
	sizes := map[int]int{}
	for _, n := range []int{500, 5000} {
		w := probe(t, n, 0, 1, 20, 21)
		// The same pages in both trees: which others the workers render
		// before the probe stops them depends on scheduling, and a page
		// further on lists longer numbers.
		for _, page := range w.kept {
			sizes[n] = max(sizes[n], len(page))
		}
		if w.maxLen > limit {
			t.Errorf("%d siblings: a node page of %d bytes, want at most %d", n, w.maxLen, limit)
		}
		page := w.kept["flat/base/en/l20/index.html"]
		// The sidebar follows <main> in the page.
		_, sidebar, _ := strings.Cut(page, `</main>`)
		for i := range n {
			href := `href="../l` + strconv.Itoa(i) + `/index.html"`
			if i == 20 {
				href = `href="index.html" aria-current="page"`
			}
			in := strings.Contains(sidebar, href)
			if want := i >= 10 && i <= 30; in != want {
				t.Errorf("%d siblings: page of lesson 20 lists lesson %d in its sidebar: %v, want %v", n, i, in, want)
				break
			}
		}
		for _, more := range []string{"… 10 more in the contents", fmt.Sprintf("… %d more in the contents", n-31)} {
			if !strings.Contains(sidebar, `<a class="tree__more" href="../index.html">`+more+`</a>`) {
				t.Errorf("%d siblings: the sidebar of lesson 20 lacks a link %q to the contents", n, more)
			}
		}
		_, first, _ := strings.Cut(w.kept["flat/base/en/l0/index.html"], `</main>`)
		if strings.Contains(first, "tree__more\" href=\"../index.html\">… 0") || !strings.Contains(first, fmt.Sprintf("… %d more in the contents", n-11)) {
			t.Errorf("%d siblings: the sidebar of lesson 0 should list lessons 0–10 and count %d more", n, n-11)
		}
	}
	if sizes[5000] > sizes[500]+64 {
		t.Errorf("a node page grows with the breadth of the tree: %d bytes with 500 siblings, %d with 5,000", sizes[500], sizes[5000])
	}
}

// BenchmarkFlatTreePage renders node pages of one flat tree of 100,000
// siblings and reports the bytes of a node page and, extrapolated, of all
// of them.
func BenchmarkFlatTreePage(b *testing.B) {
	const n = 100000
	for b.Loop() {
		w := probe(b, n, 0, 1, 20, 21)
		b.ReportMetric(float64(w.bytes)/float64(w.pages), "bytes/page")
		b.ReportMetric(float64(w.bytes)/float64(w.pages)*n/1e9, "GB/tree")
	}
}
