package api_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
)

// TestPlainRecordsDecodeAlike: every endpoint's answer decodes to the same
// value whether the server writes its records as resource objects or as
// plain objects with the fields at the top (spec 2.4 describes the locale
// entry by its fields, with no type). Before the plain form was read, a
// locale entry's code came out "".
func TestPlainRecordsDecodeAlike(t *testing.T) {
	resource, err := sandbox.New(tinyDataset(t), sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := sandbox.New(tinyDataset(t), sandbox.Options{Limits: ratelimit.Limits{}, Records: sandbox.RecordsPlain})
	if err != nil {
		t.Fatal(err)
	}
	body := func(h http.Handler, target string) []byte {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Header.Set("Authorization", "Bearer "+tokA)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	for _, tc := range []struct {
		target string
		v      func() any
	}{
		{"/api/v1/me", func() any { return new(api.User) }},
		{"/api/v1/curricula", func() any { return new(api.CurriculumPage) }},
		{"/api/v1/curricula/b1", func() any { return new(api.CurriculumDetail) }},
		{"/api/v1/curricula/v1", func() any { return new(api.CurriculumDetail) }},
		{"/api/v1/curricula/b1/variants", func() any { return new(api.VariantList) }},
		{"/api/v1/curricula/b1/locales", func() any { return new(api.LocaleList) }},
		{"/api/v1/curricula/b1/resolved?variant=District&locale=es", func() any { return new(api.ResolvedCurriculum) }},
		{"/api/v1/content_nodes/u1", func() any { return new(api.NodeDetail) }},
		{"/api/v1/content_nodes/l2/resolved?locale=es", func() any { return new(api.ResolvedNode) }},
	} {
		t.Run(tc.target, func(t *testing.T) {
			want, got := tc.v(), tc.v()
			if err := api.Decode(body(resource, tc.target), want); err != nil {
				t.Fatal(err)
			}
			if err := api.Decode(body(plain, tc.target), got); err != nil {
				t.Fatalf("plain form: %v", err)
			}
			if reflect.ValueOf(want).Elem().IsZero() {
				t.Fatal("the resource form decoded to nothing: the case proves nothing")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("plain form decodes to\n%+v\nresource form to\n%+v", got, want)
			}
		})
	}
}

// TestPlainRecordShapes: handcrafted plain records, including the cases
// where the member attributes is a content node's free-form content rather
// than the record's fields.
func TestPlainRecordShapes(t *testing.T) {
	t.Run("locale entries", func(t *testing.T) {
		var l api.LocaleList
		if err := api.Decode([]byte(`{"data":[{"code":"pt_BR","name":"Português","is_primary":"true","translation_progress":"40"},{"id":"x","type":"locale","attributes":{"code":"es"}}]}`), &l); err != nil {
			t.Fatal(err)
		}
		want := []api.Locale{{Code: "pt_BR", Name: "Português", IsPrimary: true, TranslationProgress: 40}, {Code: "es"}}
		if !reflect.DeepEqual(l.Locales, want) || l.PrimaryLocale != "pt_BR" {
			t.Errorf("locales %+v primary %q", l.Locales, l.PrimaryLocale)
		}
	})
	t.Run("node with free-form attributes", func(t *testing.T) {
		var d api.NodeDetail
		if err := api.Decode([]byte(`{"data":{"id":"n","title":"T","position":2,"attributes":{"title":"free","description":"d"},"relationships":{"children":{"data":[{"id":"k","title":"K","has_children":true}]}}}}`), &d); err != nil {
			t.Fatal(err)
		}
		if d.Node.Title != "T" || d.Node.Position != 2 || string(d.Node.Attributes["description"]) != `"d"` || len(d.Children) != 1 || d.Children[0].Title != "K" || !d.Children[0].HasChildren {
			t.Errorf("node %+v", d)
		}
	})
	t.Run("resolved tree with free-form attributes", func(t *testing.T) {
		var r api.ResolvedCurriculum
		if err := api.Decode([]byte(`{"data":{"id":"c","name":"C","locale":"es","children":[{"id":"a","title":"A","position":0,"attributes":{"title":{"es":"object"}},
			"translation_metadata":{"source_locale":"es"},"children":[{"id":"b","title":"B"}]}]}}`), &r); err != nil {
			t.Fatal(err)
		}
		if r.Name != "C" || r.Locale != "es" || len(r.Nodes) != 1 || r.Nodes[0].Title != "A" || r.Nodes[0].Translation.SourceLocale != "es" ||
			string(r.Nodes[0].Attributes["title"]) != `{"es":"object"}` || len(r.Nodes[0].Children) != 1 || r.Nodes[0].Children[0].Title != "B" {
			t.Errorf("resolved %+v", r)
		}
	})
	t.Run("resource form keeps its errors", func(t *testing.T) {
		err := api.Decode([]byte(`{"data":{"id":"n","attributes":{"title":{"en":"x"}}}}`), new(api.NodeDetail))
		if err == nil {
			t.Fatal("a title of the wrong kind decoded")
		}
	})
}
