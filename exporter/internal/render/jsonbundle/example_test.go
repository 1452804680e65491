package jsonbundle_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/jsonbundle"
)

func ExampleEncode() {
	e := model.Export{
		CurriculumID: "101", CurriculumName: "Algebra 1", Variant: "Texas", VariantID: "111",
		Locale: "es", PrimaryLocale: "en", CurriculumSlug: "algebra-1", VariantSlug: "texas", LocaleSlug: "es",
	}
	tree := &model.Tree{
		Export:       e,
		VariantChain: []string{"Algebra 1", "Texas"},
		ETag:         `"abc"`,
		ResolvedAt:   time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC),
		Nodes: []*model.Node{{
			ID:             "alg-u1",
			Title:          "Ecuaciones lineales",
			NodeType:       model.NodeType{Name: "unit", DisplayName: "Unidad", Icon: "book"},
			OrdinalLabel:   "1",
			TypeDisplay:    "Unidad 1",
			WorkflowStatus: model.StatusPublished,
			Attributes: map[string]json.RawMessage{
				"learning_objectives": json.RawMessage(`["Resolver x + 2 = 5"]`),
				"description":         json.RawMessage(`"<p>Ecuaciones & inecuaciones</p>"`),
			},
			Inheritance: model.Inheritance{IsInherited: true, SourceCurriculum: "Algebra 1"},
			Translation: model.Translation{IsTranslated: true, Status: "translated", SourceLocale: "es"},
			Segment:     "alg-u1",
		}},
	}
	out, err := jsonbundle.Encode(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// {
	//   "format": "curex.tree/v1",
	//   "curriculum_id": "101",
	//   "curriculum_name": "Algebra 1",
	//   "variant": "Texas",
	//   "variant_id": "111",
	//   "variant_chain": [
	//     "Algebra 1",
	//     "Texas"
	//   ],
	//   "locale": "es",
	//   "primary_locale": "en",
	//   "etag": "\"abc\"",
	//   "resolved_at": "2026-02-24T18:20:00Z",
	//   "node_count": 1,
	//   "nodes": [
	//     {
	//       "id": "alg-u1",
	//       "title": "Ecuaciones lineales",
	//       "node_type": {
	//         "name": "unit",
	//         "display_name": "Unidad",
	//         "icon": "book"
	//       },
	//       "ordinal_label": "1",
	//       "type_display": "Unidad 1",
	//       "workflow_status": "published",
	//       "position": 0,
	//       "depth": 0,
	//       "attributes": {
	//         "description": "<p>Ecuaciones & inecuaciones</p>",
	//         "learning_objectives": [
	//           "Resolver x + 2 = 5"
	//         ]
	//       },
	//       "inheritance": {
	//         "is_inherited": true,
	//         "source_curriculum": "Algebra 1",
	//         "override_level": 0
	//       },
	//       "translation": {
	//         "is_translated": true,
	//         "status": "translated",
	//         "source_locale": "es"
	//       },
	//       "path": "algebra-1/texas/es/alg-u1/index.html",
	//       "children": []
	//     }
	//   ]
	// }
}
