package fetch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/crash"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/retry"
	"github.com/curex/curex/exporter/internal/setting"
	"github.com/curex/curex/exporter/internal/slug"
)

// Filter selects what a run exports.
type Filter struct {
	// Curricula are base curricula by id or by the slug of their folder
	// (as an unfiltered run names it); empty means all.
	Curricula []string
	// Variants is "all" (default), "base", or a list of variant names; the
	// list may include "base" for the base curriculum itself.
	Variants []string
	// Locales is empty or ["all"] for every enabled locale, or a list of
	// codes.
	Locales []string
	// MinTranslation skips locales whose published_progress is below it
	// (the primary locale is always kept).
	MinTranslation int
	// IncludeUnpublished lists curricula without published content too.
	IncludeUnpublished bool
}

// DiscoveryConcurrency is the number of discovery requests in flight.
const DiscoveryConcurrency = 4

// ListPageSize is the page size discovery asks for; the server may answer
// with fewer per page, and discovery follows what it says.
const ListPageSize = 100

// CurriculumPlan is one base curriculum and what of it a run exports.
type CurriculumPlan struct {
	Curriculum    api.Curriculum
	Slug          string
	PrimaryLocale string
	// Variants are every variant of the curriculum, Locales every enabled
	// locale, as the API lists them.
	Variants []api.Variant
	Locales  []api.Locale
	// Exports are the selected variant × locale pairs.
	Exports []model.Export
	// Updated holds the updated_at of the curriculum and of each variant,
	// by id, where the curricula list gives it (the alternate record
	// shape does not).
	Updated map[string]time.Time

	// served maps a locale code normalized by discovery to the code as
	// the API lists it; invalid holds the codes that are no language tag.
	served  map[string]string
	invalid map[string]bool
}

// Invalid is a planned export that cannot be fetched: its locale code is
// no language tag, even normalized. A run reports it as failed (exit 3)
// and exports the rest.
type Invalid struct {
	Export model.Export
	Err    error
}

// LocaleError is a locale code, as the API lists it, that is no language
// tag.
type LocaleError struct {
	CurriculumID, Code string
}

func (e *LocaleError) Error() string {
	return fmt.Sprintf("curriculum %s: locale code %q is not a language tag (such as en or pt-BR, or pt_BR)", e.CurriculumID, e.Code)
}

// Skip is a variant × locale left out of the plan, with the reason.
type Skip struct {
	Export model.Export
	Reason string
	// Setting is the key of the setting that left it out
	// (setting.MinTranslation), or "".
	Setting string
}

// Unreadable is a listed base curriculum the token may not read: its
// variants or locales were answered 403. The plan leaves it out; a run
// keeps its previous output and reports it as failed.
type Unreadable struct {
	Curriculum api.Curriculum
	// Slug is the curriculum's folder, as if it were planned.
	Slug string
	// Err is the 403, naming the request.
	Err error
}

// Plan is the result of discovery: who we are, what exists, what to fetch.
type Plan struct {
	User      *api.User
	Curricula []CurriculumPlan
	Skipped   []Skip
	// Unreadable are the listed curricula the token may not read.
	Unreadable []Unreadable
	// DiscoveryRequests is the number of successful discovery requests.
	DiscoveryRequests int
	// Invalid are the exports of locales whose code is no language tag.
	Invalid []Invalid
	// Warnings name the locale entries left out (no usable code, or the
	// same language tag as an earlier entry), one message each.
	Warnings []string
}

// Exports returns every planned export in plan order.
func (p *Plan) Exports() []model.Export {
	var out []model.Export
	for _, c := range p.Curricula {
		out = append(out, c.Exports...)
	}
	return out
}

// FilterError is a selection that names something that does not exist; it
// is a usage error. It unwraps to the *setting.Error of its setting.
type FilterError struct {
	// Setting is the key of the setting that names it: setting.Curricula,
	// setting.Variants or setting.Locales.
	Setting string
	// Value is the item of the setting that matches nothing.
	Value     string
	Available []string
}

// Error names the setting, the value and what is available instead.
func (e *FilterError) Error() string { return e.Unwrap().Error() }

// Unwrap returns the error as a *setting.Error naming e.Setting.
func (e *FilterError) Unwrap() error {
	avail := "none"
	if len(e.Available) > 0 {
		avail = strings.Join(e.Available, ", ")
	}
	return setting.Errorf(e.Setting, "%q matches nothing (available: %s)", e.Value, avail)
}

// Discover verifies the token and lists what the filter selects: base
// curricula (following the server's pagination), their variants and
// locales. Variants, with their updated_at, come from the curricula list
// without root_only, a few pages for the whole organization; only
// curricula whose records do not tell their variants (the alternate shape
// has no parent_id) cost a /variants request. It sends 1 + pages +
// curricula + (curricula of the alternate shape) requests; with
// f.Curricula, also one for each alternate-shape base it leaves out, when
// records are unexplained (see details).
func Discover(ctx context.Context, c *api.Client, policy retry.Policy, f Filter) (*Plan, error) {
	return DiscoverWith(ctx, c, policy, f, nil)
}

// DiscoverWith is Discover that calls onUser, when not nil, with the
// answer to /me before any other request: a run binds its ETag cache and
// state to the scope the user names there (see ScopedCache). An error of
// onUser ends discovery.
func DiscoverWith(ctx context.Context, c *api.Client, policy retry.Policy, f Filter, onUser func(*api.User) error) (*Plan, error) {
	d := &discovery{c: c, policy: policy, p: &Plan{}, forbidden: map[string]error{}}
	if err := d.verify(ctx); err != nil {
		return nil, err
	}
	if onUser != nil {
		if err := onUser(d.p.User); err != nil {
			return nil, err
		}
	}
	bases, fam, err := d.list(ctx, f)
	if err != nil {
		return nil, err
	}
	d.start(bases, fam)
	if err := d.details(ctx, fam, d.others(bases)); err != nil {
		return nil, err
	}
	p := d.p
	p.dropUnreadable(d.forbidden)
	for i := range p.Curricula {
		p.normalizeLocales(&p.Curricula[i])
	}
	if err := p.selectExports(f); err != nil {
		return nil, err
	}
	return p, nil
}

// discovery is one run of DiscoverWith: the client, the retry policy,
// the plan being filled, and the curricula whose details answered 403.
type discovery struct {
	c      *api.Client
	policy retry.Policy
	p      *Plan

	// bases are every listed base curriculum, the filter aside.
	bases []api.Curriculum

	mu        sync.Mutex // guards p.DiscoveryRequests and forbidden while details are asked
	forbidden map[string]error
}

// others returns the listed bases the filter left out whose records do
// not tell their variants (the alternate shape): what an unfiltered run
// asks /variants of anyway, so what its cache holds.
func (d *discovery) others(picked []api.Curriculum) []api.Curriculum {
	var out []api.Curriculum
	for _, b := range d.bases {
		if b.Shape != api.ShapeFull && !slices.ContainsFunc(picked, func(p api.Curriculum) bool { return p.ID == b.ID }) {
			out = append(out, b)
		}
	}
	return out
}

// call runs fn under the retry policy and counts the request.
func (d *discovery) call(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	if err := d.policy.Do(ctx, fn); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	d.p.DiscoveryRequests++
	return nil
}

// verify asks /me (Verify) and counts the request.
func (d *discovery) verify(ctx context.Context) error {
	u, err := Verify(ctx, d.c, d.policy)
	if err != nil {
		return err
	}
	d.p.User = u
	d.p.DiscoveryRequests++
	return nil
}

// FirstContactAttempts is the most attempts of the first contact (/me):
// a 5xx or a cut answer is retried, at most this many times in all.
const FirstContactAttempts = 3

// FirstContactTimeout bounds each attempt of the first contact.
const FirstContactTimeout = 20 * time.Second

// Verify is the first contact with the API, the one every command that
// talks to it (export, plan, whoami) makes: it asks /me whom the token
// belongs to. It fails fast, with an error naming the setting to fix
// (a *setting.Error), on what retrying cannot fix: nothing listening at
// the base URL (connection refused, no such host: setting.BaseURL),
// something that is not the API answering (setting.BaseURL: a body that
// is not the API's, or 404 where the API always answers), a rejected
// token (401: setting.Token). A 5xx, a 429 or a cut answer is retried
// under policy, at most FirstContactAttempts times in all.
func Verify(ctx context.Context, c *api.Client, policy retry.Policy) (*api.User, error) {
	first := policy
	// MaxAttempts 0 means the default (6), not 1: a single 5xx or cut
	// answer to /me must not fail the whole run.
	attempts := first.MaxAttempts
	if attempts <= 0 {
		attempts = retry.DefaultMaxAttempts
	}
	first.MaxAttempts = min(attempts, FirstContactAttempts)
	first.AttemptTimeout = FirstContactTimeout
	first.Retryable = func(err error) bool {
		var de *api.DecodeError
		if errors.As(err, &de) || unreachable(err) {
			return false
		}
		return policy.Retryable != nil && policy.Retryable(err)
	}
	var u *api.User
	if err := first.Do(ctx, func(ctx context.Context) error {
		var err error
		u, _, err = c.Me(ctx)
		return err
	}); err != nil {
		var de *api.DecodeError
		switch {
		case errors.Is(err, api.ErrUnauthorized):
			return nil, setting.Errorf(setting.Token, "the API rejected the token (401): %w", err)
		case errors.As(err, &de):
			return nil, setting.Errorf(setting.BaseURL, "does not answer like the Curriculum Content API: %w", err)
		case errors.Is(err, api.ErrNotFound):
			return nil, setting.Errorf(setting.BaseURL, "is not the Curriculum Content API: it has no /api/v1/me, "+
				"which the API always answers with the token's user (JSON); give the API's root URL, "+
				"e.g. https://api.example.org, without /api/v1: %w", err)
		case unreachable(err):
			return nil, setting.Errorf(setting.BaseURL, "cannot reach the API: %w", err)
		}
		return nil, fmt.Errorf("verify token: %w", err)
	}
	return u, nil
}

// unreachable reports an error of dialling the API: nothing listens at
// the address, or its host does not resolve. On the first contact that
// is a wrong base URL far more often than an API restarting, and
// retrying it would only delay the message naming --base-url.
func unreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// list lists the base curricula (published ones unless f includes the
// others) and every record of the organization, and keeps the bases f
// selects.
func (d *discovery) list(ctx context.Context, f Filter) ([]api.Curriculum, *family, error) {
	status := "published"
	if f.IncludeUnpublished {
		status = ""
	}
	call := func(what string, fn func(context.Context) error) error { return d.call(ctx, what, fn) }
	bases, err := listAll(ctx, d.c, call, "list curricula", api.ListOptions{RootOnly: true, Status: status})
	if err != nil {
		return nil, nil, err
	}
	d.bases = bases
	// Every record of the organization, variants included, with no status
	// filter (a variant is exported whatever its own status, as /variants
	// lists it).
	records, err := listAll(ctx, d.c, call, "list curricula and variants", api.ListOptions{})
	if err != nil {
		return nil, nil, err
	}
	fam := families(records, bases)
	if len(f.Curricula) == 0 {
		return bases, fam, nil
	}
	// A curriculum is named by its id or by the slug of its folder on
	// the site (the slug among all of them, as an unfiltered run gives).
	slugs := slug.Assign(items(bases))
	var picked []api.Curriculum
	for _, id := range f.Curricula {
		i := slices.IndexFunc(bases, func(b api.Curriculum) bool { return b.ID == id })
		if i < 0 {
			i = slices.IndexFunc(bases, func(b api.Curriculum) bool { return slugs[b.ID] == strings.ToLower(id) })
		}
		if i < 0 {
			return nil, nil, &FilterError{Setting: setting.Curricula, Value: id, Available: curriculumNames(bases, slugs)}
		}
		if !slices.ContainsFunc(picked, func(b api.Curriculum) bool { return b.ID == bases[i].ID }) {
			picked = append(picked, bases[i])
		}
	}
	return picked, fam, nil
}

// start makes the plan of each base: its slug and its update time.
func (d *discovery) start(bases []api.Curriculum, fam *family) {
	slugs := slug.Assign(items(bases))
	d.p.Curricula = make([]CurriculumPlan, len(bases))
	for i, b := range bases {
		cp := CurriculumPlan{Curriculum: b, Slug: slugs[b.ID], Updated: map[string]time.Time{}}
		if r, ok := fam.byID[b.ID]; ok && !r.UpdatedAt.IsZero() {
			cp.Updated[b.ID] = r.UpdatedAt
		} else if !b.UpdatedAt.IsZero() {
			cp.Updated[b.ID] = b.UpdatedAt
		}
		d.p.Curricula[i] = cp
	}
}

// details fills the variants of every curriculum from the records where
// they tell (full shape: parent_id), and asks the API for the locales of
// every curriculum and the variants of the others, a few at a time: the
// limiter sets the pace, concurrency hides latency. others are the bases
// the filter left out whose variants the records do not tell (see
// explainOthers).
func (d *discovery) details(ctx context.Context, fam *family, others []api.Curriculum) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(DiscoveryConcurrency)
	for i := range d.p.Curricula {
		cp := &d.p.Curricula[i]
		if vs, ok := fam.variants(cp.Curriculum); ok {
			cp.Variants = vs
			for _, v := range vs {
				if t := fam.byID[v.ID].UpdatedAt; !t.IsZero() {
					cp.Updated[v.ID] = t
				}
			}
		} else {
			d.ask(g, gctx, cp, "variants")
		}
		d.ask(g, gctx, cp, "locales")
	}
	if err := g.Wait(); err != nil {
		return err
	}
	// Records that no curriculum's variants account for (alternate-shape
	// variants of a full-shape curriculum, say): the records cannot be
	// trusted to tell the variants, so ask every curriculum. With
	// --curriculum, the variants of the alternate-shape bases it left out
	// explain theirs first, as in the unfiltered run (whose cache curex
	// build reads).
	known := map[string]bool{}
	if fam.unexplained(d.p.Curricula, known) && len(others) > 0 {
		var err error
		if known, err = d.explainOthers(ctx, others); err != nil {
			return err
		}
	}
	if !fam.unexplained(d.p.Curricula, known) {
		return nil
	}
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(DiscoveryConcurrency)
	for i := range d.p.Curricula {
		if cp := &d.p.Curricula[i]; fam.derived[cp.Curriculum.ID] {
			d.ask(g, gctx, cp, "variants")
		}
	}
	return g.Wait()
}

// ask asks for the variants or the locales of cp in g. A 403 for one
// curriculum (the token lost access to it after the listing, or never
// had it) leaves that curriculum out instead of failing the run: the
// others are exported, it keeps its previous output, and the run is
// partial.
func (d *discovery) ask(g *errgroup.Group, ctx context.Context, cp *CurriculumPlan, what string) {
	b := cp.Curriculum
	g.Go(func() (err error) {
		defer crash.Recover(&err)
		err = d.policy.Do(ctx, func(ctx context.Context) error {
			if what == "variants" {
				vl, _, err := d.c.Variants(ctx, b.ID)
				if err == nil {
					cp.Variants = vl.Variants
				}
				return err
			}
			ll, _, err := d.c.Locales(ctx, b.ID)
			if err == nil {
				cp.Locales, cp.PrimaryLocale = ll.Locales, ll.PrimaryLocale
			}
			return err
		})
		d.mu.Lock()
		defer d.mu.Unlock()
		if err != nil {
			err = fmt.Errorf("%s of %s: %w", what, b.ID, err)
			if !errors.Is(err, api.ErrForbidden) {
				return err
			}
			if d.forbidden[b.ID] == nil {
				d.forbidden[b.ID] = err
			}
			return nil
		}
		d.p.DiscoveryRequests++
		return nil
	})
}

// explainOthers asks the variants of others, bases the filter left out,
// and returns their ids. It is what explains the alternate-shape variant
// records of the bases a --curriculum leaves out, with the requests an
// unfiltered run makes too. An answer that fails (a 403, or in curex
// build one the cache lacks) explains nothing: the records stay
// unexplained and details asks the selected curricula instead. The error
// is a panic of a request, recovered.
func (d *discovery) explainOthers(ctx context.Context, others []api.Curriculum) (map[string]bool, error) {
	known := map[string]bool{}
	var g errgroup.Group
	g.SetLimit(DiscoveryConcurrency)
	for _, b := range others {
		g.Go(func() (err error) {
			defer crash.Recover(&err)
			var vs []api.Variant
			err = d.policy.Do(ctx, func(ctx context.Context) error {
				vl, _, err := d.c.Variants(ctx, b.ID)
				if err == nil {
					vs = vl.Variants
				}
				return err
			})
			if err != nil {
				return nil // explains nothing; see above
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			d.p.DiscoveryRequests++
			for _, v := range vs {
				known[v.ID] = true
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return known, nil
}

// dropUnreadable moves the curricula whose details answered 403 from
// Curricula to Unreadable.
func (p *Plan) dropUnreadable(forbidden map[string]error) {
	if len(forbidden) == 0 {
		return
	}
	readable := p.Curricula[:0]
	for _, cp := range p.Curricula {
		if err := forbidden[cp.Curriculum.ID]; err != nil {
			p.Unreadable = append(p.Unreadable, Unreadable{Curriculum: cp.Curriculum, Slug: cp.Slug, Err: err})
			continue
		}
		readable = append(readable, cp)
	}
	p.Curricula = readable
}

// normalizeLocales turns the locale codes of cp into language tags
// (NormalizeLocale) and remembers each code as served. An entry with no
// code, or whose tag an earlier entry has, is left out with a warning
// naming the curriculum; one that is still no tag is kept, marked
// invalid, for its exports alone to fail.
func (p *Plan) normalizeLocales(cp *CurriculumPlan) {
	cp.served, cp.invalid = map[string]string{}, map[string]bool{}
	what := fmt.Sprintf("curriculum %s (%q)", cp.Curriculum.ID, cp.Curriculum.Name)
	seen := map[string]string{}
	kept := make([]api.Locale, 0, len(cp.Locales))
	for _, l := range cp.Locales {
		tag, ok := NormalizeLocale(l.Code)
		switch {
		case strings.TrimSpace(l.Code) == "":
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s: a locale entry (name %q) has no code: skipped", what, l.Name))
			continue
		case !ok:
			tag = l.Code
			cp.invalid[tag] = true
		}
		if first, dup := seen[strings.ToLower(tag)]; dup {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s: locale %q is %s again, as %q: skipped", what, l.Code, tag, first))
			continue
		}
		seen[strings.ToLower(tag)] = l.Code
		if tag != l.Code {
			cp.served[tag] = l.Code
		}
		l.Code = tag
		kept = append(kept, l)
	}
	cp.Locales = kept
	if tag, ok := NormalizeLocale(cp.PrimaryLocale); ok {
		cp.PrimaryLocale = tag
	}
}

// localeKey is how a locale filter value and a listed code compare: as
// language tags, case aside.
func localeKey(code string) string {
	if tag, ok := NormalizeLocale(code); ok {
		code = tag
	}
	return strings.ToLower(code)
}

// MaxListPages bounds the pages of one curricula list discovery reads: a
// quarter of the API's hourly budget of 1,000 requests. At the 100 records
// a page discovery asks for, that is 25,000 curricula and variants.
const MaxListPages = 250

// PagingError is a curricula list whose pages cannot be followed: the
// server ignores page (it echoes another page number, or serves records
// an earlier page had), or it claims more pages than MaxListPages.
// Discovery fails with it rather than spend the hourly budget.
type PagingError struct {
	// What names the list, Page the page asked for.
	What string
	Page int
	// Reason says what was wrong.
	Reason string
}

func (e *PagingError) Error() string {
	return fmt.Sprintf("%s (page %d): the server's paging cannot be followed: %s", e.What, e.Page, e.Reason)
}

// listAll reads every page of the curricula list, following total_count
// and the per_page the server actually used. It stops at the last page
// (ceil(total_count / per_page)) or an empty one, and fails with a
// *PagingError at a page that echoes another page number or brings no
// record an earlier page had not, and before asking for more than
// MaxListPages pages.
func listAll(ctx context.Context, c *api.Client, call func(string, func(context.Context) error) error, what string, opts api.ListOptions) ([]api.Curriculum, error) {
	var out []api.Curriculum
	seen := map[string]bool{}
	opts.PerPage = ListPageSize
	for page := 1; ; page++ {
		var pg *api.CurriculumPage
		opts.Page = page
		if err := call(fmt.Sprintf("%s (page %d)", what, page), func(ctx context.Context) error {
			var err error
			pg, _, err = c.ListCurricula(ctx, opts)
			return err
		}); err != nil {
			return nil, err
		}
		bad := func(format string, a ...any) error {
			return &PagingError{What: what, Page: page, Reason: fmt.Sprintf(format, a...)}
		}
		if pg.Page != 0 && pg.Page != page {
			return nil, bad("it answered page %d when asked for page %d (does it ignore page?)", pg.Page, page)
		}
		fresh := 0
		for _, r := range pg.Curricula {
			if !seen[r.ID] {
				seen[r.ID] = true
				fresh++
			}
		}
		if page > 1 && len(pg.Curricula) > 0 && fresh == 0 {
			return nil, bad("page %d brought only curricula earlier pages had (does it ignore page?)", page)
		}
		out = append(out, pg.Curricula...)
		per := pg.PerPage
		if per <= 0 {
			per = len(pg.Curricula)
		}
		if len(pg.Curricula) == 0 || per == 0 || page*per >= pg.TotalCount {
			return out, nil
		}
		if pages := (pg.TotalCount + per - 1) / per; pages > MaxListPages {
			return nil, bad("total_count %d at %d a page makes %d pages, more than the %d pages curex reads", pg.TotalCount, per, pages, MaxListPages)
		}
	}
}

// family tells the variants of each base curriculum from the records of
// the curricula list: a full-shape record names its parent.
type family struct {
	records []api.Curriculum
	byID    map[string]api.Curriculum
	bases   map[string]bool
	// derived holds the bases whose variants were read from the records.
	derived map[string]bool
}

func families(records, bases []api.Curriculum) *family {
	f := &family{records: records, byID: map[string]api.Curriculum{}, bases: map[string]bool{}, derived: map[string]bool{}}
	for _, r := range records {
		f.byID[r.ID] = r
	}
	for _, b := range bases {
		f.bases[b.ID] = true
	}
	return f
}

// root follows id's parents to the base curriculum; ok is false when a
// record on the way does not tell its parent or the chain breaks.
func (f *family) root(id string) (base string, depth int, ok bool) {
	for steps := 0; steps <= len(f.byID); steps++ {
		r, found := f.byID[id]
		switch {
		case !found && f.bases[id]:
			return id, depth, true
		case !found || r.Shape != api.ShapeFull:
			return "", 0, false
		case r.ParentID == "":
			return id, depth, !r.IsVariant
		}
		id, depth = r.ParentID, depth+1
	}
	return "", 0, false // a cycle
}

// variants returns b's variants, direct and nested, in the list's order,
// when b's records tell them.
func (f *family) variants(b api.Curriculum) ([]api.Variant, bool) {
	if b.Shape != api.ShapeFull {
		return nil, false
	}
	out := []api.Variant{}
	for _, r := range f.records {
		if r.ParentID == "" || r.Shape != api.ShapeFull {
			continue
		}
		if base, depth, ok := f.root(r.ID); ok && base == b.ID {
			out = append(out, api.Variant{ID: r.ID, Name: r.Name, Description: r.Description, ParentID: r.ParentID, Depth: depth, NodeCount: r.NodeCount})
		}
	}
	f.derived[b.ID] = true
	return out, true
}

// unexplained reports records that are neither a base curriculum nor a
// variant the plan, or known (variants of bases the plan left out),
// knows of.
func (f *family) unexplained(cs []CurriculumPlan, others map[string]bool) bool {
	known := maps.Clone(others)
	for _, cp := range cs {
		for _, v := range cp.Variants {
			known[v.ID] = true
		}
	}
	for id := range f.byID {
		if f.bases[id] || known[id] {
			continue
		}
		if _, _, ok := f.root(id); ok {
			continue // a variant of a base the filter left out, or a base
		}
		return true
	}
	return false
}

// curriculumNames lists the curricula as a --curriculum may name them:
// the slug, and the id when it differs.
func curriculumNames(cs []api.Curriculum, slugs map[string]string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = slugs[c.ID]
		if c.ID != slugs[c.ID] {
			out[i] += " (id " + c.ID + ")"
		}
	}
	return out
}

func items(cs []api.Curriculum) []slug.Item {
	out := make([]slug.Item, len(cs))
	for i, c := range cs {
		out[i] = slug.Item{Key: c.ID, Name: c.Name}
	}
	return out
}

var safeLocale = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// LocaleSlug returns the folder name of a locale: its code in lower case,
// or a safe slug of it when the code is not a plain language tag or is a
// name Windows reserves ("CON", "nul": slug.Reserved).
func LocaleSlug(code string) string {
	if safeLocale.MatchString(code) && !slug.Reserved(code) {
		return strings.ToLower(code)
	}
	return slug.ID(code)
}

// selectExports applies the variant, locale and translation filters.
func (p *Plan) selectExports(f Filter) error {
	allVariants := len(f.Variants) == 0 || (len(f.Variants) == 1 && f.Variants[0] == "all")
	allLocales := len(f.Locales) == 0 || (len(f.Locales) == 1 && f.Locales[0] == "all")
	wantVariant := map[string]bool{}
	for _, v := range f.Variants {
		wantVariant[v] = true
	}
	wantLocale := map[string]bool{}
	for _, l := range f.Locales {
		wantLocale[localeKey(l)] = true
	}
	seenVariant, seenLocale := map[string]bool{}, map[string]bool{}
	var variantNames, localeCodes []string
	for i := range p.Curricula {
		cp := &p.Curricula[i]
		b := cp.Curriculum
		primary := cp.PrimaryLocale
		type target struct{ name, id, slug string }
		targets := []target{}
		if allVariants || wantVariant[model.BaseSlug] {
			targets = append(targets, target{"", b.ID, model.BaseSlug})
		}
		vitems := make([]slug.Item, len(cp.Variants))
		for j, v := range cp.Variants {
			vitems[j] = slug.Item{Key: v.ID, Name: v.Name}
			variantNames = append(variantNames, v.Name)
		}
		vslugs := slug.Assign(vitems, model.BaseSlug)
		for _, v := range cp.Variants {
			if allVariants || wantVariant[v.Name] {
				seenVariant[v.Name] = true
				targets = append(targets, target{v.Name, v.ID, vslugs[v.ID]})
			}
		}
		for _, l := range cp.Locales {
			localeCodes = append(localeCodes, l.Code)
			if !allLocales && !wantLocale[localeKey(l.Code)] {
				continue
			}
			seenLocale[localeKey(l.Code)] = true
			for _, t := range targets {
				e := model.Export{
					CurriculumID: b.ID, CurriculumName: b.Name,
					Variant: t.name, VariantID: t.id,
					Locale: l.Code, PrimaryLocale: primary, LocaleAsServed: cp.served[l.Code],
					CurriculumSlug: cp.Slug, VariantSlug: t.slug, LocaleSlug: LocaleSlug(l.Code),
				}
				if cp.invalid[l.Code] {
					p.Invalid = append(p.Invalid, Invalid{e, &LocaleError{CurriculumID: b.ID, Code: l.Code}})
					continue
				}
				if l.Code != primary && !l.IsPrimary && l.PublishedProgress < f.MinTranslation {
					p.Skipped = append(p.Skipped, Skip{Export: e, Setting: setting.MinTranslation,
						Reason: fmt.Sprintf("%s is %d%% published, below the %d%% asked for", l.Code, l.PublishedProgress, f.MinTranslation)})
					continue
				}
				cp.Exports = append(cp.Exports, e)
			}
		}
	}
	if !allVariants {
		for _, v := range f.Variants {
			if v != model.BaseSlug && !seenVariant[v] {
				return &FilterError{Setting: setting.Variants, Value: v, Available: append([]string{model.BaseSlug}, uniq(variantNames)...)}
			}
		}
	}
	if !allLocales {
		for _, l := range f.Locales {
			if !seenLocale[localeKey(l)] {
				return &FilterError{Setting: setting.Locales, Value: l, Available: uniq(localeCodes)}
			}
		}
	}
	return nil
}

func uniq(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
