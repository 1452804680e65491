package content

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
	"golang.org/x/net/html"
)

// codeStore is a code cache in memory that counts its calls.
type codeStore struct {
	mu               sync.Mutex
	m                map[string][]byte
	gets, hits, puts int
}

func (s *codeStore) Get(k string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	v, ok := s.m[k]
	if ok {
		s.hits++
	}
	return v, ok
}

func (s *codeStore) Put(k string, v []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	s.m[k] = bytes.Clone(v)
	return nil
}

// codeDoc has code blocks in several languages (the same one twice), one
// in a language no lexer knows and one with no language.
const codeDoc = "Some `code`:\n\n```python\ndef f(x):\n    return '<a>' & \"b\"  # c\n```\n\n" +
	"```go\nvar s = `raw {{ .X }}`\n```\n\n```python\ndef f(x):\n    return '<a>' & \"b\"  # c\n```\n\n" +
	"```js\nconst a = b < c && d > e;\n```\n\n```nosuchlanguage\n<b>plain</b>\n```\n\n```\nno language\n```\n"

// TestCodeCacheGivesTheSameBytes: a Converter with a code cache writes
// what one without writes; a second Converter sharing the cache
// highlights nothing again, and writes the same bytes.
func TestCodeCacheGivesTheSameBytes(t *testing.T) {
	want, err := New().Markdown(codeDoc, "p-")
	if err != nil {
		t.Fatal(err)
	}
	store := &codeStore{m: map[string][]byte{}}
	got, err := New(WithCodeCache(store)).Markdown(codeDoc, "p-")
	if err != nil || got != want {
		t.Fatalf("with a code cache:\n%s\n%v\nwant\n%s", got, err, want)
	}
	// python, go, js highlighted and kept once each; the second python
	// block is read back.
	if store.puts != 3 || len(store.m) != 3 || store.hits != 1 {
		t.Fatalf("first converter: %d puts, %d entries, %d hits; want 3, 3, 1", store.puts, len(store.m), store.hits)
	}
	for k, v := range store.m {
		if !ValidHighlight(v) {
			t.Errorf("entry %s is not valid highlighting: %q", k, v)
		}
	}
	again, err := New(WithCodeCache(store)).Markdown(codeDoc, "p-")
	if err != nil || again != want {
		t.Fatalf("from the code cache:\n%s\n%v\nwant\n%s", again, err, want)
	}
	if store.puts != 3 || store.hits != 5 {
		t.Errorf("second converter: %d puts, %d hits in all; want no new put, 4 more hits", store.puts, store.hits)
	}
}

// TestCodeCacheRefusesPlantedMarkup: an entry that is not highlighting
// (a file planted or damaged in the cache folder) is a miss: the block
// is highlighted again, and no element of the entry reaches the page.
func TestCodeCacheRefusesPlantedMarkup(t *testing.T) {
	const doc = "```python\nx = 1\n```\n"
	want, err := New().Markdown(doc, "p-")
	if err != nil {
		t.Fatal(err)
	}
	store := &codeStore{m: map[string][]byte{}}
	key := highlightKey(highlightSum(), "python", []byte("x = 1\n"))
	for _, planted := range []string{
		`<script>alert(1)</script>`,
		`<span class="k" onclick="x()">x</span>`,
		`<span class="k">x`,
		`x</span>`,
		`<img src=x onerror=alert(1)>`,
		"a & b",
		"\xff",
	} {
		store.m[key] = []byte(planted)
		got, err := New(WithCodeCache(store)).Markdown(doc, "p-")
		if err != nil || got != want {
			t.Errorf("planted %q: got\n%s\n%v\nwant\n%s", planted, got, err, want)
		}
	}
}

// TestValidHighlightAcceptsEveryLexer: what curex's highlighting writes
// is valid highlighting for every lexer it has, on text with every
// character HTML escapes; else that language would never be read back.
func TestValidHighlightAcceptsEveryLexer(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every lexer")
	}
	c := New()
	const text = "x = \"a<b>&'c'\" # d\n\tfoo(1); /* e */ <p class=\"q\">&amp;</p>\n"
	for _, l := range c.hl.registry.Lexers {
		tokens, err := c.hl.tokenise(chroma.Coalesce(l), text)
		if err != nil {
			continue // a lexer that loops on it: shown plain, never kept
		}
		var out bytes.Buffer
		if err := c.chroma.Format(&out, styles.Get(lightStyle), chroma.Literator(tokens...)); err != nil {
			t.Fatalf("%s: %v", l.Config().Name, err)
		}
		if !ValidHighlight(out.Bytes()) {
			t.Errorf("%s: not valid highlighting: %q", l.Config().Name, out.Bytes())
		}
	}
}

// TestHighlightVersionFollowsGoMod fails when go.mod requires another
// chroma or regexp2 than highlightModules names: the code cache's keys
// must change with them. Set highlightModules to go.mod's versions.
func TestHighlightVersionFollowsGoMod(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"github.com/alecthomas/chroma/v2", "github.com/dlclark/regexp2/v2"} {
		m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(path) + `\s+(\S+)`).FindSubmatch(mod)
		if m == nil {
			t.Fatalf("go.mod does not require %s", path)
		}
		if line := path + " " + string(m[1]); !strings.Contains("\n"+highlightModules+"\n", "\n"+line+"\n") {
			t.Errorf("go.mod requires %s; highlightModules says %q", line, highlightModules)
		}
	}
}

// FuzzValidHighlight: ValidHighlight never panics, and what it accepts
// is, to an HTML parser, text and <span> elements with a class alone.
func FuzzValidHighlight(f *testing.F) {
	f.Add([]byte(`<span class="line"><span class="cl"><span class="k">def</span> &lt;&amp;&#39;&#34;&gt;</span></span>`))
	f.Add([]byte(`<span class="k" onclick="x">`))
	f.Add([]byte(`<span class="">x</span></span>`))
	f.Add([]byte(`&amp`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !ValidHighlight(b) {
			return
		}
		z := html.NewTokenizer(bytes.NewReader(append([]byte("<pre><code>"), b...)))
		for {
			tt := z.Next()
			switch tt {
			case html.ErrorToken:
				return
			case html.TextToken:
			case html.StartTagToken, html.EndTagToken:
				name, more := z.TagName()
				if string(name) == "pre" || string(name) == "code" {
					continue
				}
				if string(name) != "span" {
					t.Fatalf("accepted %q: it has a <%s>", b, name)
				}
				for more {
					var key []byte
					key, _, more = z.TagAttr()
					if string(key) != "class" {
						t.Fatalf("accepted %q: a span has %s", b, key)
					}
				}
			default:
				t.Fatalf("accepted %q: it has a %v", b, tt)
			}
		}
	})
}

// TestHighlightKeys: the key changes with the language, the code and
// the version of the highlighting, and parts cannot be shifted into each
// other.
func TestHighlightKeys(t *testing.T) {
	sum := highlightSum()
	if sum != highlightSum() {
		t.Fatal("highlightSum is not stable")
	}
	keys := map[string]string{}
	for name, k := range map[string]string{
		"python x":      highlightKey(sum, "python", []byte("x\n")),
		"py x":          highlightKey(sum, "py", []byte("x\n")),
		"python y":      highlightKey(sum, "python", []byte("y\n")),
		"other version": highlightKey("other", "python", []byte("x\n")),
		"shifted":       highlightKey(sum, "python\n2:x", nil),
	} {
		if other, dup := keys[k]; dup {
			t.Errorf("%s and %s share a key", name, other)
		}
		keys[k] = name
	}
}
