package html

import (
	"strings"

	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/render/i18n"
)

// The catalog and the landing pages search many variants × locales: a
// catalog of 25,000 would list them in megabytes. Their list
// (search-sources.js) holds the site's search directory's groups and
// what the box needs to choose among the indexes; the indexes
// themselves are listed in pages of searchPage (layout.SearchSourcesPage),
// shared by every such page, of which a query loads those of the
// indexes the directory says may hold a match.

// searchPage is the number of indexes a page of the site's list holds.
const searchPage = 256

// siteSource is one export with pages, as the site's list names it.
type siteSource struct {
	e model.Export
	// lang is the locale's code; curriculum, variant and language the
	// names (variant "" for the base curriculum).
	lang, curriculum, variant, language string
}

// siteSources lists the exports with pages of the site's curricula in
// the order of the catalog's search (curricula, variants, locales): an
// export's place is its id in the search directory and the list.
func siteSources(curricula []*Curriculum) []siteSource {
	var out []siteSource
	for _, c := range curricula {
		for _, v := range c.Variants {
			for _, l := range c.Locales {
				if c.Exported[v.Slug+"/"+l.Slug] {
					out = append(out, siteSource{e: model.Export{CurriculumSlug: c.Slug, VariantSlug: v.Slug, LocaleSlug: l.Slug},
						lang: l.Code, curriculum: c.Name, variant: v.Name, language: l.Name})
				}
			}
		}
	}
	return out
}

// searchListPage is one page of the site's list: the indexes First,
// First+1, ... as [folder, locale code, directory group (-1: none),
// curriculum, variant ("" for the base), language].
type searchListPage struct {
	First   int     `json:"first"`
	Sources [][]any `json:"sources"`
}

// writeSearchPages writes the pages of the site's list of indexes.
func writeSearchPages(w render.Writer, site *SiteInfo, dir *siteDir) error {
	all := siteSources(site.Curricula)
	for k := 0; k*searchPage < len(all); k++ {
		page := searchListPage{First: k * searchPage}
		for _, s := range all[k*searchPage : min(len(all), (k+1)*searchPage)] {
			g, ok := dir.group[s.e.Dir()]
			if !ok {
				g = -1
			}
			page.Sources = append(page.Sources, []any{s.e.Dir(), s.lang, g, s.curriculum, s.variant, s.language})
		}
		name := layout.SearchSourcesPage(k)
		js, err := searchScript("curexSearchSourcesPage", name, page)
		if err != nil {
			return err
		}
		if err := w.Write(name, js); err != nil {
			return err
		}
	}
	return nil
}

// searchList is what a catalog's or landing page's search-sources.js
// holds (docs/formats.md): the groups of the site's search directory,
// the ids of the indexes the box searches, where the pages that list
// them are, and the words that name them in the page's language.
type searchList struct {
	Groups []searchGroup `json:"groups"`
	// Pages starts the names of the list's pages relative to the page
	// (page k is Pages + k + ".js", window.curexSearchSourcesPage[its
	// name from the root]), Per the indexes a page holds, and Root the
	// site's root relative to the page: an index's folder is Root + its
	// key.
	Pages string `json:"pages"`
	Per   int    `json:"per"`
	Root  string `json:"root"`
	// First and Count are the ids of the indexes searched.
	First int `json:"first"`
	Count int `json:"count"`
	// Loose are the ids the directory does not hold, as ranges (first,
	// count, first, count, ...): searched whatever the query. Kinds are
	// the names of the indexes' node types (folded, one a line), each
	// with the ranges of ids that have them.
	Loose []int         `json:"loose"`
	Kinds []searchKinds `json:"kinds"`
	// From names where a result is from in the page's language, "\x01"
	// standing for the variant and "\x02" for the language; Base follows
	// a curriculum's name for its base variant; Named prefixes each
	// variant with its curriculum's name (the catalog).
	From  string `json:"from"`
	Base  string `json:"base"`
	Named bool   `json:"named,omitempty"`
}

// searchKinds are the ids, as ranges, of the indexes whose node types
// are named Kinds.
type searchKinds struct {
	Kinds string `json:"kinds"`
	IDs   []int  `json:"ids"`
}

// searchGroup is one language's search directory as a search box loads
// it: Key names its shards' entries in window.curexSearchDir (Key + " "
// + the prefix), Dir is the start of their files' names relative to the
// page (the file of prefix p is shard.File(Dir, p)) and Shards the plan;
// Stem is the stemming language and StemFile its stemmer, relative to
// the page.
type searchGroup struct {
	Key      string   `json:"key"`
	Dir      string   `json:"dir"`
	Shards   []string `json:"shards"`
	Stem     string   `json:"stem,omitempty"`
	StemFile string   `json:"stem_file,omitempty"`
}

// appendRange adds id to ranges (first, count, ...) of ids met in
// order.
func appendRange(ranges []int, id int) []int {
	if n := len(ranges); n >= 2 && ranges[n-2]+ranges[n-1] == id {
		ranges[n-1]++
		return ranges
	}
	return append(ranges, id, 1)
}

// searchAcross is the search box of a catalog or landing page p, which
// searches every exported variant × locale of curricula (the catalog:
// named, each variant prefixed with its curriculum's name), written as
// its list at path (beside p).
func searchAcross(w render.Writer, p *Page, path string, curricula []*Curriculum, m i18n.Messages, named bool, dir *siteDir) (*SearchBox, error) {
	list := searchList{Groups: []searchGroup{}, Pages: p.Href(layout.SearchSourcesPagePrefix), Per: searchPage,
		Root: strings.TrimSuffix(p.Href(layout.Home), layout.Home), Loose: []int{}, Kinds: []searchKinds{},
		From: m.T("search_from", "\x01", "\x02"), Base: m.T("base"), Named: named}
	for _, g := range dir.groups {
		sg := searchGroup{Key: g.Base, Dir: p.Href(g.Base), Shards: g.Shards, Stem: g.Lang}
		if g.Lang != "" {
			sg.StemFile = p.Href(stemmerAsset(g.Lang))
		}
		list.Groups = append(list.Groups, sg)
	}
	own := siteSources(curricula)
	if len(own) > 0 {
		list.First, list.Count = dir.id[own[0].e.Dir()], len(own)
	}
	kinds := map[string]int{}
	for _, s := range siteSources(dir.curricula) {
		d := s.e.Dir()
		if _, ok := dir.group[d]; !ok {
			list.Loose = appendRange(list.Loose, dir.id[d])
		}
		k, ok := kinds[dir.kinds[d]]
		if !ok {
			k = len(list.Kinds)
			kinds[dir.kinds[d]] = k
			list.Kinds = append(list.Kinds, searchKinds{Kinds: dir.kinds[d]})
		}
		list.Kinds[k].IDs = appendRange(list.Kinds[k].IDs, dir.id[d])
	}
	js, err := searchScript("curexSearchSources", path, list)
	if err != nil {
		return nil, err
	}
	if err := w.Write(path, js); err != nil {
		return nil, err
	}
	return &SearchBox{Action: p.Href(p.Path), Across: true, Script: p.Href(path), ScriptKey: path}, nil
}
