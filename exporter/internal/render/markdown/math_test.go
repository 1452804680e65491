package markdown

import (
	"testing"
)

func TestMathSource(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"prose", "It costs $5 and $10.", "It costs $5 and $10."},
		{"inline", "Solve $a_1 * b_2 = \\frac{x}{y}$ now", "Solve \\(a_1 * b_2 = \\frac{x}{y}\\) now"},
		{"paren stays", "Solve \\(x_1\\) now", "Solve \\(x_1\\) now"},
		{"inline display", "so $$x^2$$ and \\[y\\] here", "so \\(\\displaystyle x^2\\) and \\(\\displaystyle y\\) here"},
		{"dollar block", "A\n\n$$\nx_1 = 2\n$$\n\nB", "A\n\n$$\nx_1 = 2\n$$\n\nB"},
		{"one-line block", "$$x$$", "$$x$$"},
		{"one-line block, paragraph after", "$$y = mx + b$$\nThe slope is $m$.", "$$y = mx + b$$\nThe slope is \\(m\\)."},
		{"one-line bracket block, image after", "\\[y = mx + b\\]\n![A line](u.png)", "$$y = mx + b$$\n![A line](u.png)"},
		{"two displays on one line", "$$a$$ b $$c$$", "\\(\\displaystyle a\\) b \\(\\displaystyle c\\)"},
		{"bracket block", "\\[\n\\begin{cases} a \\\\ b \\end{cases}\n\\]", "$$\n\\begin{cases} a \\\\ b \\end{cases}\n$$"},
		{"fence", "```math\n\\sqrt{2}\n```\n\nafter", "$$\n\\sqrt{2}\n$$\n\nafter"},
		{"fence in list", "- item\n\n  ```math\n  x_1\n  ```", "- item\n\n  $$\n  x_1\n  $$"},
		{"code untouched", "`$x$` and\n\n```\n$y$\n```", "`$x$` and\n\n```\n$y$\n```"},
		{"escaped", `\$5 and $x$`, `\$5 and \(x\)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mathSource(tt.in); got != tt.want {
				t.Errorf("mathSource(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
