package treeschema

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"testing"
)

// TestSchemaCopyInSync fails when the embedded schema and the one shipped
// in docs/ differ: copy docs/schema/tree.schema.json over the package's
// tree.schema.json (or the other way round) after editing either.
func TestSchemaCopyInSync(t *testing.T) {
	docs, err := os.ReadFile("../../../../../docs/schema/tree.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, schemaJSON) {
		t.Fatal("docs/schema/tree.schema.json and exporter/render/jsonbundle/treeschema/tree.schema.json differ; keep them identical")
	}
	if !bytes.Equal(SchemaJSON(), schemaJSON) {
		t.Fatal("SchemaJSON does not return the embedded schema")
	}
	s := SchemaJSON()
	s[0] = 'x'
	if schemaJSON[0] == 'x' {
		t.Fatal("SchemaJSON returns the embedded bytes themselves")
	}
}

// TestSchemaFormat checks that the format named in error messages is the
// schema's properties.format.const, and its $id SchemaID.
func TestSchemaFormat(t *testing.T) {
	var doc struct {
		ID         string `json:"$id"`
		Properties struct {
			Format struct {
				Const string `json:"const"`
			} `json:"format"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Properties.Format.Const != format {
		t.Errorf("the schema's format is %q, the package says %q", doc.Properties.Format.Const, format)
	}
	if doc.ID != SchemaID {
		t.Errorf("the schema's $id is %q, SchemaID %q", doc.ID, SchemaID)
	}
}

func TestCompareTokens(t *testing.T) {
	locs := [][]string{{"nodes", "10"}, {"nodes", "2", "path"}, {"format"}, {}, {"nodes", "2"}, {"nodes", "10", "children", "0"}}
	slices.SortFunc(locs, compareTokens)
	var got []string
	for _, l := range locs {
		got = append(got, pointerOf(l))
	}
	if want := []string{"", "/format", "/nodes/2", "/nodes/2/path", "/nodes/10", "/nodes/10/children/0"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	if p := pointerOf([]string{"a/b", "c~d"}); p != "/a~1b/c~0d" {
		t.Errorf("pointerOf escapes to %q", p)
	}
}

// TestDecodeBothWays checks that the fast and the token-by-token decoder
// read a document alike: jsonbundle's golden bundles, the schema itself
// and a small document of every kind of value.
func TestDecodeBothWays(t *testing.T) {
	docs := [][]byte{schemaJSON, []byte(`[1, "a", {"b": [true, null, {}]}, [], -2.5e3]`)}
	for _, name := range []string{"texas-es", "houston-isd-ar", "base-en"} {
		data, err := os.ReadFile("../testdata/" + name + ".golden.json")
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, data)
	}
	for _, data := range docs {
		fast, err := decode(data)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := decodeTokens(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("decoders disagree on %.200s", data)
		}
	}
}
