package watch

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestClassify(t *testing.T) {
	theme := filepath.Join("/", "work", "theme")
	cfg := filepath.Join("/", "work", "curex.yaml")
	tg := Targets{ThemeDir: theme, ConfigFile: cfg}
	for _, tc := range []struct {
		name string
		path string
		want Kind
		ok   bool
	}{
		{"configuration file", cfg, Config, true},
		{"configuration file, unclean", "/work/./curex.yaml", Config, true},
		{"other file beside the configuration", "/work/notes.yaml", 0, false},
		{"template", filepath.Join(theme, "node.html"), Template, true},
		{"stylesheet", filepath.Join(theme, "assets", "custom.css"), Asset, true},
		{"icon", filepath.Join(theme, "assets", "icons", "unit.svg"), Asset, true},
		{"words", filepath.Join(theme, "i18n", "es.json"), Words, true},
		{"readme", filepath.Join(theme, "README.md"), 0, false},
		{"html below the top level", filepath.Join(theme, "reference", "blocks", "node.html"), 0, false},
		{"editor swap file", filepath.Join(theme, "assets", ".custom.css.swp"), 0, false},
		{"editor backup", filepath.Join(theme, "node.html~"), 0, false},
		{"hidden folder", filepath.Join(theme, ".git", "index"), 0, false},
		{"theme folder itself", theme, 0, false},
		{"outside the theme", filepath.Join("/", "work", "themes", "node.html"), 0, false},
		{"parent of the theme", filepath.Join(theme, "..", "node.html"), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tg.Classify(tc.path)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Classify(%s) = %v, %v; want %v, %v", tc.path, got, ok, tc.want, tc.ok)
			}
		})
	}
	if k, ok := (Targets{}).Classify("/x/node.html"); ok {
		t.Errorf("no targets: Classify = %v, true", k)
	}
}

func TestKindString(t *testing.T) {
	for _, tc := range []struct {
		k    Kind
		want string
	}{{0, "none"}, {Asset, "asset"}, {Template | Asset, "asset+template"}, {Config | Words, "words+configuration"}} {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("%d: %q, want %q", tc.k, got, tc.want)
		}
	}
}

// fakeSource is a Source fed by the test.
type fakeSource struct {
	events  chan string
	errs    chan error
	watched []Targets
	fail    error
}

func newFake() *fakeSource {
	return &fakeSource{events: make(chan string), errs: make(chan error)}
}

func (f *fakeSource) Events() <-chan string { return f.events }
func (f *fakeSource) Errors() <-chan error  { return f.errs }
func (f *fakeSource) Watch(t Targets) error {
	if f.fail != nil {
		return f.fail
	}
	f.watched = append(f.watched, t)
	return nil
}

// TestRunDebounces sends bursts of changes in a synctest bubble: each
// burst is one rebuild with its kinds and paths, the files no build reads
// make none, and nothing is rebuilt before the burst has been quiet for
// the debounce interval.
func TestRunDebounces(t *testing.T) {
	const theme = "/t"
	tg := Targets{ThemeDir: theme, ConfigFile: "/c/curex.yaml"}
	for _, tc := range []struct {
		name  string
		burst [][]string // bursts of paths, each sent 10ms apart
		want  []Change
	}{
		{"one save, three events", [][]string{{"/t/node.html", "/t/node.html", "/t/node.html"}},
			[]Change{{Template, []string{"/t/node.html"}}}},
		{"stylesheet then template", [][]string{{"/t/assets/custom.css", "/t/node.html"}},
			[]Change{{Asset | Template, []string{"/t/assets/custom.css", "/t/node.html"}}}},
		{"two bursts", [][]string{{"/t/assets/site.css"}, {"/c/curex.yaml"}},
			[]Change{{Asset, []string{"/t/assets/site.css"}}, {Config, []string{"/c/curex.yaml"}}}},
		{"nothing a build reads", [][]string{{"/t/README.md", "/t/.node.html.swp", "/c/other.yaml"}}, nil},
		{"scratch file among real ones", [][]string{{"/t/.x.swp", "/t/i18n/fr.json"}},
			[]Change{{Words, []string{"/t/i18n/fr.json"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				src := newFake()
				var got []Change
				rebuilt := make(chan Change)
				done := make(chan error, 1)
				go func() {
					done <- Run(ctx, Options{Targets: tg, Source: src, Debounce: 100 * time.Millisecond,
						Rebuild: func(_ context.Context, c Change) Targets { rebuilt <- c; return tg }})
				}()
				for _, burst := range tc.burst {
					for _, p := range burst {
						src.events <- p
						time.Sleep(10 * time.Millisecond) // the bubble's fake clock
					}
					synctest.Wait()
					select {
					case c := <-rebuilt:
						t.Fatalf("rebuilt %+v 10ms after the last change, before the burst was quiet for the interval", c)
					default:
					}
					time.Sleep(90 * time.Millisecond) // the rest of the interval
					synctest.Wait()
					select {
					case c := <-rebuilt:
						got = append(got, c)
					default:
					}
				}
				cancel()
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Errorf("Run returned %v, want context.Canceled", err)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("rebuilds %+v, want %+v", got, tc.want)
				}
			})
		})
	}
}

// TestRunRetargets: a rebuild that names another theme folder moves the
// watch there; changes to the old folder are then ignored.
func TestRunRetargets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		src := newFake()
		first := Targets{ThemeDir: "/old", ConfigFile: "/c.yaml"}
		second := Targets{ThemeDir: "/new", ConfigFile: "/c.yaml"}
		rebuilt := make(chan Change, 4)
		go func() {
			_ = Run(ctx, Options{Targets: first, Source: src, Rebuild: func(_ context.Context, c Change) Targets {
				rebuilt <- c
				return second
			}})
		}()
		src.events <- "/c.yaml"
		time.Sleep(DefaultDebounce)
		synctest.Wait()
		if c := <-rebuilt; c.Kinds != Config {
			t.Fatalf("first rebuild %+v", c)
		}
		src.events <- "/old/node.html"
		src.events <- "/new/node.html"
		time.Sleep(DefaultDebounce)
		synctest.Wait()
		if c := <-rebuilt; !reflect.DeepEqual(c.Paths, []string{"/new/node.html"}) {
			t.Errorf("second rebuild %+v, want the new theme's file only", c)
		}
		if !reflect.DeepEqual(src.watched, []Targets{first, second}) {
			t.Errorf("watched %+v", src.watched)
		}
	})
}

// TestRunSourceErrors: an error of the source is logged and watching goes
// on; a source that cannot watch the targets fails Run at once.
func TestRunSourceErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		src := newFake()
		rebuilt := make(chan Change, 1)
		go func() {
			_ = Run(ctx, Options{Targets: Targets{ThemeDir: "/t"}, Source: src, Rebuild: func(_ context.Context, c Change) Targets {
				rebuilt <- c
				return Targets{ThemeDir: "/t"}
			}})
		}()
		src.errs <- errors.New("queue overflow")
		src.events <- "/t/base.html"
		time.Sleep(DefaultDebounce)
		synctest.Wait()
		if c := <-rebuilt; c.Kinds != Template {
			t.Errorf("after an error: %+v", c)
		}
	})
	bad := newFake()
	bad.fail = errors.New("no such folder")
	if err := Run(t.Context(), Options{Source: bad}); err == nil || err.Error() != "no such folder" {
		t.Errorf("Run with an unwatchable target: %v", err)
	}
}

// FuzzClassify: a path that classifies is the configuration file or a
// file inside the theme folder, never a hidden one, and has one kind.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"/t/node.html", "/t/assets/a.css", "/t/../t/i18n/es.json", "/t/.x", "/c/curex.yaml", "/t", "", "t/node.html", "/t/assets/../node.html"} {
		f.Add(s)
	}
	tg := Targets{ThemeDir: "/t", ConfigFile: "/c/curex.yaml"}
	f.Fuzz(func(t *testing.T, p string) {
		k, ok := tg.Classify(p)
		if !ok {
			if k != 0 {
				t.Fatalf("Classify(%q) = %v, false", p, k)
			}
			return
		}
		switch k {
		case Config:
			if filepath.Clean(p) != "/c/curex.yaml" {
				t.Fatalf("Classify(%q) = configuration", p)
			}
		case Asset, Template, Words:
			rel, err := filepath.Rel("/t", filepath.Clean(p))
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") || strings.HasPrefix(filepath.Base(filepath.Clean(p)), ".") {
				t.Fatalf("Classify(%q) = %v outside the theme or hidden", p, k)
			}
		default:
			t.Fatalf("Classify(%q) = %v, not one kind", p, k)
		}
	})
}
