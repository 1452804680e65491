package treeschema_test

import (
	"fmt"

	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
)

func ExampleValidator_Validate() {
	v, err := treeschema.NewValidator()
	if err != nil {
		fmt.Println(err)
		return
	}
	err = v.Validate([]byte(`{"format": "curex.tree/v1", "curriculum_id": "101", "nodes": "none"}`))
	fmt.Println(err)
	// Output:
	// treeschema: tree.json does not match the curex.tree/v1 schema (2 problems):
	//   (document): missing properties 'curriculum_name', 'variant', 'variant_chain', 'locale', 'primary_locale', 'etag', 'resolved_at' [schema /required]
	//   /nodes: got string, want array [schema /properties/nodes/type]
}
