package sandbox_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/curex/curex/exporter/sandbox"
)

// lift rewrites a decoded resource-form body into the plain form by hand:
// every record (an object with type and attributes) loses type, and the
// members of its attributes move to the top. Relationship references (id
// and type, no attributes) stay. It is the definition TestPlainRecords
// holds the sandbox to.
func lift(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		attrs, isRecord := x["attributes"].(map[string]any)
		_, typed := x["type"]
		isRecord = isRecord && typed
		for k, c := range x {
			switch {
			case isRecord && k == "type":
			case isRecord && k == "attributes":
				for ak, av := range attrs {
					out[ak] = av // the free-form content is not a record: kept whole
				}
			default:
				out[k] = lift(c)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = lift(x[i])
		}
		return out
	}
	return v
}

// TestPlainRecords: with Options.Records set to RecordsPlain every endpoint
// answers what the resource form answers, its records' fields at the top
// and without type; the default form is unchanged.
func TestPlainRecords(t *testing.T) {
	ds := tinyDataset(t)
	resource := newHandler(t, ds, sandbox.Options{Limits: noLimits})
	plain := newHandler(t, tinyDataset(t), sandbox.Options{Limits: noLimits, Records: sandbox.RecordsPlain})
	for _, target := range []string{
		"/api/v1/me",
		"/api/v1/curricula",
		"/api/v1/curricula/b1",
		"/api/v1/curricula/v1",
		"/api/v1/curricula/b1/variants",
		"/api/v1/curricula/b1/locales",
		"/api/v1/curricula/b1/resolved?variant=District&locale=es",
		"/api/v1/content_nodes/u1",
		"/api/v1/content_nodes/l2/resolved?locale=es",
	} {
		t.Run(target, func(t *testing.T) {
			want := lift(mustGet(t, resource, target, tokA))
			got := mustGet(t, plain, target, tokA)
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("plain form:\n got %s\nwant %s", g, w)
			}
		})
	}
	// An error body has no records: the same in both forms.
	if a, b := get(t, resource, "/api/v1/curricula/nope", tokA).Body.String(), get(t, plain, "/api/v1/curricula/nope", tokA).Body.String(); a != b {
		t.Errorf("error bodies differ: %s / %s", a, b)
	}
	if _, err := sandbox.New(ds, sandbox.Options{Records: "flat"}); err == nil {
		t.Error("New accepted the record form \"flat\"")
	}
}
