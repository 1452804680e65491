package api_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
)

// TestNestingLimit: a body nested deeper than api.MaxNesting is a
// *DecodeError that says so and is not worth a retry; one at the limit
// decodes; brackets inside strings do not count.
func TestNestingLimit(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name    string
		body    string
		tooDeep bool
	}{
		{"at the limit", nested(api.MaxNesting), false},
		{"one deeper", nested(api.MaxNesting + 1), true},
		{"objects", strings.Repeat(`{"a":`, api.MaxNesting+1) + "1" + strings.Repeat("}", api.MaxNesting+1), true},
		{"brackets in a string", `["` + strings.Repeat(`[{\"`, api.MaxNesting+1) + `"]`, false},
		{"a deep resolved tree", `{"data":{"id":"c","type":"resolved_curriculum","relationships":{"content_nodes":{"data":[` +
			strings.Repeat(`{"id":"n","children":[`, api.MaxNesting/2) + strings.Repeat(`]}`, api.MaxNesting/2) + `]}}}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := api.Decode([]byte(tt.body), nil)
			var de *api.DecodeError
			switch {
			case tt.tooDeep && (!errors.Is(err, api.ErrTooDeep) || !errors.As(err, &de)):
				t.Fatalf("err = %v, want a *DecodeError wrapping ErrTooDeep", err)
			case tt.tooDeep && api.Retryable(err):
				t.Errorf("%v is retryable: the same body would come again", err)
			case tt.tooDeep && !strings.Contains(err.Error(), "nests too deeply: more than 10000 levels"):
				t.Errorf("message %q", err)
			case !tt.tooDeep && err != nil:
				t.Fatalf("err = %v, want none", err)
			}
		})
	}
	// A cut body is still worth a retry.
	if err := api.Decode([]byte(`{"data":[1,2`), nil); !api.Retryable(err) || errors.Is(err, api.ErrTooDeep) {
		t.Errorf("a cut body: %v, retryable %v", err, api.Retryable(err))
	}
}
