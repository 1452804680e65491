package handbook_test

import (
	"encoding/json"
	"fmt"
	"log"
	"regexp"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render/handbook"
)

// A handbook of a tiny curriculum: the cover, the table of contents and
// each node's heading, numbered by the API's type_display.
func ExampleRenderer_Render() {
	r, err := handbook.New(handbook.Options{Generator: "curex 0.1.0"})
	if err != nil {
		log.Fatal(err)
	}
	lesson := &model.Node{
		ID: "l1", Title: "Variables", TypeDisplay: "Lesson 1", WorkflowStatus: model.StatusPublished,
		Attributes:  map[string]json.RawMessage{"description": json.RawMessage(`"A *variable* stands for a number."`)},
		Translation: model.Translation{IsTranslated: true},
	}
	unit := &model.Node{
		ID: "u1", Title: "Foundations", TypeDisplay: "Unit 1", WorkflowStatus: model.StatusPublished,
		Translation: model.Translation{IsTranslated: true}, Children: []*model.Node{lesson},
	}
	t := &model.Tree{
		Export: model.Export{CurriculumName: "Algebra 1", Variant: "Texas", Locale: "en", PrimaryLocale: "en",
			CurriculumSlug: "algebra-1", VariantSlug: "texas", LocaleSlug: "en"},
		VariantChain: []string{"Algebra 1", "Texas"},
		Nodes:        []*model.Node{unit},
	}
	out, err := r.Render(t, handbook.Info{
		LocaleName:  "English",
		ContentDate: time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC),
	})
	if err != nil {
		log.Fatal(err)
	}
	heading := regexp.MustCompile(`^<h[1-6][ >]`)
	for _, line := range strings.Split(string(out), "\n") {
		if heading.MatchString(line) || strings.Contains(line, "<time") || strings.HasPrefix(line, `<li><a href="#`) {
			fmt.Println(line)
		}
	}
	// Output:
	// <h1 class="hb-cover__title"><bdi>Algebra 1</bdi></h1>
	// <dd><time datetime="2026-02-24">February 24, 2026</time></dd></div>
	// <h2 id="hb-toc-title">Table of contents</h2>
	// <li><a href="#n0"><span class="hb-toc__label">Unit 1</span> <bdi class="hb-toc__title">Foundations</bdi></a>
	// <li><a href="#n1"><span class="hb-toc__label">Lesson 1</span> <bdi class="hb-toc__title">Variables</bdi></a></li>
	// <h2 class="hb-title"><span class="hb-label">Unit 1</span> <bdi class="hb-title__text">Foundations</bdi></h2>
	// <h3 class="hb-title"><span class="hb-label">Lesson 1</span> <bdi class="hb-title__text">Variables</bdi></h3>
}
