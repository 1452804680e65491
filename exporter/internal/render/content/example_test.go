package content_test

import (
	"encoding/json"
	"fmt"

	"github.com/curex/curex/exporter/internal/render/content"
)

func ExampleConverter_Node() {
	r := content.New()
	attrs := map[string]json.RawMessage{
		"description":         json.RawMessage(`"Solve *linear* equations. <script>alert(1)</script> [Bad](javascript:alert(1))"`),
		"learning_objectives": json.RawMessage(`["Isolate the variable.", "Check the **solution**."]`),
		"estimated_minutes":   json.RawMessage(`45`),
		"vocabulary":          json.RawMessage(`[{"term": "Coefficient", "definition": "The number multiplying a variable."}]`),
		"review_date":         json.RawMessage(`null`),
	}
	html, err := r.Node(attrs, "Linear equations", nil, "n1-")
	if err != nil {
		panic(err)
	}
	fmt.Print(html)
	// Output:
	// <div class="description">
	// <p>Solve <em>linear</em> equations. &lt;script&gt;alert(1)&lt;/script&gt; Bad</p>
	// </div>
	// <section class="objectives">
	// <h2 id="n1--learning-objectives">Learning objectives</h2>
	// <ul>
	// <li>Isolate the variable.</li>
	// <li>Check the <strong>solution</strong>.</li>
	// </ul>
	// </section>
	// <section class="attr attr-estimated-minutes">
	// <h2 id="n1--estimated-minutes">Estimated time</h2>
	// <p class="value">45 min</p>
	// </section>
	// <section class="attr attr-vocabulary">
	// <h2 id="n1--vocabulary">Vocabulary</h2>
	// <dl class="terms">
	// <dt>Coefficient</dt>
	// <dd>The number multiplying a variable.</dd>
	// </dl>
	// </section>
}

func ExamplePlainText() {
	fmt.Println(content.PlainText("# Slope\n\nThe **slope** of a line, in [rise over run](https://example.org).", 30))
	// Output:
	// Slope The slope of a line, in
}
