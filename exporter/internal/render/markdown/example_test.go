package markdown_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/markdown"
)

// files is a markdown.Writer that keeps files in memory.
type files map[string][]byte

func (f files) Write(rel string, data []byte) error {
	f[rel] = data
	return nil
}

func ExampleWrite() {
	lesson := &model.Node{
		ID: "u1-l1", Title: "Variables & Expressions", TypeDisplay: "Lesson 1",
		WorkflowStatus: model.StatusPublished,
		Attributes: map[string]json.RawMessage{
			"description":         json.RawMessage(`"A **variable** stands for a number."`),
			"learning_objectives": json.RawMessage(`["Define *variable*.", "Write expressions."]`),
			"estimated_minutes":   json.RawMessage(`45`),
		},
	}
	unit := &model.Node{
		ID: "u1", Title: "Foundations of Algebra", TypeDisplay: "Unit 1",
		WorkflowStatus: model.StatusPublished, Children: []*model.Node{lesson},
	}
	tree := &model.Tree{
		Export: model.Export{
			CurriculumID: "101", CurriculumName: "Algebra 1", VariantID: "101",
			Locale: "en", PrimaryLocale: "en",
			CurriculumSlug: "algebra-1", VariantSlug: "base", LocaleSlug: "en",
		},
		VariantChain: []string{"Algebra 1"},
		ResolvedAt:   time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC),
		Nodes:        []*model.Node{unit},
	}

	out := files{}
	entry, err := markdown.Write(out, tree.PublishedOnly(), markdown.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d files in %s, archive %s\n", entry.Files, entry.Dir, entry.Zip)
	for _, name := range slices.Sorted(maps.Keys(out)) {
		fmt.Println(name)
	}
	page := string(out[entry.Dir+"01-foundations-of-algebra/01-variables-expressions.md"])
	_, body, _ := strings.Cut(page, "---\n\n")
	fmt.Print(body)
	// Output:
	// 4 files in bundles/algebra-1/base/en/markdown/, archive bundles/algebra-1/base/en/markdown.zip
	// bundles/algebra-1/base/en/markdown.zip
	// bundles/algebra-1/base/en/markdown/01-foundations-of-algebra/01-variables-expressions.md
	// bundles/algebra-1/base/en/markdown/01-foundations-of-algebra/index.md
	// bundles/algebra-1/base/en/markdown/SUMMARY.md
	// bundles/algebra-1/base/en/markdown/index.md
	// # Variables &amp; Expressions
	//
	// A **variable** stands for a number.
	//
	// ## Learning objectives
	//
	// - Define *variable*.
	// - Write expressions.
	//
	// ## Estimated time
	//
	// 45 min
}
