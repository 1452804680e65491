package attrs_test

import (
	"encoding/json"
	"fmt"

	"github.com/curex/curex/exporter/internal/render/attrs"
)

// A node's attributes come out as sections in reading order; the title,
// equal to the node's, and the null member are left out.
func ExampleParse() {
	members := map[string]json.RawMessage{
		"title":               json.RawMessage(`"Linear equations"`),
		"rubric":              json.RawMessage(`[{"criterion":"Correct","points":3},{"criterion":"Clear","points":1}]`),
		"learning_objectives": json.RawMessage(`["Solve one-step equations"]`),
		"description":         json.RawMessage(`"Students *solve* equations."`),
		"notes":               json.RawMessage(`null`),
	}
	for _, s := range attrs.Parse(members, "Linear equations") {
		v := s.Value
		switch v.Kind {
		case attrs.Text:
			fmt.Printf("%s: text %q, lead %v\n", s.Key, v.Text, s.Lead)
		case attrs.List:
			fmt.Printf("%s: list of %d\n", s.Key, len(v.Items))
		case attrs.Table:
			fmt.Printf("%s: table %q of %d rows\n", s.Key, v.Columns, len(v.Items))
		}
	}
	// Output:
	// description: text "Students *solve* equations.", lead true
	// learning_objectives: list of 1
	// rubric: table ["criterion" "points"] of 2 rows
}
