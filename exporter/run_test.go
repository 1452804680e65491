package exporter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

const token = "sandbox-riverbend-token"

type bundle struct {
	CurriculumID string   `json:"curriculum_id"`
	Variant      string   `json:"variant"`
	VariantID    string   `json:"variant_id"`
	VariantChain []string `json:"variant_chain"`
	Locale       string   `json:"locale"`
	ETag         string   `json:"etag"`
	Nodes        []bnode  `json:"nodes"`
}

type bnode struct {
	ID             string `json:"id"`
	Title          string `json:"title"`
	WorkflowStatus string `json:"workflow_status"`
	Translation    struct {
		Status string `json:"status"`
	} `json:"translation"`
	Children []bnode `json:"children"`
}

// flatten lists "id|title|status|translation" in reading order.
func flatten(ns []bnode, out *[]string) {
	for _, n := range ns {
		*out = append(*out, n.ID+"|"+n.Title+"|"+n.WorkflowStatus+"|"+n.Translation.Status)
		flatten(n.Children, out)
	}
}

// expected lists the published nodes of the sandbox's own resolution.
func expected(t *testing.T, ix *dataset.Index, id, locale string) []string {
	t.Helper()
	tr, err := ix.Resolve(id, locale)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func([]*dataset.ResolvedNode)
	walk = func(ns []*dataset.ResolvedNode) {
		for _, n := range ns {
			if n.WorkflowStatus != dataset.StatusPublished {
				continue
			}
			out = append(out, n.ID+"|"+n.Title+"|"+n.WorkflowStatus+"|"+n.Translation.Status)
			walk(n.Children)
		}
	}
	walk(tr.Roots)
	return out
}

// TestExportUnderFaultsAndTightLimits is the acceptance run: a flaky
// sandbox (5xx, 503 with Retry-After, connections cut mid-body) with tight
// limits on both sides. Every variant × locale is fetched, no 429 is
// earned, and every bundle matches what the sandbox resolves.
func TestExportUnderFaultsAndTightLimits(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("real sockets and real time")
	}
	limits, err := ratelimit.Parse("20/1s,120/6s")
	if err != nil {
		t.Fatal(err)
	}
	faults, err := sandbox.ParseFaults("500=0.06,503=0.05:1s,cut=0.05")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: limits, Faults: faults, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	out := filepath.Join(t.TempDir(), "site")
	cfg := exporter.Config{
		BaseURL: srv.URL, Token: token, Output: out, CacheDir: t.TempDir(),
		Limits: limits, Concurrency: 4, Generator: "curex test",
		// The fetch is under test, and the JSON bundles, checked against
		// the sandbox below, show it; the website was nine tenths of
		// the test's CPU time under the detector (16.6 CPU-s with it,
		// 1.7 without). The shared
		// export and TestExportToMemoryFileSystem render it under -race,
		// TestEveryFormat every format.
		Formats: []string{"json"},
	}
	sum, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial() {
		t.Fatalf("failures: %+v", sum.Failures)
	}
	if sum.Stats.RateLimited != 0 {
		t.Errorf("earned %d × 429", sum.Stats.RateLimited)
	}
	if sum.Stats.ServerErrors == 0 || sum.Stats.Retries == 0 {
		t.Errorf("the faults never hit (5xx %d, retries %d): the test proves nothing", sum.Stats.ServerErrors, sum.Stats.Retries)
	}
	ix := h.Index()
	wantTrees := 0
	for _, c := range ds.Curricula {
		if ix.OrganizationOf(c.ID) == "org-riverbend" {
			wantTrees += len(ix.Locales(c.ID))
		}
	}
	if sum.Written != wantTrees || sum.Planned != wantTrees {
		t.Fatalf("wrote %d of %d planned trees, want %d", sum.Written, sum.Planned, wantTrees)
	}

	raw, err := os.ReadFile(filepath.Join(out, output.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := output.ReadManifest(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Exports) != wantTrees {
		t.Fatalf("manifest lists %d exports", len(m.Exports))
	}
	for _, e := range m.Exports {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(e.JSON)))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Validate(data); err != nil {
			t.Errorf("%s: schema: %v", e.JSON, err)
		}
		var b bundle
		if err := json.Unmarshal(data, &b); err != nil {
			t.Fatal(err)
		}
		var got []string
		flatten(b.Nodes, &got)
		want := expected(t, ix, b.VariantID, b.Locale)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s differs from the sandbox's resolution:\ngot  %q\nwant %q", e.JSON, got, want)
		}
		if e.State != output.StateOK || e.ETag == "" || e.ETag != b.ETag || e.NodeCount != len(got) {
			t.Errorf("manifest entry %+v does not match the bundle (etag %s, %d nodes)", e, b.ETag, len(got))
		}
		if len(b.VariantChain) == 0 || b.VariantChain[0] != e.VariantChain[0] {
			t.Errorf("%s: variant chain %v", e.JSON, b.VariantChain)
		}
	}
	for _, f := range m.Files {
		if strings.Contains(f.Path, "..") {
			t.Errorf("unsafe path in manifest: %s", f.Path)
		}
	}
	if bytes.Contains(raw, []byte(token)) {
		t.Error("the token is in the manifest")
	}
}

// TestExportSecondRunIsConditional: a rerun with no upstream change sends
// only conditional requests and gets 304s.
func TestExportSecondRunIsConditional(t *testing.T) {
	t.Parallel()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	cfg := exporter.Config{
		BaseURL: srv.URL, Token: token, Output: filepath.Join(t.TempDir(), "out"), CacheDir: t.TempDir(),
		Limits: ratelimit.Limits{}, Generator: "curex test", Formats: []string{"json"},
		Revalidate: fresh.Policy{Mode: fresh.Always}, // every tree asked again
	}
	first, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	second, err := exporter.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if first.Stats.NotModified != 0 {
		t.Errorf("first run got %d × 304 with an empty cache", first.Stats.NotModified)
	}
	if second.Stats.Requests != first.Stats.Requests || second.Stats.NotModified != second.Stats.Requests {
		t.Errorf("second run: %+v; want every one of %d requests answered 304", second.Stats, first.Stats.Requests)
	}
}

func TestExportErrors(t *testing.T) {
	t.Parallel()
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	h, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	tests := []struct {
		name      string
		edit      func(*exporter.Config)
		configErr bool
		want      string
	}{
		{"wrong token", func(c *exporter.Config) { c.Token = "not-a-token" }, false, "rejected the token (401)"},
		{"expired token", func(c *exporter.Config) { c.Token = "sandbox-expired-token" }, false, "token expired"},
		{"unknown variant", func(c *exporter.Config) { c.Filter.Variants = []string{"Atlantis"} }, true, `variants: "Atlantis" matches nothing`},
		{"unknown locale", func(c *exporter.Config) { c.Filter.Locales = []string{"tlh"} }, true, `locales: "tlh" matches nothing`},
		{"unknown curriculum", func(c *exporter.Config) { c.Filter.Curricula = []string{"999"} }, true, `curricula: "999" matches nothing`},
		{"unknown format", func(c *exporter.Config) { c.Formats = []string{"html", "docx"} }, true, `unknown format "docx"`},
		{"unknown paper", func(c *exporter.Config) { c.Paper = "a3" }, true, `paper: "a3": want a4 or letter`},
		{"no token", func(c *exporter.Config) { c.Token = "" }, true, "no API token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := exporter.Config{BaseURL: srv.URL, Token: token, Output: filepath.Join(t.TempDir(), "out"), Limits: ratelimit.Limits{}}
			tt.edit(&cfg)
			_, err := exporter.Run(context.Background(), cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			var ce *exporter.ConfigError
			if errors.As(err, &ce) != tt.configErr {
				t.Fatalf("ConfigError = %v, want %v (%v)", !tt.configErr, tt.configErr, err)
			}
			if strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "not-a-token") {
				t.Fatalf("token in error: %v", err)
			}
			if _, statErr := os.Stat(cfg.Output); !os.IsNotExist(statErr) {
				t.Fatalf("a failed run created output: %v", statErr)
			}
		})
	}
}
