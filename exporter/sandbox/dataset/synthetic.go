package dataset

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// SyntheticOptions size a generated dataset.
type SyntheticOptions struct {
	// Curricula is the number of base curricula.
	Curricula int
	// Variants is the number of variants per base curriculum; every second
	// one is a variant of the one before, so variants nest two deep.
	Variants int
	// Locales is the number of enabled locales, the primary one included.
	Locales int
	// Nodes is the number of nodes in each base tree.
	Nodes int
	// Depth is the number of levels of each base tree.
	Depth int
	// Seed makes the content repeatable.
	Seed int64
	// Body, when 1, gives every node the description a real lesson has
	// instead of two sentences: paragraphs with inline math, a list, and in
	// turn a code block, a display formula and an image of the sandbox's
	// own (see body). 0, the default, keeps the short descriptions.
	Body int
}

// DefaultSynthetic is the size used for keys a spec leaves out.
func DefaultSynthetic() SyntheticOptions {
	return SyntheticOptions{Curricula: 10, Variants: 2, Locales: 3, Nodes: 200, Depth: 3, Seed: 1}
}

// SyntheticToken is the bearer token of the synthetic dataset.
const SyntheticToken = "synthetic-token"

// ParseSynthetic reads "curricula=50,variants=4,locales=6,nodes=2000,depth=3,seed=1";
// every key is optional.
func ParseSynthetic(s string) (SyntheticOptions, error) {
	o := DefaultSynthetic()
	s = strings.TrimSpace(s)
	if s == "" {
		return o, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !ok || err != nil {
			return o, fmt.Errorf("synthetic dataset: %q: want KEY=NUMBER, such as nodes=2000", part)
		}
		lim := map[string][2]int64{
			"curricula": {1, 10_000}, "variants": {0, 100}, "locales": {1, int64(len(syntheticLocales))},
			"nodes": {1, 1_000_000}, "depth": {1, 10_000}, "seed": {math.MinInt64, math.MaxInt64},
			"body": {0, 1},
		}[k]
		if lim == [2]int64{} {
			return o, fmt.Errorf("synthetic dataset: unknown key %q (want curricula, variants, locales, nodes, depth, seed or body)", k)
		}
		if n < lim[0] || n > lim[1] {
			return o, fmt.Errorf("synthetic dataset: %s=%d is out of range %d to %d", k, n, lim[0], lim[1])
		}
		switch k {
		case "curricula":
			o.Curricula = int(n)
		case "variants":
			o.Variants = int(n)
		case "locales":
			o.Locales = int(n)
		case "nodes":
			o.Nodes = int(n)
		case "depth":
			o.Depth = int(n)
		case "seed":
			o.Seed = n
		case "body":
			o.Body = int(n)
		}
	}
	return o, nil
}

var syntheticLocales = []Locale{
	{"en", "English"}, {"es", "Español"}, {"fr", "Français"}, {"ar", "العربية"}, {"ja", "日本語"},
	{"de", "Deutsch"}, {"pt-BR", "Português (Brasil)"}, {"zh-Hans", "简体中文"}, {"hi", "हिन्दी"},
	{"ko", "한국어"}, {"he", "עברית"}, {"ru", "Русский"}, {"it", "Italiano"}, {"vi", "Tiếng Việt"},
}

var syntheticTopics = []string{
	"Algebra", "Geometry", "Biology", "Chemistry", "Physics", "World History", "Literature",
	"Statistics", "Computer Science", "Economics", "Earth Science", "Music Theory",
}

var syntheticWords = strings.Fields(`learners explore model compare explain evidence pattern
	reason data graph ratio energy system cell source argument structure function change
	measure predict design test claim variable equation map culture process rate scale`)

// Synthetic generates a dataset of the given size. The same options always
// give the same dataset.
func Synthetic(o SyntheticOptions) *Dataset {
	g := &synth{
		o:       o,
		rng:     rand.New(rand.NewPCG(uint64(o.Seed), 0x5eed)),
		epoch:   time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
		types:   []string{"unit", "lesson", "activity"},
		locales: syntheticLocales[:o.Locales],
	}
	ds := &Dataset{
		Organizations: []Organization{{ID: "org-synthetic", Name: "Synthetic School District"}},
		Users:         []User{{ID: "user-synthetic", Email: "publisher@example.org", Name: "Synthetic Publisher", Organization: "org-synthetic"}},
		Tokens:        []Token{{Token: SyntheticToken, User: "user-synthetic"}},
		NodeTypes: []NodeType{
			{Name: "unit", DisplayName: "Unit", Icon: "book"},
			{Name: "lesson", DisplayName: "Lesson", Icon: "file-text"},
			{Name: "activity", DisplayName: "Activity", Icon: "flask"},
		},
	}
	for ci := range o.Curricula {
		base, all := g.base(ci)
		ds.Curricula = append(ds.Curricula, base)
		ds.Curricula = append(ds.Curricula, g.variants(ci, &base, all)...)
	}
	return ds
}

// synth generates the curricula of a synthetic dataset. Every random draw
// comes from rng in a fixed order, which keeps the dataset repeatable.
type synth struct {
	o       SyntheticOptions
	rng     *rand.Rand
	epoch   time.Time
	types   []string // node types by tree level
	locales []Locale // enabled locales, the primary first
}

// sentence is n random words, capitalised, with a full stop.
func (g *synth) sentence(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = syntheticWords[g.rng.IntN(len(syntheticWords))]
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// jsonString is s as a JSON string.
func jsonString(s string) json.RawMessage { b, _ := json.Marshal(s); return b }

// base generates the ci-th base curriculum, its tree and translations, and
// returns it with its nodes in depth-first order.
func (g *synth) base(ci int) (Curriculum, []*Node) {
	topic := syntheticTopics[ci%len(syntheticTopics)]
	id := fmt.Sprintf("%d", 1000+ci)
	shape := ShapeFull
	if ci%3 == 2 {
		shape, id = ShapeAlternate, "curriculum_"+id
	}
	base := Curriculum{
		ID: id, Organization: "org-synthetic", Shape: shape, Name: fmt.Sprintf("%s %d", topic, ci+1),
		Description:   fmt.Sprintf("A synthetic %s course for scale tests.", strings.ToLower(topic)),
		StructureName: "Units and lessons", PrimaryLocale: "en", Locales: g.locales,
		CreatedAt: g.epoch, UpdatedAt: g.epoch.Add(time.Duration(ci) * time.Hour),
		Translations: map[string]map[string]Translation{},
	}
	g.tree(&base.Nodes, id, topic)
	var all []*Node
	var collect func(ns []Node)
	collect = func(ns []Node) {
		for i := range ns {
			all = append(all, &ns[i])
			collect(ns[i].Children)
		}
	}
	collect(base.Nodes)
	g.translate(&base, all)
	return base, all
}

// syntheticImages are the pictures the sandbox serves (docs/sandbox.md),
// with the alternative text a lesson would give them.
var syntheticImages = [][2]string{
	{"water-cycle.png", "The water cycle: evaporation, condensation, precipitation"},
	{"earth-layers.png", "The layers of the Earth from crust to inner core"},
	{"granite.jpg", "A polished slab of granite"},
	{"binary-bits.png", "Eight bits of a byte, each a power of two"},
}

// body is the description of the n-th node (counted from 1) when o.Body
// is 1: the mix of a real lesson, about 150 words. Two paragraphs with an
// inline formula and a list in every node; a code block in every second,
// a display formula in every third, an image in every fourth. Numbers in
// the code and formulas come from the generator, so formulas differ from
// node to node as a real curriculum's do (no conversion is a repeat).
func (g *synth) body(n int) string {
	a, b, c := 2+g.rng.IntN(9), 1+g.rng.IntN(20), 10+g.rng.IntN(90)
	var s strings.Builder
	fmt.Fprintf(&s, "%s %s Solve $%dx + %d = %d$ and check the answer. %s\n\n",
		g.sentence(11), g.sentence(9), a, b, c, g.sentence(8))
	fmt.Fprintf(&s, "- %s\n- %s\n- %s\n\n", g.sentence(6), g.sentence(7), g.sentence(5))
	if n%2 == 0 {
		fmt.Fprintf(&s, "```python\ndef solve(a, b, c):\n    \"\"\"Return x such that a*x + b == c.\"\"\"\n"+
			"    return (c - b) / a\n\nprint(solve(%d, %d, %d))  # %s\n```\n\n", a, b, c, g.sentence(4))
	}
	if n%3 == 0 {
		fmt.Fprintf(&s, "$$\n\\begin{aligned}\n%dx + %d &= %d \\\\\n%dx &= %d \\\\\nx &= \\frac{%d}{%d}\n\\end{aligned}\n$$\n\n",
			a, b, c, a, c-b, c-b, a)
	}
	if n%4 == 0 {
		img := syntheticImages[(n/4)%len(syntheticImages)]
		fmt.Fprintf(&s, "![%s](https://sandbox.invalid/images/%s)\n\n", img[1], img[0])
	}
	s.WriteString(g.sentence(12) + " " + g.sentence(10))
	return s.String()
}

// tree grows into roots a balanced tree of o.Nodes nodes and at most
// o.Depth levels, breadth first, so that the count fills levels evenly.
func (g *synth) tree(roots *[]Node, id, topic string) {
	branch := branching(g.o.Nodes, g.o.Depth)
	made := 0
	grow := func(parent *[]Node, depth int, prefix string) {
		for k := 0; k < branch && made < g.o.Nodes; k++ {
			made++
			nid := fmt.Sprintf("%s-%d", prefix, k+1)
			desc := g.sentence(12) + " " + g.sentence(9)
			if g.o.Body == 1 {
				desc = g.body(made)
			}
			*parent = append(*parent, Node{
				ID: nid, Title: fmt.Sprintf("%s %s", topic, strings.TrimPrefix(nid, id+"-")),
				NodeType: g.types[min(depth, len(g.types)-1)],
				Attributes: map[string]json.RawMessage{
					"description":         jsonString(desc),
					"learning_objectives": json.RawMessage(fmt.Sprintf(`[%s,%s]`, jsonString(g.sentence(6)), jsonString(g.sentence(7)))),
					"estimated_minutes":   json.RawMessage(strconv.Itoa(15 + g.rng.IntN(40))),
				},
			})
		}
	}
	type slot struct {
		nodes  *[]Node
		depth  int
		prefix string
	}
	queue := []slot{{roots, 0, id}}
	for len(queue) > 0 && made < g.o.Nodes {
		s := queue[0]
		queue = queue[1:]
		grow(s.nodes, s.depth, s.prefix)
		if s.depth+1 < g.o.Depth {
			for i := range *s.nodes {
				n := &(*s.nodes)[i]
				queue = append(queue, slot{&n.Children, s.depth + 1, n.ID})
			}
		}
	}
}

// translate adds base's translations into every further locale; coverage
// falls with each one.
func (g *synth) translate(base *Curriculum, all []*Node) {
	for li, l := range g.locales[1:] {
		share := max(0.2, 0.95-0.15*float64(li))
		m := map[string]Translation{}
		for _, n := range all {
			if g.rng.Float64() < share {
				m[n.ID] = Translation{
					Title:      fmt.Sprintf("%s (%s)", n.Title, l.Code),
					Attributes: map[string]json.RawMessage{"description": jsonString(fmt.Sprintf("[%s] %s", l.Code, g.sentence(10)))},
				}
			}
		}
		base.Translations[l.Code] = m
	}
}

// variants generates the variants of the ci-th base curriculum, whose nodes
// are all; every second one is a variant of the one before.
func (g *synth) variants(ci int, base *Curriculum, all []*Node) []Curriculum {
	var out []Curriculum
	prev := base.ID
	for vi := range g.o.Variants {
		parent := base.ID
		if vi%2 == 1 {
			parent = prev
		}
		vid := fmt.Sprintf("%s-v%d", base.ID, vi+1)
		v := Curriculum{
			ID: vid, Shape: base.Shape, Name: fmt.Sprintf("%s Variant %d", base.Name, vi+1), Parent: parent,
			Description: "A synthetic variant.", StructureName: base.StructureName,
			CreatedAt: g.epoch, UpdatedAt: g.epoch.Add(time.Duration(ci) * time.Hour),
		}
		for k := 0; k < max(1, len(all)/100); k++ {
			n := all[g.rng.IntN(len(all))]
			v.Overrides = append(v.Overrides, Override{
				Node: n.ID, Title: n.Title + " (adapted)",
				Attributes: map[string]json.RawMessage{"estimated_minutes": json.RawMessage(strconv.Itoa(20 + g.rng.IntN(30)))},
			})
		}
		v.Additions = append(v.Additions, Addition{
			Parent: all[0].ID, Position: 1,
			Node: Node{ID: vid + "-added", Title: "Local extension " + strconv.Itoa(vi+1), NodeType: g.types[min(1, len(g.types)-1)],
				Attributes: map[string]json.RawMessage{"description": jsonString(g.sentence(14))}},
		})
		out = append(out, v)
		prev = vid
	}
	return out
}

// branching returns the smallest branching factor b for which a tree of
// depth levels holds nodes nodes: b + b² + ... + b^depth >= nodes.
func branching(nodes, depth int) int {
	for b := 1; ; b++ {
		total, level := 0, 1
		for range depth {
			level *= b
			total += level
			if total >= nodes {
				return b
			}
		}
	}
}
