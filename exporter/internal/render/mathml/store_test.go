package mathml

import (
	"strings"
	"sync"
	"testing"
)

// mapStore is a diskcache.Cache in memory that counts its calls.
type mapStore struct {
	mu         sync.Mutex
	m          map[string]string
	gets, puts int
}

func (s *mapStore) Get(k string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	v, ok := s.m[k]
	return []byte(v), ok
}

func (s *mapStore) Put(k string, v []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	s.m[k] = string(v)
	return nil
}

// TestStoreSparesTheInterpreter: a second Converter sharing a Store gives
// the same MathML without making an interpreter; expression errors are not
// kept; what the Store holds is sanitized again.
func TestStoreSparesTheInterpreter(t *testing.T) {
	store := &mapStore{m: map[string]string{}}
	exprs := []struct {
		tex     string
		display bool
	}{{`x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}`, true}, {`a^2 + b^2 = c^2`, false}, {`a^2 + b^2 = c^2`, true}}
	first := New(Options{Store: store})
	var want []string
	for _, e := range exprs {
		out, err := first.Convert(t.Context(), e.tex, e.display)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, out)
	}
	if _, err := first.Convert(t.Context(), `\frac{`, false); !IsExpressionError(err) {
		t.Fatalf("broken expression: %v, want an expression error", err)
	}
	if store.puts != len(exprs) || len(store.m) != len(exprs) {
		t.Fatalf("store: %d puts, %d entries; want %d of each (inline and display apart, no error kept)", store.puts, len(store.m), len(exprs))
	}

	second := New(Options{Store: store})
	for i, e := range exprs {
		out, err := second.Convert(t.Context(), e.tex, e.display)
		if err != nil || out != want[i] {
			t.Errorf("%q from the store = %q, %v; want %q", e.tex, out, err, want[i])
		}
	}
	if second.made != 0 {
		t.Errorf("the second converter made %d interpreters for expressions the store held", second.made)
	}

	// An entry that is not Temml's (a damaged or planted file) is
	// sanitized like Temml's own output.
	planted := `<math><mi>x</mi><script>alert(1)</script><mi href="javascript:alert(1)" onclick="x()">y</mi></math>`
	store.m[storeKey(second.code(), "planted", false)] = planted
	out, err := second.Convert(t.Context(), "planted", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "javascript:", "onclick"} {
		if strings.Contains(out, bad) {
			t.Errorf("planted entry came out with %s: %s", bad, out)
		}
	}
}

func TestStoreKeys(t *testing.T) {
	code := codeSum()
	if code != codeSum() {
		t.Fatal("codeSum is not stable")
	}
	keys := map[string]bool{}
	for _, k := range []string{
		storeKey(code, "x", false), storeKey(code, "x", true), storeKey(code, "y", false),
		storeKey(code, "x\ntrue\n1:x", false), storeKey("other", "x", false),
	} {
		if keys[k] {
			t.Errorf("two conversions share the key %s", k)
		}
		keys[k] = true
	}
}
