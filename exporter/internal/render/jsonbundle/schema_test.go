package jsonbundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
)

func schemaDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(treeschema.SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestSchemaHeader checks the draft, the id and that the schema compiles
// (which validates it against the draft 2020-12 meta-schema).
func TestSchemaHeader(t *testing.T) {
	doc := schemaDoc(t)
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema %v", doc["$schema"])
	}
	if doc["$id"] != treeschema.SchemaID {
		t.Errorf("$id %v, want %s", doc["$id"], treeschema.SchemaID)
	}
	if _, err := treeschema.NewValidator(); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaDocumented checks that every property, at every level, has a
// title and a description, and that every object but attributes is
// closed.
func TestSchemaDocumented(t *testing.T) {
	doc := schemaDoc(t)
	var walk func(at string, s map[string]any)
	walk = func(at string, s map[string]any) {
		if s["type"] == "object" && at != "/$defs/node/properties/attributes" {
			if s["additionalProperties"] != false {
				t.Errorf("%s: object without additionalProperties: false", at)
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for name, p := range props {
				ps := p.(map[string]any)
				for _, k := range []string{"title", "description"} {
					if v, _ := ps[k].(string); strings.TrimSpace(v) == "" {
						t.Errorf("%s/properties/%s: no %s", at, name, k)
					}
				}
				walk(at+"/properties/"+name, ps)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(at+"/items", items)
		}
	}
	walk("", doc)
	for name, d := range doc["$defs"].(map[string]any) {
		ds := d.(map[string]any)
		if ds["title"] == nil || ds["description"] == nil {
			t.Errorf("$defs/%s: no title or description", name)
		}
		walk("/$defs/"+name, ds)
	}
}

// TestSchemaPatternsMatchEncoder checks that the schema's patterns are the
// ones Encode checks with.
func TestSchemaPatternsMatchEncoder(t *testing.T) {
	doc := schemaDoc(t)
	get := func(path ...string) any {
		var v any = doc
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v
	}
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{"$defs", "locale", "pattern"}, localePattern},
		{[]string{"$defs", "translation", "properties", "source_locale", "pattern"}, optionalLocalePattern},
		{[]string{"$defs", "node", "properties", "path", "pattern"}, pathPattern},
		{[]string{"properties", "format", "const"}, Format},
	} {
		if got := get(c.path...); got != c.want {
			t.Errorf("%s is %q, Encode uses %q", strings.Join(c.path, "/"), got, c.want)
		}
	}
	required := func(path ...string) []string {
		var out []string
		for _, r := range get(path...).([]any) {
			out = append(out, r.(string))
		}
		slices.Sort(out)
		return out
	}
	// Required per the tree.json contract (design.md), plus format.
	if got, want := required("required"), []string{"curriculum_id", "curriculum_name", "etag", "format", "locale", "nodes", "primary_locale", "resolved_at", "variant", "variant_chain"}; !slices.Equal(got, want) {
		t.Errorf("top-level required %v, want %v", got, want)
	}
	if got, want := required("$defs", "node", "required"), []string{"attributes", "children", "id", "inheritance", "node_type", "path", "position", "title", "translation", "workflow_status"}; !slices.Equal(got, want) {
		t.Errorf("node required %v, want %v", got, want)
	}
}

// mutate decodes the texas golden document, applies f and encodes it
// again.
func mutate(t *testing.T, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(mustEncode(t, texasTree(false))))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func nodeAt(doc map[string]any, idx ...int) map[string]any {
	list := doc["nodes"].([]any)
	var n map[string]any
	for _, i := range idx {
		n = list[i].(map[string]any)
		list, _ = n["children"].([]any)
	}
	return n
}

// TestSchemaRejects checks that the schema refuses broken documents and
// that the error names the failing location.
func TestSchemaRejects(t *testing.T) {
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		f        func(doc map[string]any)
		location string // JSON Pointer the error must name
		message  string // text the error must contain
	}{
		{"missing etag", func(d map[string]any) { delete(d, "etag") }, "", "etag"},
		{"missing nodes", func(d map[string]any) { delete(d, "nodes") }, "", "nodes"},
		{"missing node path", func(d map[string]any) { delete(nodeAt(d, 0, 2), "path") }, "/nodes/0/children/2", "path"},
		{"missing node children", func(d map[string]any) { delete(nodeAt(d, 1), "children") }, "/nodes/1", "children"},
		{"missing translation status", func(d map[string]any) { delete(nodeAt(d, 0)["translation"].(map[string]any), "status") }, "/nodes/0/translation", "status"},
		{"extra top-level field", func(d map[string]any) { d["generator"] = "curex" }, "", "generator"},
		{"extra node field", func(d map[string]any) { nodeAt(d, 0, 1)["html"] = "x" }, "/nodes/0/children/1", "html"},
		{"extra inheritance field", func(d map[string]any) { nodeAt(d, 0)["inheritance"].(map[string]any)["x"] = 1 }, "/nodes/0/inheritance", "x"},
		{"path with dotdot", func(d map[string]any) { nodeAt(d, 0, 0)["path"] = "algebra-1/../../secret/index.html" }, "/nodes/0/children/0/path", "pattern"},
		{"path absolute", func(d map[string]any) { nodeAt(d, 0)["path"] = "/algebra-1/texas/es/alg-u1/index.html" }, "/nodes/0/path", "pattern"},
		{"path not html", func(d map[string]any) { nodeAt(d, 0)["path"] = "algebra-1/texas/es/alg-u1/" }, "/nodes/0/path", "pattern"},
		{"path backslash", func(d map[string]any) { nodeAt(d, 0)["path"] = `algebra-1\texas\index.html` }, "/nodes/0/path", "pattern"},
		{"position as string", func(d map[string]any) { nodeAt(d, 0, 1)["position"] = "1" }, "/nodes/0/children/1/position", "integer"},
		{"position fractional", func(d map[string]any) { nodeAt(d, 0, 1)["position"] = json.Number("1.5") }, "/nodes/0/children/1/position", "integer"},
		{"position negative", func(d map[string]any) { nodeAt(d, 0, 1)["position"] = -1 }, "/nodes/0/children/1/position", "minimum"},
		{"bad format const", func(d map[string]any) { d["format"] = "curex.tree/v2" }, "/format", "curex.tree/v1"},
		{"missing format", func(d map[string]any) { delete(d, "format") }, "", "format"},
		{"bad locale", func(d map[string]any) { d["locale"] = "es_MX" }, "/locale", "pattern"},
		{"resolved_at not a time", func(d map[string]any) { d["resolved_at"] = "yesterday" }, "/resolved_at", ""},
		{"resolved_at not UTC", func(d map[string]any) { d["resolved_at"] = "2026-02-24T12:20:00-06:00" }, "/resolved_at", "pattern"},
		{"resolved_at invalid date", func(d map[string]any) { d["resolved_at"] = "2026-02-30T12:20:00Z" }, "/resolved_at", "date-time"},
		{"empty variant chain", func(d map[string]any) { d["variant_chain"] = []any{} }, "/variant_chain", "minItems"},
		{"attributes not an object", func(d map[string]any) { nodeAt(d, 0)["attributes"] = []any{} }, "/nodes/0/attributes", "object"},
		{"children not an array", func(d map[string]any) { nodeAt(d, 0)["children"] = map[string]any{} }, "/nodes/0/children", "array"},
		{"is_inherited as string", func(d map[string]any) { nodeAt(d, 0)["inheritance"].(map[string]any)["is_inherited"] = "yes" }, "/nodes/0/inheritance/is_inherited", "boolean"},
		{"node_count negative", func(d map[string]any) { d["node_count"] = -3 }, "/node_count", "minimum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := v.Validate(mutate(t, tc.f))
			if err == nil {
				t.Fatal("document accepted")
			}
			var verr *treeschema.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("error %T %v, want *treeschema.ValidationError", err, err)
			}
			found := false
			for _, p := range verr.Problems {
				if p.Location == tc.location && strings.Contains(p.Message+" "+p.Keyword, tc.message) {
					found = true
				}
			}
			if !found {
				t.Errorf("no problem at %q mentioning %q in:\n%v", tc.location, tc.message, err)
			}
			loc := tc.location
			if loc == "" {
				loc = "(document)"
			}
			if !strings.Contains(err.Error(), "\n  "+loc+": ") {
				t.Errorf("error text does not list %s:\n%v", loc, err)
			}
		})
	}
}

// TestSchemaListsEveryProblem checks that several problems are all
// reported, one line each.
func TestSchemaListsEveryProblem(t *testing.T) {
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	err = v.Validate(mutate(t, func(d map[string]any) {
		d["format"] = "x"
		nodeAt(d, 0, 0)["path"] = "../x.html"
		nodeAt(d, 1)["position"] = "first"
	}))
	var verr *treeschema.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("error %v", err)
	}
	var locs []string
	for _, p := range verr.Problems {
		locs = append(locs, p.Location)
	}
	if want := []string{"/format", "/nodes/0/children/0/path", "/nodes/1/position"}; !slices.Equal(locs, want) {
		t.Errorf("problems at %v, want %v; error:\n%v", locs, want, err)
	}
	if lines := strings.Count(err.Error(), "\n"); lines != 3 {
		t.Errorf("error has %d problem lines, want 3:\n%v", lines, err)
	}
}

// TestSchemaAcceptsFreeFormAttributes checks that anything goes inside
// attributes, and that optional members may be left out.
func TestSchemaAcceptsFreeFormAttributes(t *testing.T) {
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	doc := mutate(t, func(d map[string]any) {
		nodeAt(d, 0)["attributes"] = map[string]any{
			"anything": []any{1, "two", nil, map[string]any{"deep": map[string]any{"deeper": true}}},
			"":         "empty name",
			"format":   "not the top-level const",
		}
		for _, k := range []string{"variant_id", "node_count"} {
			delete(d, k)
		}
		for _, k := range []string{"ordinal_label", "type_display", "depth"} {
			delete(nodeAt(d, 0, 1), k)
		}
	})
	if err := v.Validate(doc); err != nil {
		t.Fatal(err)
	}
}

// TestValidateSyntax checks that what is not one JSON value is reported
// as a *treeschema.SyntaxError.
func TestValidateSyntax(t *testing.T) {
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	good := mustEncode(t, baseTree(false))
	for name, data := range map[string][]byte{
		"empty":          nil,
		"truncated":      good[:len(good)/2],
		"trailing value": append(append([]byte{}, good...), "{}"...),
		"trailing junk":  append(append([]byte{}, good...), "x"...),
		"not json":       []byte("<html>"),
		"missing comma":  []byte(`{"a": 1 "b": 2}`),
		"unclosed":       []byte(`{"nodes": [`),
	} {
		err := v.Validate(data)
		var serr *treeschema.SyntaxError
		if !errors.As(err, &serr) {
			t.Errorf("%s: error %T %v, want *treeschema.SyntaxError", name, err, err)
		}
	}
	if err := v.Validate([]byte("[]")); err == nil || !strings.Contains(err.Error(), "(document)") {
		t.Errorf("an array as document: %v", err)
	}
}

// TestValidateConcurrent checks that one Validator serves goroutines at
// once (run with -race).
func TestValidateConcurrent(t *testing.T) {
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{mustEncode(t, baseTree(false)), mustEncode(t, texasTree(false)), mustEncode(t, houstonTree(false))}
	errs := make(chan error, 12)
	for i := 0; i < cap(errs); i++ {
		go func() { errs <- v.Validate(docs[i%len(docs)]) }()
	}
	for i := 0; i < cap(errs); i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
