package mathml

import (
	"fmt"
	"strings"
)

// The work budget of one expression. Temml bounds macro expansions
// (maxExpand) but not what they produce, nor the work of reading it: 390
// bytes of \def can make 240,000 tokens, and Temml reads each argument
// twice (scanArgument takes it off the stack, then pushes it back), so a
// nest of \frac costs the square of its depth; and an element's markup
// grows with its content times its depth. A Converter counts, in the
// interpreter, the three quantities that grow with that work (token
// steps, elements, bytes of markup) and stops the expression once any is
// over its bound: the counts depend on the expression alone, so an
// expression over budget fails in the same way on every machine, whatever
// its load. Real 4 KiB formulas use at most about 14,000 steps and 2,400
// elements. See docs/BENCHMARKS.md for the figures the bounds come from.
const (
	// maxTokenSteps bounds the tokens Temml's macro expander hands out or
	// takes back (popToken, pushToken, pushTokens), which is where
	// reading, expanding and re-reading arguments spend their time.
	maxTokenSteps = 100_000
	// maxNodes bounds the MathML elements Temml builds.
	maxNodes = 6_000
	// maxMarkupBytes bounds the MathML Temml writes, each element's
	// content counted once for every element it is inside (that is what
	// writing it costs: each element copies its content into its own).
	maxMarkupBytes = 8 << 20
)

// BudgetError is the error of an expression whose conversion would cost
// more than its bounded work: it is the expression's alone, like a
// ParseError, and fails the same on every machine.
type BudgetError struct {
	// What is the quantity over its bound: "token steps", "MathML
	// elements" or "bytes of MathML".
	What string
	// Limit is the bound.
	Limit int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("mathml: formula too large: more than %d %s", e.Limit, e.What)
}

// Names the patched Temml and renderJS share in an interpreter's global
// scope: counters and their bounds, reset before each conversion, and the
// Go function that stops a conversion over budget.
const (
	jsSteps    = "__curexSteps"
	jsNodes    = "__curexNodes"
	jsMaxSteps = "__curexMaxSteps"
	jsMaxNodes = "__curexMaxNodes"
	jsBytes    = "__curexBytes"
	jsMaxBytes = "__curexMaxBytes"
	jsOver     = "__curexOver"
)

// A patch is an exact string of the vendored Temml and what replaces it.
type patch struct {
	old, new string
}

// budgetPatches insert the budget's counters into Temml 0.13.5's
// minified source: the vendored file stays byte for byte as npm ships it
// (its SHA-256 is checked when vendored), and the patches are applied
// when a Converter compiles it. Each old string must occur exactly once;
// when Temml is re-vendored and one does not, compiling fails (see
// TestBudgetPatches) and the patch must be redone for the new source.
var budgetPatches = []patch{
	{ // MacroExpander.popToken: every token read.
		old: `popToken(){return this.future(),this.stack.pop()}`,
		new: `popToken(){return ++` + jsSteps + `>` + jsMaxSteps + `&&` + jsOver + `(0),this.future(),this.stack.pop()}`,
	},
	{ // MacroExpander.pushToken: a token put back.
		old: `pushToken(e){this.stack.push(e)}`,
		new: `pushToken(e){++` + jsSteps + `>` + jsMaxSteps + `&&` + jsOver + `(0),this.stack.push(e)}`,
	},
	{ // MacroExpander.pushTokens: a macro's expansion, an argument put back.
		old: `pushTokens(e){this.stack.push(...e)}`,
		new: `pushTokens(e){(` + jsSteps + `+=e.length)>` + jsMaxSteps + `&&` + jsOver + `(0),this.stack.push(...e)}`,
	},
	{ // MathNode's constructor: every MathML element built.
		old: `class C{constructor(e,t,r,n){this.type=e,`,
		new: `class C{constructor(e,t,r,n){++` + jsNodes + `>` + jsMaxNodes + `&&` + jsOver + `(1),this.type=e,`,
	},
	{ // MathNode.toMarkup: an element's content, written. Temml appends
		// each child's markup to a string, which copies the string each
		// time, so an element of n children costs n² (9,000 letters from
		// 100 bytes of \def took 4 s); joining them once costs n and
		// writes the same string.
		old: `t&&(e+=` + "` style=\"${t}\"`" + `),e+=">";for(let t=0;t<this.children.length;t++)e+=this.children[t].toMarkup();return e+="</"+this.type+">",e}`,
		new: `t&&(e+=` + "` style=\"${t}\"`" + `),e+=">";const k=this.children.map(c=>c.toMarkup()).join("");(` + jsBytes + `+=k.length)>` + jsMaxBytes + `&&` + jsOver + `(2);return e+=k,e+="</"+this.type+">",e}`,
	},
}

// mhchemPatches count the work of Temml's mhchem extension (\ce, \pu)
// in the same token steps: its parser reads the argument's text as a
// string, outside Temml's macro expander, and calls itself on the parts of
// what it has read, and its writer (texify) on the parts of what it has
// parsed, so that a nest such as \pu{kJ/kJ/…} costs the square of its
// length (1,300 units took minutes before it was counted). Each parse
// counts the characters it is given, each write the items it is given, and each turn of the parser's loop one step and
// one for each 8 characters it has left to read: an expression over budget
// stops there, like any other. Applied to mhchem.min.js when a Converter compiles it, as
// budgetPatches are to Temml.
var mhchemPatches = []patch{
	{ // mhchemParser.go: a string to parse, whole or in part.
		old: `go:function(t,e){if(!t)return[];`,
		new: `go:function(t,e){if(!t)return[];(` + jsSteps + `+=t.length)>` + jsMaxSteps + `&&` + jsOver + `(0);`,
	},
	{ // mhchemParser.go's loop: one turn of the state machine, which
		// tries its patterns on what is left of the string (t): one step,
		// and one for each 8 characters left.
		old: `for(var o=10,i=[];;){`,
		new: `for(var o=10,i=[];;){(` + jsSteps + `+=1+(t.length>>3))>` + jsMaxSteps + `&&` + jsOver + `(0);`,
	},
	{ // texify.go: parsed items to write as TeX.
		old: `go:function(t,e){if(!t)return"";`,
		new: `go:function(t,e){if(!t)return"";(` + jsSteps + `+=t.length)>` + jsMaxSteps + `&&` + jsOver + `(0);`,
	},
}

// patchTemml returns src with patches applied, or an error naming the
// first patch whose string does not occur exactly once.
func patchTemml(src string, patches []patch) (string, error) {
	for _, p := range patches {
		if n := strings.Count(src, p.old); n != 1 {
			return "", fmt.Errorf("mathml: patch temml: %q occurs %d times, want once (re-vendored Temml? redo budgetPatches)", p.old, n)
		}
		src = strings.Replace(src, p.old, p.new, 1)
	}
	return src, nil
}

// budgetError returns the error of the budget's quantity i, the index
// the patched code passes to jsOver: 0 for token steps, 1 for elements,
// 2 for bytes of markup.
func budgetError(i int64) *BudgetError {
	switch i {
	case 1:
		return &BudgetError{What: "MathML elements", Limit: maxNodes}
	case 2:
		return &BudgetError{What: "bytes of MathML", Limit: maxMarkupBytes}
	}
	return &BudgetError{What: "token steps", Limit: maxTokenSteps}
}
