package printcache

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/layout"
)

const pdf = "%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"

func TestGetPut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pdf")
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := Key([]byte("<h1>Algebra</h1>"), chromium.PDFOptions{Outline: true}, "HeadlessChrome/148 @1")
	if _, ok := s.Get(key); ok {
		t.Fatal("Get on an empty store found an entry")
	}
	if err := s.Put(key, []byte(pdf)); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Get(key)
	if !ok || string(got) != pdf {
		t.Fatalf("Get = %q, %v; want the PDF put", got, ok)
	}
	// The PDF is stored as it is, named by its key: the files of the
	// stores before package diskcache are still found.
	if data, err := os.ReadFile(filepath.Join(dir, key+layout.PrintExt)); err != nil || string(data) != pdf {
		t.Errorf("the entry's file = %q, %v; want the bare PDF", data, err)
	}

	tests := []struct {
		name string
		key  string
		data string
	}{
		{"not a PDF", "", "<html>"},
		{"torn PDF", "", pdf[:20]},
		{"malformed key", "../../etc/passwd", pdf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := tt.key
			if k == "" {
				k = Key([]byte(tt.name), chromium.PDFOptions{}, "")
			}
			if err := s.Put(k, []byte(tt.data)); err == nil {
				t.Errorf("Put(%q, %q) succeeded, want an error", k, tt.data)
			}
			if _, ok := s.Get(k); ok {
				t.Errorf("Get(%q) found an entry", k)
			}
		})
	}

	t.Run("damaged entry is a miss", func(t *testing.T) {
		k := Key([]byte("damaged"), chromium.PDFOptions{}, "")
		if err := s.Put(k, []byte(pdf)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, k+layout.PrintExt), []byte(pdf[:30]), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Get(k); ok {
			t.Error("Get returned a truncated PDF")
		}
	})
}

// TestKeyCoversEveryOption fails when PDFOptions gains a field that the
// key does not take in: a print with the new option would be served the
// PDF printed without it.
func TestKeyCoversEveryOption(t *testing.T) {
	html := []byte("<p>same</p>")
	base := Key(html, chromium.PDFOptions{}, "v1")
	seen := map[string]string{base: "zero options"}
	typ := reflect.TypeFor[chromium.PDFOptions]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		var o chromium.PDFOptions
		v := reflect.ValueOf(&o).Elem().Field(i)
		switch f.Type.Kind() {
		case reflect.String:
			v.SetString("letter")
		case reflect.Bool:
			v.SetBool(true)
		default:
			if f.Type == reflect.TypeFor[time.Time]() {
				v.Set(reflect.ValueOf(time.Date(2026, 2, 24, 18, 20, 0, 0, time.UTC)))
				break
			}
			if f.Type == reflect.TypeFor[chromium.Access]() {
				// Dirs name the temporary folder of the copy: not in the key.
				v.Set(reflect.ValueOf(chromium.Access{Remote: func(context.Context, string) ([]byte, error) { return nil, nil }}))
				break
			}
			t.Fatalf("PDFOptions.%s has a type (%s) this test does not know: make Key take it in, then the test", f.Name, f.Type)
		}
		k := Key(html, o, "v1")
		if other, dup := seen[k]; dup {
			t.Errorf("setting PDFOptions.%s gives the same key as %s", f.Name, other)
		}
		seen[k] = f.Name
	}
	for name, k := range map[string]string{
		"another browser":  Key(html, chromium.PDFOptions{}, "v2"),
		"another document": Key([]byte("<p>other</p>"), chromium.PDFOptions{}, "v1"),
		// The same bytes split otherwise between parts.
		"shifted parts": Key([]byte("v1"), chromium.PDFOptions{Paper: "<p>same</p>"}, ""),
	} {
		if other, dup := seen[k]; dup {
			t.Errorf("%s gives the same key as %s", name, other)
		}
		seen[k] = name
	}
	a, b := Key(html, chromium.PDFOptions{Outline: true}, "v1"), Key(bytes.Clone(html), chromium.PDFOptions{Outline: true}, "v1")
	if a != b {
		t.Error("Key is not a function of its input")
	}
}
