package jsonbundle

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
)

// attrs builds an attribute map from name/JSON pairs, inserting them in
// the order given, or in reverse order when reverse is set.
func attrs(reverse bool, kv ...string) map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		j := i
		if reverse {
			j = len(kv) - 2 - i
		}
		m[kv[j]] = json.RawMessage(kv[j+1])
	}
	return m
}

// export returns the identity of Algebra 1's export of variant in locale.
func export(variant, variantID, variantSlug, locale string) model.Export {
	return model.Export{
		CurriculumID:   "101",
		CurriculumName: "Algebra 1",
		Variant:        variant,
		VariantID:      variantID,
		Locale:         locale,
		PrimaryLocale:  "en",
		CurriculumSlug: "algebra-1",
		VariantSlug:    variantSlug,
		LocaleSlug:     strings.ToLower(locale),
	}
}

// node returns a node of e whose page path is derived from its id.
func node(e model.Export, id, title string, typ model.NodeType, ord string, pos, depth int, kids ...*model.Node) *model.Node {
	return &model.Node{
		ID:             id,
		Title:          title,
		NodeType:       typ,
		OrdinalLabel:   ord,
		TypeDisplay:    strings.TrimSpace(typ.DisplayName + " " + ord),
		WorkflowStatus: model.StatusPublished,
		Position:       pos,
		Depth:          depth,
		Attributes:     map[string]json.RawMessage{},
		Segment:        id,
		Children:       kids,
	}
}

var (
	unitEN   = model.NodeType{Name: "unit", DisplayName: "Unit", Icon: "book"}
	lessonEN = model.NodeType{Name: "lesson", DisplayName: "Lesson", Icon: "file"}
	unitES   = model.NodeType{Name: "unit", DisplayName: "Unidad", Icon: "book"}
	lessonES = model.NodeType{Name: "lesson", DisplayName: "Lección", Icon: "file"}
	unitAR   = model.NodeType{Name: "unit", DisplayName: "وحدة", Icon: "book"}
	lessonAR = model.NodeType{Name: "lesson", DisplayName: "درس", Icon: "file"}
)

// richAttributes are free-form attributes as an API could send them:
// nested objects and arrays, numbers spelled in several ways, null, HTML,
// escapes and uneven whitespace.
func richAttributes(reverse bool) map[string]json.RawMessage {
	return attrs(reverse,
		"description", `"<p>Solve <b>x</b> &amp; y &lt; 3 & z > 1</p>"`,
		"embed", `"<script>alert('hi')</script>"`,
		"estimated_minutes", `45`,
		"weight", `1.50`,
		"big", `12345678901234567890`,
		"exp", `-2.5e-3`,
		"retired", `null`,
		"flags", `{"graded":true,"optional":false}`,
		"learning_objectives", "[ \"Solve linear equations\",\n\t\"Graph  lines\" ]",
		"rubric", `{"levels":[{"score":1,"label":"Beginning","notes":null},{"score":2.0,"label":"Proficient","tags":[]}],"meta":{}}`,
		"escaped", `"caf\u00e9 \"quoted\" \\ back\/slash"`,
		"empty_list", `[]`,
		"zz_last", `"ok"`,
	)
}

// baseTree is Algebra 1 itself in English, the primary locale.
func baseTree(reverse bool) *model.Tree {
	e := export("", "101", "base", "en")
	orig := model.Translation{IsTranslated: false, Status: "original", SourceLocale: "en"}
	own := model.Inheritance{IsInherited: false, SourceCurriculum: "Algebra 1"}
	l1 := node(e, "alg-u1-l1", "Solving one-step equations", lessonEN, "1", 0, 1)
	l1.Attributes = richAttributes(reverse)
	l2 := node(e, "alg-u1-l2", "Draft: two-step equations", lessonEN, "2", 1, 1)
	l2.WorkflowStatus = "draft"
	u1 := node(e, "alg-u1", "Linear equations", unitEN, "1", 0, 0, l1, l2)
	u1.Attributes = attrs(reverse, "description", `"Equations & inequalities"`, "estimated_minutes", `300`)
	u2 := node(e, "alg-u2", "Functions", unitEN, "2", 1, 0)
	t := &model.Tree{
		Export:       e,
		VariantChain: []string{"Algebra 1"},
		ETag:         `"3f2a9c"`,
		ResolvedAt:   time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC),
		Nodes:        []*model.Node{u1, u2},
	}
	t.Walk(func(n *model.Node) bool {
		n.Inheritance, n.Translation = own, orig
		return true
	})
	return t
}

// texasTree is the Texas variant in Spanish: translated and fallback
// nodes; inherited, changed and added nodes.
func texasTree(reverse bool) *model.Tree {
	e := export("Texas", "111", "texas", "es")
	translated := model.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}
	fallback := model.Translation{IsTranslated: false, Status: "fallback", SourceLocale: "en"}

	inherited := node(e, "alg-u1-l1", "Resolver ecuaciones de un paso", lessonES, "1", 0, 1)
	inherited.Attributes = richAttributes(reverse)
	inherited.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}
	inherited.Translation = translated

	changed := node(e, "alg-u1-l2", "Two-step equations (TEKS A.5A)", lessonES, "2", 1, 1)
	changed.Attributes = attrs(reverse, "description", `"Rewritten for Texas: <em>TEKS</em> A.5A"`, "teks", `["A.5A","A.5B"]`)
	changed.Inheritance = model.Inheritance{IsInherited: false, SourceCurriculum: "Texas", OverrideLevel: 1}
	changed.Translation = fallback // the override made the Spanish text stale

	added := node(e, "tx-staar", "Repaso STAAR", lessonES, "3", 2, 1)
	added.Attributes = attrs(reverse, "description", `"Solo en Texas"`, "estimated_minutes", `50`)
	added.Inheritance = model.Inheritance{IsInherited: false, SourceCurriculum: "Texas"}
	added.Translation = translated

	u1 := node(e, "alg-u1", "Ecuaciones lineales", unitES, "1", 0, 0, inherited, changed, added)
	u1.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}
	u1.Translation = translated
	u1.Attributes = attrs(reverse, "description", `"Ecuaciones e inecuaciones"`)

	u2 := node(e, "alg-u2", "Functions", unitES, "2", 1, 0)
	u2.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}
	u2.Translation = fallback
	return &model.Tree{
		Export:       e,
		VariantChain: []string{"Algebra 1", "Texas"},
		ETag:         `W/"tx-es-77"`,
		ResolvedAt:   time.Date(2026, 2, 24, 18, 20, 0, 250_000_000, time.FixedZone("CST", -6*3600)),
		Nodes:        []*model.Node{u1, u2},
	}
}

// houstonTree is a nested variant (Algebra 1 → Texas → Houston ISD) in
// Arabic, with Japanese and mixed-direction text in its attributes.
func houstonTree(reverse bool) *model.Tree {
	e := export("Houston ISD", "112", "houston-isd", "ar")
	translated := model.Translation{IsTranslated: true, Status: "translated", SourceLocale: "ar"}
	l1 := node(e, "alg-u1-l1", "حل المعادلات ذات الخطوة الواحدة", lessonAR, "١", 0, 1)
	l1.Attributes = attrs(reverse,
		"description", `"حل المعادلات: x + 3 = 7 <b>مهم</b>"`,
		"glossary", `{"ja":"一次方程式","ar":"معادلة خطية","en":"linear equation"}`,
		"learning_objectives", `["方程式を解く","حل المعادلات"]`,
		"emoji", `"✅ 🧮"`,
	)
	l1.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}
	l1.Translation = translated
	l2 := node(e, "hisd-lab", "مختبر هيوستن — 方程式ラボ", lessonAR, "٢", 1, 1)
	l2.Inheritance = model.Inheritance{IsInherited: false, SourceCurriculum: "Houston ISD"}
	l2.Translation = translated
	l2.Attributes = attrs(reverse, "line_separators", `"a\u2028b"`, "raw_ls", "\"a\u2028b\"")
	u1 := node(e, "alg-u1", "المعادلات الخطية", unitAR, "١", 0, 0, l1, l2)
	u1.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: "Texas", OverrideLevel: 1}
	u1.Translation = translated
	return &model.Tree{
		Export:       e,
		VariantChain: []string{"Algebra 1", "Texas", "Houston ISD"},
		ETag:         `"h-ar-1"`,
		ResolvedAt:   time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC),
		Nodes:        []*model.Node{u1},
	}
}

// chain returns a tree whose single root has a chain of depth-1
// descendants, depth levels in all.
func chain(depth int) *model.Tree {
	e := export("", "101", "base", "en")
	nodes := make([]*model.Node, depth)
	for i := depth - 1; i >= 0; i-- {
		id := "n" + strconv.Itoa(i)
		n := &model.Node{
			ID: id, Title: "Level " + strconv.Itoa(i), NodeType: lessonEN, WorkflowStatus: "published",
			Depth: i, Segment: id,
			Inheritance: model.Inheritance{SourceCurriculum: "Algebra 1"},
			Translation: model.Translation{Status: "original", SourceLocale: "en"},
		}
		if i+1 < depth {
			n.Children = []*model.Node{nodes[i+1]}
		}
		nodes[i] = n
	}
	return &model.Tree{Export: e, VariantChain: []string{"Algebra 1"}, ETag: `"deep"`, Nodes: nodes[:1]}
}

// synthetic returns a tree of about n nodes shaped like a real course:
// units of 8 lessons of 4 activities, with typical attributes.
func synthetic(n int) *model.Tree {
	e := export("Texas", "111", "texas", "es")
	t := &model.Tree{Export: e, VariantChain: []string{"Algebra 1", "Texas"}, ETag: `"syn"`,
		ResolvedAt: time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC)}
	count := 0
	mk := func(typ model.NodeType, pos, depth int, parent string) *model.Node {
		count++
		id := parent + "-" + strconv.Itoa(pos+1)
		nd := node(e, id, "Título del nodo "+id+" — ecuaciones", typ, strconv.Itoa(pos+1), pos, depth)
		nd.Attributes = map[string]json.RawMessage{
			"description":         json.RawMessage(`"<p>Los estudiantes resuelven ecuaciones lineales de dos pasos y explican cada paso.</p>"`),
			"learning_objectives": json.RawMessage(`["Resolver ecuaciones","Justificar pasos","Comprobar soluciones"]`),
			"estimated_minutes":   json.RawMessage(`45`),
			"standards":           json.RawMessage(`{"teks":["A.5A"],"ccss":null}`),
		}
		nd.Inheritance = model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"}
		nd.Translation = model.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"}
		return nd
	}
	for u := 0; count < n; u++ {
		unit := mk(unitES, u, 0, "u")
		t.Nodes = append(t.Nodes, unit)
		for l := 0; l < 8 && count < n; l++ {
			lesson := mk(lessonES, l, 1, unit.ID)
			unit.Children = append(unit.Children, lesson)
			for a := 0; a < 4 && count < n; a++ {
				lesson.Children = append(lesson.Children, mk(model.NodeType{Name: "activity", DisplayName: "Actividad"}, a, 2, lesson.ID))
			}
		}
	}
	return t
}

var (
	validatorOnce sync.Once
	validator     *treeschema.Validator
	validatorErr  error
)

// mustValidate fails t unless data matches the schema.
func mustValidate(t testing.TB, data []byte) {
	t.Helper()
	validatorOnce.Do(func() { validator, validatorErr = treeschema.NewValidator() })
	if validatorErr != nil {
		t.Fatalf("NewValidator: %v", validatorErr)
	}
	if err := validator.Validate(data); err != nil {
		t.Fatalf("bundle does not validate: %v", err)
	}
}

// mustEncode encodes tr, failing t on error, and validates the result.
func mustEncode(t testing.TB, tr *model.Tree) []byte {
	t.Helper()
	out, err := Encode(tr)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	mustValidate(t, out)
	return out
}

// reindented returns data compacted and indented again by encoding/json,
// with a final newline: the canonical form Encode must produce.
func reindented(t testing.TB, data []byte) []byte {
	t.Helper()
	var compact, out bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		t.Fatalf("Indent: %v", err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
