package sandbox_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// TestPagination checks page, per_page, root_only and status on tiny.json.
func TestPagination(t *testing.T) {
	h := newTiny(t)
	tests := []struct {
		query   string
		ids     []string
		total   int
		page    int
		perPage int
	}{
		{"", []string{"b1", "v1", "v2"}, 3, 1, sandbox.DefaultPerPage},
		{"?page=1", []string{"b1", "v1", "v2"}, 3, 1, sandbox.DefaultPerPage},
		{"?per_page=2", []string{"b1", "v1"}, 3, 1, 2},
		{"?per_page=2&page=2", []string{"v2"}, 3, 2, 2},
		{"?per_page=1&page=3", []string{"v2"}, 3, 3, 1},
		{"?per_page=2&page=3", []string{}, 3, 3, 2},
		{"?page=2", []string{}, 3, 2, sandbox.DefaultPerPage},
		{"?page=1000000", []string{}, 3, 1000000, sandbox.DefaultPerPage},
		// Huge pages whose offset overflows an int (page 0 here: not compared,
		// float64 cannot hold it).
		{"?page=9223372036854775807", []string{}, 3, 0, sandbox.DefaultPerPage},
		{"?page=461168601842738791&per_page=20", []string{}, 3, 0, 20},
		{"?page=922337203685477581&per_page=10", []string{}, 3, 0, 10},
		{fmt.Sprintf("?per_page=%d", sandbox.MaxPerPage), []string{"b1", "v1", "v2"}, 3, 1, sandbox.MaxPerPage},
		{fmt.Sprintf("?per_page=%d", sandbox.MaxPerPage+1), []string{"b1", "v1", "v2"}, 3, 1, sandbox.MaxPerPage},
		{"?per_page=9223372036854775807&page=2", []string{}, 3, 2, sandbox.MaxPerPage},
		{"?root_only=true", []string{"b1"}, 1, 1, sandbox.DefaultPerPage},
		{"?root_only=1", []string{"b1"}, 1, 1, sandbox.DefaultPerPage},
		{"?root_only=false", []string{"b1", "v1", "v2"}, 3, 1, sandbox.DefaultPerPage},
		{"?status=published", []string{"b1", "v1", "v2"}, 3, 1, sandbox.DefaultPerPage},
		{"?status=draft", []string{}, 0, 1, sandbox.DefaultPerPage},
		{"?root_only=true&status=published&per_page=1", []string{"b1"}, 1, 1, 1},
		{"?status=", []string{"b1", "v1", "v2"}, 3, 1, sandbox.DefaultPerPage},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			body := mustGet(t, h, "/api/v1/curricula"+tc.query, tokA)
			if got := ids(t, arr(t, body, "data")); !slices.Equal(got, tc.ids) {
				t.Errorf("ids %v, want %v", got, tc.ids)
			}
			m := obj(t, body, "meta")
			if _, ok := m["page"].(float64); !ok {
				t.Errorf("meta.page %v", m["page"])
			}
			if num(t, m, "total_count") != tc.total || (tc.page != 0 && num(t, m, "page") != tc.page) || num(t, m, "per_page") != tc.perPage {
				t.Errorf("meta = %v, want total_count %d page %d per_page %d", m, tc.total, tc.page, tc.perPage)
			}
		})
	}
	if sandbox.DefaultPerPage < 1 || sandbox.MaxPerPage < sandbox.DefaultPerPage {
		t.Errorf("DefaultPerPage %d, MaxPerPage %d", sandbox.DefaultPerPage, sandbox.MaxPerPage)
	}
}

// TestStatusFilter makes the base's root nodes drafts, so that the base and
// v1 have no published content while v2, which publishes u2, has.
func TestStatusFilter(t *testing.T) {
	ds := tinyDataset(t)
	for i := range ds.Curricula[0].Nodes {
		ds.Curricula[0].Nodes[i].WorkflowStatus = dataset.StatusDraft
	}
	h := newHandler(t, ds, sandbox.Options{Limits: noLimits})
	tests := []struct {
		query string
		ids   []string
	}{
		{"", []string{"b1", "v1", "v2"}},
		{"?status=published", []string{"v2"}},
		{"?status=draft", []string{"b1", "v1"}},
		{"?status=draft&root_only=true", []string{"b1"}},
		{"?status=published&root_only=true", []string{}},
		{"?status=draft&per_page=1&page=2", []string{"v1"}},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			body := mustGet(t, h, "/api/v1/curricula"+tc.query, tokA)
			list := arr(t, body, "data")
			if got := ids(t, list); !slices.Equal(got, tc.ids) {
				t.Errorf("ids %v, want %v", got, tc.ids)
			}
			if !strings.Contains(tc.query, "page=") && num(t, body, "meta", "total_count") != len(tc.ids) {
				t.Errorf("total_count %v, want %d", body["meta"], len(tc.ids))
			}
			for _, r := range list {
				if str(t, r, "id") == "v1" && str(t, r, "attributes", "status") != "draft" {
					t.Errorf("v1 in the list: status %v, want draft", r)
				}
			}
		})
	}
	if got := str(t, mustGet(t, h, "/api/v1/curricula/v1", tokA), "data", "attributes", "status"); got != "draft" {
		t.Errorf("/curricula/v1 status %q, want draft", got)
	}
}

// TestPaginationSynthetic walks every page of a larger synthetic dataset.
func TestPaginationSynthetic(t *testing.T) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: 45, Variants: 1, Locales: 1, Nodes: 3, Depth: 2, Seed: 7})
	h := newHandler(t, ds, sandbox.Options{Limits: noLimits})
	var all, bases []string
	for _, c := range ds.Curricula {
		all = append(all, c.ID)
		if c.Parent == "" {
			bases = append(bases, c.ID)
		}
	}
	if len(all) != 90 || len(bases) != 45 {
		t.Fatalf("synthetic: %d curricula, %d bases", len(all), len(bases))
	}
	tests := []struct {
		query   string
		perPage int
		want    []string
	}{
		{"", sandbox.DefaultPerPage, all},
		{"per_page=7", 7, all},
		{"per_page=45&root_only=true", 45, bases},
		{"per_page=4&root_only=true", 4, bases},
		{"per_page=90", 90, all},
		{"per_page=1000", sandbox.MaxPerPage, all},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			pages := (len(tc.want) + tc.perPage - 1) / tc.perPage
			seen := map[string]int{}
			var order []string
			for page := 1; page <= pages+1; page++ {
				body := mustGet(t, h, fmt.Sprintf("/api/v1/curricula?%s&page=%d", tc.query, page), dataset.SyntheticToken)
				got := ids(t, arr(t, body, "data"))
				m := obj(t, body, "meta")
				if num(t, m, "per_page") != tc.perPage || num(t, m, "page") != page || num(t, m, "total_count") != len(tc.want) {
					t.Fatalf("page %d: meta %v, want per_page %d total_count %d", page, m, tc.perPage, len(tc.want))
				}
				switch {
				case page > pages && len(got) != 0:
					t.Errorf("page %d past the end: %v", page, got)
				case page < pages && len(got) != tc.perPage:
					t.Errorf("page %d: %d records, want %d", page, len(got), tc.perPage)
				}
				for _, id := range got {
					seen[id]++
				}
				order = append(order, got...)
			}
			if !slices.Equal(order, tc.want) {
				t.Errorf("walk: %d ids %v, want %d ids in dataset order", len(order), order, len(tc.want))
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("%s seen %d times", id, n)
				}
			}
		})
	}
}

// TestPerPageCapped lists more curricula than MaxPerPage.
func TestPerPageCapped(t *testing.T) {
	ds := dataset.Synthetic(dataset.SyntheticOptions{Curricula: sandbox.MaxPerPage + 5, Locales: 1, Nodes: 1, Depth: 1, Seed: 1})
	h := newHandler(t, ds, sandbox.Options{Limits: noLimits})
	body := mustGet(t, h, "/api/v1/curricula?per_page=500", dataset.SyntheticToken)
	if got := len(arr(t, body, "data")); got != sandbox.MaxPerPage {
		t.Errorf("per_page=500: %d records, want %d", got, sandbox.MaxPerPage)
	}
	if num(t, body, "meta", "per_page") != sandbox.MaxPerPage || num(t, body, "meta", "total_count") != sandbox.MaxPerPage+5 {
		t.Errorf("meta %v", body["meta"])
	}
	body = mustGet(t, h, "/api/v1/curricula?per_page=500&page=2", dataset.SyntheticToken)
	if got := len(arr(t, body, "data")); got != 5 {
		t.Errorf("page 2: %d records, want 5", got)
	}
	body = mustGet(t, h, "/api/v1/curricula", dataset.SyntheticToken)
	if got := len(arr(t, body, "data")); got != sandbox.DefaultPerPage {
		t.Errorf("default: %d records, want %d", got, sandbox.DefaultPerPage)
	}
}
