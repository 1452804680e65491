package xhtml_test

import (
	"fmt"

	"github.com/curex/curex/exporter/internal/render/xhtml"
)

func ExampleConvert() {
	out, err := xhtml.Convert(`<p lang=fr>x<br>y &amp; <math><mi>z</mi></math>`)
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output:
	// <p lang="fr" xml:lang="fr">x<br/>y &amp; <math xmlns="http://www.w3.org/1998/Math/MathML"><mi>z</mi></math></p>
}
