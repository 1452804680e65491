package exporter_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/output"
	"github.com/curex/curex/exporter/internal/pacer"
	"github.com/curex/curex/exporter/internal/race"
	"github.com/curex/curex/exporter/internal/render/jsonbundle/treeschema"
	"github.com/curex/curex/exporter/ratelimit"
	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
	"github.com/curex/curex/exporter/sandbox/sandboxtest"
)

// The fault matrix: every way the Curriculum Content API can fail a run,
// each a row, end to end through exporter.Run against the sandbox. Rows run
// in a testing/synctest bubble over the sandbox's socket-free Transport, so
// backoff, Retry-After, 429 pauses and the 60 s attempt timeout cost no real
// time and no assertion depends on the machine's speed.
//
// Each row arranges the sandbox (options, faults scoped to some requests,
// an upstream Edit during the run, a response rewritten by a middleware, a
// dataset of its own), exports once from a healthy sandbox into the output
// folder (the "previously published" output), then runs again against the
// faulty one with a fresh cache, and asserts the outcome: the exit-code
// class, a message, and that nothing already published was lost.

// Exit-code classes, as cmd/curex maps a run's result (see docs).
const (
	exitOK      = 0
	exitFailed  = 1
	exitUsage   = 2
	exitPartial = 3
)

// exitClass maps Run's result to the exit code cmd/curex gives it.
func exitClass(sum *exporter.Summary, err error) int {
	var ce *exporter.ConfigError
	switch {
	case errors.As(err, &ce):
		return exitUsage
	case err != nil:
		return exitFailed
	case sum.Partial():
		return exitPartial
	}
	return exitOK
}

// matrixToken is the token of the datasets the matrix builds itself.
const matrixToken = "matrix-token"

// matrixEnv is the arrangement of one row's faulty run.
type matrixEnv struct {
	t  *testing.T
	ds *dataset.Dataset
	// h is the sandbox of the faulty run; arrange may Edit it.
	h *sandbox.Handler
	// wraps are middlewares around h, the first outermost.
	wraps []func(http.Handler) http.Handler
	// progress hooks into the run (to change the upstream mid-run).
	progress exporter.Progress
	cfg      exporter.Config
	log      *requestLog
}

// wrap adds a middleware around the sandbox.
func (e *matrixEnv) wrap(mw func(http.Handler) http.Handler) { e.wraps = append(e.wraps, mw) }

// faultsOn answers the requests match selects, on their first attempts
// (all attempts when attempts is 0), from a second sandbox over the same
// dataset that injects spec (sandbox.ParseFaults syntax, rates of 1 for
// "every time"). Other requests reach the healthy sandbox.
func (e *matrixEnv) faultsOn(match func(*http.Request) bool, attempts int, spec string) {
	e.t.Helper()
	fs, err := sandbox.ParseFaults(spec)
	if err != nil {
		e.t.Fatal(err)
	}
	faulty, err := sandboxtest.New(e.t.Name(), e.ds, sandbox.Options{Limits: ratelimit.Limits{}, Faults: fs, Seed: 3})
	if err != nil {
		e.t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	e.wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if match == nil || match(r) {
				mu.Lock()
				n := seen[r.URL.RequestURI()]
				seen[r.URL.RequestURI()] = n + 1
				mu.Unlock()
				if attempts == 0 || n < attempts {
					faulty.ServeHTTP(w, r)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	})
}

// rewrite passes the 200 answers to requests match selects through fn,
// which changes the decoded JSON body; the ETag is dropped, since the body
// is no longer the one it tags.
func (e *matrixEnv) rewrite(match func(*http.Request) bool, fn func(body map[string]any)) {
	e.wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			if rec.Code == http.StatusOK {
				var v map[string]any
				if err := json.Unmarshal(body, &v); err != nil {
					panic(fmt.Sprintf("rewrite %s: %v", r.URL, err))
				}
				fn(v)
				var err error
				if body, err = json.Marshal(v); err != nil {
					panic(fmt.Sprintf("rewrite %s: %v", r.URL, err))
				}
				rec.Header().Del("Etag")
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.Code)
			_, _ = w.Write(body)
		})
	})
}

// requestLog records the path of every request the run sent.
type requestLog struct {
	mu    sync.Mutex
	paths []string
}

// wrap records the requests that reach next.
func (l *requestLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.paths = append(l.paths, r.URL.Path)
		l.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// count returns how many requests had a path starting with prefix.
func (l *requestLog) count(prefix string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, p := range l.paths {
		if strings.HasPrefix(p, prefix) {
			n++
		}
	}
	return n
}

// progressFunc adapts functions to exporter.Progress.
type progressFunc struct {
	planned  func()
	treeDone func(done int)

	mu   sync.Mutex
	done int
}

// Planned calls planned.
func (p *progressFunc) Planned(int, int, *pacer.Limiter) {
	if p.planned != nil {
		p.planned()
	}
}

// TreeDone calls treeDone with the number of trees done so far.
func (p *progressFunc) TreeDone(fetch.Result, fetch.StatsSnapshot) {
	p.mu.Lock()
	p.done++
	n := p.done
	p.mu.Unlock()
	if p.treeDone != nil {
		p.treeDone(n)
	}
}

// notRetried checks that a run made no retry and that its failures are
// not given up after attempts: a whole 200 body that does not decode
// comes back the same when asked again.
func notRetried(t *testing.T, r *matrixResult) {
	t.Helper()
	if r.sum == nil {
		t.Fatalf("no summary: %v", r.err)
	}
	if n := r.sum.Stats.Retries; n != 0 {
		t.Errorf("%d retries, want none", n)
	}
	for _, f := range r.sum.Failures {
		if strings.Contains(f.Err.Error(), "gave up after") {
			t.Errorf("failure retried: %v", f.Err)
		}
	}
}

// resolvedOf selects the resolved trees of one curriculum.
func resolvedOf(id string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.URL.Path == "/api/v1/curricula/"+id+"/resolved" }
}

// anyResolved selects every resolved tree.
func anyResolved(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/resolved") }

// oneTree selects the resolved tree of Algebra 1, Texas, in Spanish.
func oneTree(r *http.Request) bool {
	q := r.URL.Query()
	return resolvedOf("101")(r) && q.Get("variant") == "Texas" && q.Get("locale") == "es"
}

// matrixResult is what a row's run produced, for its own checks.
type matrixResult struct {
	sum     *exporter.Summary
	err     error
	elapsed time.Duration // virtual time the faulty run took
	out     string
	before  map[string]string // the previous output, by full path
	after   map[string]string
	log     *requestLog
	// handler is the faulty sandbox with its middlewares.
	handler http.Handler
}

// faultRow is one row of the matrix: an arrangement and what the run
// must do under it.
type faultRow struct {
	name string
	// data is the dataset; nil means the sample.
	data func(t *testing.T) *dataset.Dataset
	// opts are the faulty sandbox's options (Limits nil means none).
	opts sandbox.Options
	// arrange adds faults, middlewares and mid-run changes.
	arrange func(e *matrixEnv)
	// noPrevious skips the previous export (the output starts empty).
	noPrevious bool

	// exit is the expected exit-code class.
	exit int
	// msg must appear in the error, or in the error of every failure.
	msg string
	// changed: the faulty run legitimately changes content, so a
	// successful run is not compared with the previous output.
	changed bool
	// check adds the row's own assertions.
	check func(t *testing.T, r *matrixResult)
	// raced: the row's fault meets the run's concurrency (workers that
	// retry, wait on a shared limiter, read cut or slow bodies, or stop
	// together), so TestFaultMatrixUnderRace runs it with the race
	// detector. The other rows check how one body or one answer is read,
	// which one goroutine does.
	raced bool
	// racedWebsite: under the detector too the row exports the website
	// (its check reads a page, or its fault stops the run while pages
	// render); the other raced rows export the JSON bundles alone there,
	// since their faults meet the fetch's workers, not the website's.
	racedWebsite bool
}

// regexpClock starts, once and outside any bubble, the clock goroutine of
// regexp2, the regexp engine chroma highlights code blocks with (curex
// gives every rule a match timeout of content.HighlightTimeout). regexp2 starts that goroutine on first use and stops it
// a second after the last deadline; started inside a synctest bubble it
// would belong to the bubble, mix the bubble's clock with the real one,
// and outlive the bubble (a deadlock panic). A deadline a day away keeps
// the real-time one running, so bubbles never start their own.
var regexpClock sync.Once

// startRegexpClock starts regexp2's clock outside any bubble; see
// regexpClock.
func startRegexpClock() {
	regexpClock.Do(func() {
		re := regexp2.MustCompile(`x`, regexp2.None)
		re.MatchTimeout = 24 * time.Hour
		_, _ = re.MatchString("x")
	})
}

// TestFaultMatrix runs the fault matrix; see the table in docs/reliability.md.
//
// make test runs it without the race detector (PLAIN_TESTS in the
// Makefile), where all its rows cost about as much as the raced ones
// under the detector; TestFaultMatrixUnderRace runs those. make soak runs
// every row with -race, twenty times.
func TestFaultMatrix(t *testing.T) {
	runFaultMatrix(t, faultRows(), matrixFormats)
}

// matrixFormats are the formats of the fault matrix's exports.
var matrixFormats = []string{"html", "json"}

// TestFaultMatrixUnderRace runs the rows of TestFaultMatrix whose faults
// meet the run's concurrency (faultRow.raced), with the race detector;
// without it, TestFaultMatrix runs them.
func TestFaultMatrixUnderRace(t *testing.T) {
	if !race.Enabled {
		t.Skip("TestFaultMatrix runs these rows without -race; this is their run under the detector")
	}
	// Rendering the website was most of a raced row's work under the
	// detector (66 CPU-s for 9 rows; without it 8): the rows whose fault
	// meets the fetch's workers alone export the JSON bundles, with the
	// same run, fetch and commit.
	var website, bundles []faultRow
	for _, row := range faultRows() {
		switch {
		case row.raced && row.racedWebsite:
			website = append(website, row)
		case row.raced:
			bundles = append(bundles, row)
		}
	}
	if len(website)+len(bundles) < 8 || len(website) == 0 {
		t.Fatalf("%d raced rows, %d of them with the website; want at least 8, and some", len(website)+len(bundles), len(website))
	}
	t.Run("website", func(t *testing.T) { runFaultMatrix(t, website, matrixFormats) })
	t.Run("bundles", func(t *testing.T) { runFaultMatrix(t, bundles, []string{"json"}) })
}

// runFaultMatrix runs rows, each in a synctest bubble, from one previous
// output of the sample, exporting formats.
func runFaultMatrix(t *testing.T, rows []faultRow, formats []string) {
	startRegexpClock()
	// The rows on the sample dataset all start from the same previous
	// output: export it once, outside the bubbles, and give each row a
	// copy (the same bytes as its own export would write, for half the
	// work of a row).
	ds, err := dataset.Sample()
	if err != nil {
		t.Fatal(err)
	}
	sample := filepath.Join(t.TempDir(), "out")
	exportPrevious(t, faultBase(true, token, sample, formats), ds)
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { runFaultRow(t, row, sample, formats) })
		})
	}
}

// faultBase is the configuration of a fault matrix export into out in
// formats, of the sample dataset or of a row's own.
func faultBase(sample bool, tok, out string, formats []string) exporter.Config {
	base := exporter.Config{
		BaseURL: "http://localhost", Token: tok, Output: out, Limits: ratelimit.Limits{},
		Concurrency: 4, Generator: "curex test", Formats: formats,
		// Images stay remote: fetching them would resolve "localhost"
		// through the net package's shared lookup group from inside the
		// synctest bubble, which the runtime refuses (a fatal error).
		// Images have their own tests (images_test.go).
		Assets: exporter.AssetsRemote,
	}
	if sample {
		base.Filter.Locales = []string{"en", "es"} // 14 trees of the sample's 28: enough, and twice as fast
	}
	return base
}

// exportPrevious writes the previously published output of ds from a
// healthy sandbox, as base says.
func exportPrevious(t *testing.T, base exporter.Config, ds *dataset.Dataset) {
	t.Helper()
	healthy, err := sandboxtest.New(t.Name(), ds, sandbox.Options{Limits: ratelimit.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := base
	cfg.CacheDir, cfg.Transport = t.TempDir(), &sandboxtest.Transport{Handler: healthy}
	sum, err := exporter.Run(t.Context(), cfg)
	if err != nil || sum.Partial() {
		t.Fatalf("previous export: %v %+v", err, sum)
	}
}

// runFaultRow exports the previous output (or copies it from sample, the
// previous output of the sample dataset), runs under the row's fault and
// checks the outcome.
func runFaultRow(t *testing.T, row faultRow, sample string, formats []string) {
	var ds *dataset.Dataset
	tok := token
	if row.data != nil {
		ds, tok = row.data(t), matrixToken
	} else {
		var err error
		if ds, err = dataset.Sample(); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	base := faultBase(row.data == nil, tok, out, formats)

	// The previously published output, from a healthy sandbox.
	before := map[string]string{}
	if !row.noPrevious {
		if row.data == nil {
			if err := os.CopyFS(out, os.DirFS(sample)); err != nil {
				t.Fatal(err)
			}
		} else {
			exportPrevious(t, base, ds)
		}
		before = files(t, out)
	}

	opts := row.opts
	if opts.Limits == nil {
		opts.Limits = ratelimit.Limits{}
	}
	h, err := sandboxtest.New(t.Name(), ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	env := &matrixEnv{t: t, ds: ds, h: h, cfg: base, log: &requestLog{}}
	env.cfg.CacheDir = t.TempDir() // a fresh cache: every body is fetched again
	if row.arrange != nil {
		row.arrange(env)
	}
	var handler http.Handler = h
	for i := len(env.wraps) - 1; i >= 0; i-- {
		handler = env.wraps[i](handler)
	}
	cfg := env.cfg
	cfg.Transport = &sandboxtest.Transport{Handler: env.log.wrap(handler)}
	cfg.Progress = env.progress

	start := time.Now()
	sum, err := exporter.Run(t.Context(), cfg)
	r := &matrixResult{sum: sum, err: err, elapsed: time.Since(start), out: out, before: before, after: files(t, out), log: env.log, handler: handler}

	if got := exitClass(sum, err); got != row.exit {
		t.Fatalf("exit class %d, want %d; err %v; failures %v", got, row.exit, err, failures(sum))
	}
	switch {
	case row.msg == "":
	case err != nil:
		if !strings.Contains(err.Error(), row.msg) {
			t.Errorf("error %q does not say %q", err, row.msg)
		}
	default:
		for _, fl := range sum.Failures {
			if !strings.Contains(fl.Err.Error(), row.msg) {
				t.Errorf("failure of %s: %q does not say %q", fl.Export.Dir(), fl.Err, row.msg)
			}
		}
	}
	if err != nil && strings.Contains(err.Error(), tok) {
		t.Errorf("the token is in the error: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 1 {
		t.Errorf("left beside the output: %v", entries)
	}
	switch {
	case err != nil:
		sameFiles(t, "the output after a failed run", before, r.after, "")
	case sum.Partial():
		checkKept(t, r)
	case !row.changed && !row.noPrevious:
		sameFiles(t, "the output after a successful run with no upstream change", before, r.after, "")
	}
	if err == nil && !sum.Partial() && sum.Written+sum.Reused != sum.Planned {
		t.Errorf("exported %d+%d of %d trees", sum.Written, sum.Reused, sum.Planned)
	}
	if err == nil {
		checkManifest(t, out)
	}
	if row.check != nil {
		row.check(t, r)
	}
}

// failures lists a summary's failures for messages.
func failures(sum *exporter.Summary) []string {
	if sum == nil {
		return nil
	}
	var out []string
	for _, fl := range sum.Failures {
		out = append(out, fl.Export.Dir()+": "+fl.Err.Error())
	}
	return out
}

// sameFiles compares two listings of files under prefix ("" for all).
func sameFiles(t *testing.T, what string, want, got map[string]string, prefix string) {
	t.Helper()
	n := 0
	for p, b := range want {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		n++
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: %s is gone", what, p)
		case g != b:
			t.Errorf("%s: %s changed", what, p)
		}
	}
	for p := range got {
		if strings.HasPrefix(p, prefix) {
			if _, ok := want[p]; !ok {
				t.Errorf("%s: %s is new", what, p)
			}
		}
	}
	if n == 0 && len(want) > 0 && prefix != "" {
		t.Errorf("%s: nothing under %s to compare", what, prefix)
	}
}

// anyUnder reports whether a listing of files holds one under prefix.
func anyUnder(files map[string]string, prefix string) bool {
	for p := range files {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// checkKept checks a partial run: every failed export kept its previous
// files byte for byte and is marked kept (or missing) in the manifest with
// its previous ETag; every other export is ok.
func checkKept(t *testing.T, r *matrixResult) {
	t.Helper()
	prev := readManifestFromFiles(t, r.out, r.before)
	m := readManifestFromFiles(t, r.out, r.after)
	failed := map[string]exporter.Failure{}
	for _, fl := range r.sum.Failures {
		failed[fl.Export.CurriculumID+"|"+fl.Export.Variant+"|"+fl.Export.Locale] = fl
		if fl.Kept != (prev != nil) {
			t.Errorf("%s: kept %v with a previous output %v", fl.Export.Dir(), fl.Kept, prev != nil)
		}
		if prev == nil {
			continue
		}
		// The website's folder and the bundles', of the formats exported.
		compared := 0
		for _, dir := range []string{fl.Export.Dir(), "bundles/" + fl.Export.Dir()} {
			prefix := filepath.Join(r.out, filepath.FromSlash(dir)) + string(filepath.Separator)
			if !anyUnder(r.before, prefix) {
				continue
			}
			sameFiles(t, "kept "+dir, r.before, r.after, prefix)
			compared++
		}
		if compared == 0 {
			t.Errorf("kept %s: no file of it in the previous output to compare", fl.Export.Dir())
		}
	}
	for _, e := range m.Exports {
		key := e.CurriculumID + "|" + e.Variant + "|" + e.Locale
		fl, isFailed := failed[key]
		switch {
		case !isFailed && e.State != output.StateOK:
			t.Errorf("manifest: %s is %s, but it did not fail", key, e.State)
		case isFailed && prev != nil && e.State != output.StateKept:
			t.Errorf("manifest: %s is %s, want kept", key, e.State)
		case isFailed && prev == nil && e.State != output.StateMissing:
			t.Errorf("manifest: %s is %s, want missing", key, e.State)
		case isFailed && e.Error != fl.Err.Error():
			t.Errorf("manifest: %s says %q, want %q", key, e.Error, fl.Err)
		}
		if isFailed && prev != nil {
			for _, p := range prev.Exports {
				if p.CurriculumID == e.CurriculumID && p.Variant == e.Variant && p.Locale == e.Locale && p.ETag != e.ETag {
					t.Errorf("manifest: kept %s has ETag %s, the previous %s", key, e.ETag, p.ETag)
				}
			}
		}
	}
}

// readManifestFromFiles decodes manifest.json from a listing of files, or
// returns nil when there is none.
func readManifestFromFiles(t *testing.T, out string, fs map[string]string) *output.Manifest {
	t.Helper()
	raw, ok := fs[filepath.Join(out, output.ManifestName)]
	if !ok {
		return nil
	}
	m, err := output.ReadManifest(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkManifest checks that manifest.json lists exactly the output's files
// with their sizes, every path safe, and that every JSON bundle validates.
func checkManifest(t *testing.T, out string) {
	t.Helper()
	fs := files(t, out)
	m := readManifestFromFiles(t, out, fs)
	if m == nil {
		t.Fatal("no manifest")
	}
	listed := map[string]bool{output.ManifestName: true}
	for _, f := range m.Files {
		listed[f.Path] = true
		if err := output.CheckPath(f.Path); err != nil {
			t.Errorf("manifest: %v", err)
		}
		if b, ok := fs[filepath.Join(out, filepath.FromSlash(f.Path))]; !ok || int64(len(b)) != f.Size {
			t.Errorf("manifest lists %s (%d bytes): on disk %v, %d bytes", f.Path, f.Size, ok, len(b))
		}
	}
	for p := range fs {
		rel, _ := filepath.Rel(out, p)
		if !listed[filepath.ToSlash(rel)] && !strings.HasPrefix(filepath.Base(p), ".") {
			t.Errorf("%s is not in the manifest", rel)
		}
	}
	v, err := treeschema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Exports {
		if e.JSON == "" {
			continue
		}
		if err := v.Validate([]byte(fs[filepath.Join(out, filepath.FromSlash(e.JSON))])); err != nil {
			t.Errorf("%s: %v", e.JSON, err)
		}
	}
}

// faultRows is the matrix.
func faultRows() []faultRow {
	stats := func(t *testing.T, r *matrixResult, what string, n int64) {
		t.Helper()
		if n == 0 {
			t.Errorf("no %s met: the row proves nothing (%+v)", what, r.sum.Stats)
		}
	}
	askedOnce := func(path string) func(t *testing.T, r *matrixResult) {
		return func(t *testing.T, r *matrixResult) {
			if n := r.log.count(path); n != 1 {
				t.Errorf("%s asked %d times, want once: asking again gets the same answer", path, n)
			}
		}
	}
	atLeast := func(d time.Duration) func(t *testing.T, r *matrixResult) {
		return func(t *testing.T, r *matrixResult) {
			if r.elapsed < d {
				t.Errorf("the run took %v of virtual time, want at least %v", r.elapsed, d)
			}
		}
	}
	return []faultRow{
		{
			name:  "5xx bursts",
			raced: true,
			arrange: func(e *matrixEnv) {
				e.faultsOn(nil, 2, "500=0.25,502=0.25,503=0.25,504=0.25")
			},
			exit: exitOK,
			check: func(t *testing.T, r *matrixResult) {
				stats(t, r, "5xx", r.sum.Stats.ServerErrors)
			},
		},
		{
			name: "5xx on every attempt of one tree",
			arrange: func(e *matrixEnv) {
				e.faultsOn(oneTree, 0, "500=0.5,502=0.5")
			},
			exit: exitPartial, msg: "gave up after 6 attempts",
		},
		{
			name:    "503 with Retry-After",
			arrange: func(e *matrixEnv) { e.faultsOn(anyResolved, 2, "503=1:7s") },
			exit:    exitOK,
			check:   atLeast(14 * time.Second),
		},
		{
			name:    "503 without Retry-After",
			arrange: func(e *matrixEnv) { e.faultsOn(anyResolved, 2, "503=1") },
			exit:    exitOK,
		},
		{
			name:  "429 with Retry-After",
			raced: true,
			opts:  sandbox.Options{Limits: mustLimits("10/1m")},
			exit:  exitOK,
			check: func(t *testing.T, r *matrixResult) {
				stats(t, r, "429", r.sum.Stats.RateLimited)
			},
		},
		{
			name: "429 without Retry-After",
			opts: sandbox.Options{Limits: mustLimits("10/1m"), OmitRetryAfter: true},
			exit: exitOK,
			check: func(t *testing.T, r *matrixResult) {
				stats(t, r, "429", r.sum.Stats.RateLimited)
				atLeast(time.Minute)(t, r)
			},
		},
		{
			name:    "429 from another client of the organization",
			raced:   true,
			arrange: func(e *matrixEnv) { e.faultsOn(anyResolved, 1, "429=1:3s") },
			exit:    exitOK,
		},
		{
			name:    "connections cut mid-body",
			raced:   true,
			arrange: func(e *matrixEnv) { e.faultsOn(nil, 2, "cut=1") },
			exit:    exitOK,
			check: func(t *testing.T, r *matrixResult) {
				stats(t, r, "retry", r.sum.Stats.Retries)
			},
		},
		{
			name:    "connection cut mid-body on every attempt of one tree",
			arrange: func(e *matrixEnv) { e.faultsOn(oneTree, 0, "cut=1") },
			exit:    exitPartial, msg: "unexpected EOF",
		},
		{
			name:    "slow bodies past the timeout",
			raced:   true,
			arrange: func(e *matrixEnv) { e.faultsOn(anyResolved, 1, "slow=1:90s") },
			exit:    exitOK,
			check:   atLeast(time.Minute),
		},
		{
			name:    "slow body past the timeout on every attempt of one tree",
			arrange: func(e *matrixEnv) { e.faultsOn(oneTree, 0, "slow=1:90s") },
			exit:    exitPartial, msg: "attempt timed out after 1m0s",
		},
		{
			name:         "401 in the middle of a run",
			raced:        true,
			racedWebsite: true,
			arrange: func(e *matrixEnv) {
				e.progress = &progressFunc{treeDone: func(n int) {
					if n == 5 {
						revoke(e.t, e.h, token)
					}
				}}
			},
			exit: exitFailed, msg: "401 unauthorized: token expired",
		},
		{
			name: "403 on one curriculum after discovery",
			arrange: func(e *matrixEnv) {
				e.progress = &progressFunc{planned: func() { moveCurriculum(e.t, e.h, "curriculum_201", "org-northwind") }}
			},
			exit: exitPartial, msg: `403 forbidden: token has no access to curriculum "curriculum_201"`,
		},
		{
			name:         "403 on one curriculum during discovery",
			raced:        true,
			racedWebsite: true,
			arrange: func(e *matrixEnv) {
				var once sync.Once
				e.wrap(func(next http.Handler) http.Handler {
					return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						if strings.HasPrefix(r.URL.Path, "/api/v1/curricula/curriculum_201/") {
							once.Do(func() { moveCurriculum(e.t, e.h, "curriculum_201", "org-northwind") })
						}
						next.ServeHTTP(w, r)
					})
				})
			},
			exit: exitPartial, msg: "of curriculum_201: GET /api/v1/curricula/curriculum_201/",
			check: func(t *testing.T, r *matrixResult) {
				if len(r.sum.Failures) != 6 {
					t.Errorf("%d failures, want the 6 exports of curriculum_201", len(r.sum.Failures))
				}
				landing := filepath.Join(r.out, "introduction-to-computer-science", "index.html")
				if _, ok := r.after[landing]; !ok || r.after[landing] != r.before[landing] {
					t.Error("the landing page of the unreadable curriculum was not kept")
				}
			},
		},
		{
			name: "a curriculum no longer listed, named by --curriculum",
			arrange: func(e *matrixEnv) {
				moveCurriculum(e.t, e.h, "curriculum_201", "org-northwind")
				e.cfg.Filter.Curricula = []string{"curriculum_201"}
			},
			exit: exitUsage, msg: `curricula: "curriculum_201" matches nothing (available: algebra-1 (id 101))`,
		},
		{
			name:    "invalid JSON with 200 on one tree",
			raced:   true,
			arrange: func(e *matrixEnv) { e.faultsOn(oneTree, 0, "invalid-json=1") },
			exit:    exitPartial, msg: "response is not the JSON expected",
			check: notRetried,
		},
		{
			name:    "HTML error page with 200 on one tree",
			arrange: func(e *matrixEnv) { e.faultsOn(oneTree, 0, "html=1") },
			exit:    exitPartial, msg: `Content-Type "text/html`,
			check: notRetried,
		},
		{
			name:    "HTML page with 200 everywhere",
			arrange: func(e *matrixEnv) { e.faultsOn(nil, 0, "html=1") },
			exit:    exitFailed, msg: "does not answer like the Curriculum Content API",
		},
		{
			name: "503 on every attempt of the curricula list",
			arrange: func(e *matrixEnv) {
				e.faultsOn(func(r *http.Request) bool { return r.URL.Path == "/api/v1/curricula" }, 0, "503=1")
			},
			exit: exitFailed, msg: "list curricula (page 1): gave up after 6 attempts",
		},
		{
			name:       "10 MB tree",
			data:       func(t *testing.T) *dataset.Dataset { return matrixDataset(bigTree(2000, 5000)) },
			noPrevious: true,
			exit:       exitOK,
			check: func(t *testing.T, r *matrixResult) {
				bundle := r.after[filepath.Join(r.out, "bundles", "big", "base", "en", "tree.json")]
				if len(bundle) < 10<<20 {
					t.Errorf("the bundle has %d bytes, want 10 MB", len(bundle))
				}
			},
		},
		{
			name:       "tree 10,000 levels deep",
			data:       func(t *testing.T) *dataset.Dataset { return matrixDataset(deepTree(10000)) },
			noPrevious: true,
			exit:       exitPartial, msg: "the JSON nests too deeply: more than 10000 levels",
			check: askedOnce("/api/v1/curricula/big/resolved"),
		},
		{
			name:       "tree 1,000 levels deep",
			data:       func(t *testing.T) *dataset.Dataset { return matrixDataset(deepTree(1000)) },
			noPrevious: true,
			exit:       exitPartial, msg: "the tree nests 1000 levels deep, more than the 100 curex exports",
			check: askedOnce("/api/v1/curricula/big/resolved"),
		},
		{
			name:       "tree 100 levels deep",
			data:       func(t *testing.T) *dataset.Dataset { return matrixDataset(deepTree(100)) },
			noPrevious: true,
			exit:       exitOK,
		},
		{
			name: "duplicate node ids",
			arrange: func(e *matrixEnv) {
				e.rewrite(resolvedOf("101"), func(body map[string]any) {
					walkNodes(body, func(n map[string]any) { n["id"] = "same-id" })
				})
			},
			exit: exitOK, changed: true,
			check: onePagePerNode("algebra-1/texas/es"),
		},
		{
			name: "a child repeating its parent's id",
			arrange: func(e *matrixEnv) {
				e.rewrite(resolvedOf("101"), func(body map[string]any) {
					walkNodes(body, func(n map[string]any) {
						if kids, _ := n["children"].([]any); len(kids) > 0 {
							kids[0].(map[string]any)["id"] = n["id"]
						}
					})
				})
			},
			exit: exitOK, changed: true,
			check: onePagePerNode("algebra-1/texas/es"),
		},
		{
			name: "negative positions in one tree",
			arrange: func(e *matrixEnv) {
				e.rewrite(oneTree, func(body map[string]any) {
					walkNodes(body, func(n map[string]any) { fieldsOf(n)["position"] = -1 })
				})
			},
			exit: exitOK, changed: true,
			check: bundleNodes("algebra-1/texas/es", func(t *testing.T, nodes []any) {
				var order func(ns []any)
				order = func(ns []any) {
					for i, x := range ns {
						n := x.(map[string]any)
						if n["position"] != float64(i) {
							t.Errorf("node %v: position %v, want %d (the served order)", n["id"], n["position"], i)
						}
						kids, _ := n["children"].([]any)
						order(kids)
					}
				}
				order(nodes)
			}),
		},
		{
			name: "an empty node id in one tree",
			arrange: func(e *matrixEnv) {
				e.rewrite(oneTree, func(body map[string]any) {
					first := true
					walkNodes(body, func(n map[string]any) {
						if first {
							n["id"], first = "", false
						}
					})
				})
			},
			exit: exitOK, changed: true,
			check: bundleNodes("algebra-1/texas/es", func(t *testing.T, nodes []any) {
				if id := nodes[0].(map[string]any)["id"]; id != "unnamed-1" {
					t.Errorf("the node served without an id has id %v, want unnamed-1", id)
				}
			}),
		},
		{
			name: "a source_locale that is no language tag in one tree",
			arrange: func(e *matrixEnv) {
				e.rewrite(oneTree, func(body map[string]any) {
					i := 0
					walkNodes(body, func(n map[string]any) {
						tm, _ := fieldsOf(n)["translation_metadata"].(map[string]any)
						if tm != nil {
							tm["source_locale"] = []string{"español!", "es_MX"}[i%2]
							i++
						}
					})
				})
			},
			exit: exitOK, changed: true,
			check: bundleNodes("algebra-1/texas/es", func(t *testing.T, nodes []any) {
				first := nodes[0].(map[string]any)["translation"].(map[string]any)
				second := nodes[1].(map[string]any)["translation"].(map[string]any)
				if first["source_locale"] != "" || second["source_locale"] != "es-MX" {
					t.Errorf("source locales %v and %v, want \"\" (not a tag: dropped) and es-MX (normalized)", first["source_locale"], second["source_locale"])
				}
			}),
		},
		{
			name: "a value of the wrong kind in one node of one tree",
			arrange: func(e *matrixEnv) {
				e.rewrite(oneTree, func(body map[string]any) {
					first := true
					walkNodes(body, func(n map[string]any) {
						if first {
							fieldsOf(n)["title"], first = map[string]any{"es": "x"}, false
						}
					})
				})
			},
			exit: exitPartial, msg: "title: got object, want a string",
		},
		{
			name:  "every record a plain object, fields at the top",
			raced: true,
			opts:  sandbox.Options{Records: sandbox.RecordsPlain},
			exit:  exitOK, changed: true, // the ETags differ with the bodies
			check: func(t *testing.T, r *matrixResult) {
				for p, b := range r.before {
					a, ok := r.after[p]
					switch {
					case !ok:
						t.Errorf("%s is gone", p)
					case strings.HasSuffix(p, ".html") && a != b:
						t.Errorf("%s changed", p)
					}
				}
				if len(r.after) != len(r.before) {
					t.Errorf("%d files, before %d", len(r.after), len(r.before))
				}
			},
		},
		{
			name: "POSIX-style locale codes",
			arrange: func(e *matrixEnv) {
				servePOSIX(e, "es", "es_ES")
				e.cfg.Filter.Locales = []string{"en", "es_ES"}
			},
			exit: exitOK, changed: true,
			check: func(t *testing.T, r *matrixResult) {
				raw, ok := r.after[filepath.Join(r.out, "bundles", "algebra-1", "texas", "es-es", "tree.json")]
				if !ok {
					t.Fatal("no bundle of algebra-1/texas/es-es")
				}
				var tree map[string]any
				if err := json.Unmarshal([]byte(raw), &tree); err != nil {
					t.Fatal(err)
				}
				if tree["locale"] != "es-ES" || tree["locale_as_served"] != "es_ES" {
					t.Errorf("locale %v, locale_as_served %v; want es-ES, es_ES", tree["locale"], tree["locale_as_served"])
				}
				if strings.Contains(r.after[filepath.Join(r.out, "bundles", "algebra-1", "texas", "en", "tree.json")], "locale_as_served") {
					t.Error("the en bundle has locale_as_served, though en was served as it is")
				}
			},
		},
		{
			name: "a locale entry with no code",
			arrange: func(e *matrixEnv) {
				addLocale(e, "101", "", "Ghost")
				e.cfg.Filter.Locales = nil
			},
			exit: exitOK, changed: true,
			check: func(t *testing.T, r *matrixResult) {
				for p := range r.after {
					if strings.Contains(p, string(filepath.Separator)+"x-") {
						t.Errorf("%s: an export of the locale with no code", p)
					}
				}
				if r.sum.Planned != 28 {
					t.Errorf("%d trees planned, want the sample's 28", r.sum.Planned)
				}
			},
		},
		{
			name: "a locale code that is no language tag",
			arrange: func(e *matrixEnv) {
				addLocale(e, "101", "klingon!!", "Klingon")
				answerAs(e, "klingon!!", "es") // a server that serves what it lists
				e.cfg.Filter.Locales = nil
			},
			noPrevious: true,
			exit:       exitPartial, msg: `locale code "klingon!!" is not a language tag`,
			check: func(t *testing.T, r *matrixResult) {
				if len(r.sum.Failures) != 4 || r.sum.Written != 28 {
					t.Errorf("%d failures, %d written; want the 4 variants of Algebra 1 in klingon!! failed, the sample's 28 trees written", len(r.sum.Failures), r.sum.Written)
				}
			},
		},
		{
			// A value no repair covers and a format refuses (the JSON
			// bundle's schema wants a language tag): the curriculum's
			// exports fail, each alone, and nothing of them is written.
			name: "a primary locale that is no language tag, refused by the JSON bundle",
			arrange: func(e *matrixEnv) {
				e.rewrite(func(r *http.Request) bool { return r.URL.Path == "/api/v1/curricula/101/locales" }, func(body map[string]any) {
					body["meta"].(map[string]any)["primary_locale"] = "english!!"
				})
			},
			exit: exitPartial, msg: `primary locale "english!!" is not a language tag`,
			check: func(t *testing.T, r *matrixResult) {
				for _, fl := range r.sum.Failures {
					if fl.Export.CurriculumID != "101" || !fl.Kept {
						t.Errorf("failed %s (kept %v): want only Algebra 1's exports failed, their previous files kept", fl.Export.Dir(), fl.Kept)
					}
				}
				if len(r.sum.Failures) == 0 || r.sum.Written == 0 {
					t.Errorf("%d failed, %d written; want Algebra 1's exports failed and the others written", len(r.sum.Failures), r.sum.Written)
				}
			},
		},
		{
			name: "cycle through /content_nodes children",
			arrange: func(e *matrixEnv) {
				e.rewrite(func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/v1/content_nodes/") }, func(body map[string]any) {
					data := body["data"].(map[string]any)
					rel := data["relationships"].(map[string]any)
					rel["children"] = map[string]any{"data": []any{map[string]any{"id": data["id"], "type": "content_node", "attributes": map[string]any{"title": "me again", "has_children": true}}}}
				})
			},
			exit: exitOK,
			check: func(t *testing.T, r *matrixResult) {
				if n := r.log.count("/api/v1/content_nodes/"); n != 0 {
					t.Errorf("%d requests to /content_nodes", n)
				}
				// The cycle is there for whoever follows it.
				req := httptest.NewRequest(http.MethodGet, "/api/v1/content_nodes/alg-u1", nil)
				req.Header.Set("Authorization", "Bearer "+token)
				rec := httptest.NewRecorder()
				r.handler.ServeHTTP(rec, req)
				if !strings.Contains(rec.Body.String(), `"children":{"data":[{"attributes":{"has_children":true,"title":"me again"},"id":"alg-u1"`) {
					t.Errorf("no cycle served: %.300s", rec.Body)
				}
			},
		},
	}
}

// servePOSIX makes the sandbox list the locale code as served instead of
// code, and answer resolved requests for served as for code, as an API
// with POSIX-style codes would.
func servePOSIX(e *matrixEnv, code, served string) {
	e.rewrite(func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/locales") }, func(body map[string]any) {
		for _, x := range body["data"].([]any) {
			if f := fieldsOf(x.(map[string]any)); f["code"] == code {
				f["code"] = served
			}
		}
		if m, _ := body["meta"].(map[string]any); m != nil && m["primary_locale"] == code {
			m["primary_locale"] = served
		}
	})
	answerAs(e, served, code)
}

// answerAs answers resolved requests for the locale code as for code.
func answerAs(e *matrixEnv, served, code string) {
	e.wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if q := r.URL.Query(); q.Get("locale") == served {
				q.Set("locale", code)
				r = r.Clone(r.Context())
				r.URL.RawQuery = q.Encode()
			}
			next.ServeHTTP(w, r)
		})
	})
}

// addLocale adds a locale entry to the locales the sandbox lists for
// curriculum id, in the form of the entries it serves.
func addLocale(e *matrixEnv, id, code, name string) {
	e.rewrite(func(r *http.Request) bool { return r.URL.Path == "/api/v1/curricula/"+id+"/locales" }, func(body map[string]any) {
		data := body["data"].([]any)
		entry := map[string]any{"id": id + ":" + code, "code": code, "name": name, "is_primary": false, "translation_progress": 100, "published_progress": 100}
		if first := data[0].(map[string]any); first["type"] != nil {
			entry = map[string]any{"id": id + ":" + code, "type": first["type"], "attributes": entry}
		}
		body["data"] = append(data, entry)
	})
}

// fieldsOf returns the members holding a decoded record's fields: its
// attributes in the resource form, the record itself in the plain form.
func fieldsOf(n map[string]any) map[string]any {
	if a, ok := n["attributes"].(map[string]any); ok && n["type"] != nil {
		return a
	}
	return n
}

// bundleNodes runs fn on the nodes of the JSON bundle of the export in dir.
func bundleNodes(dir string, fn func(t *testing.T, nodes []any)) func(t *testing.T, r *matrixResult) {
	return func(t *testing.T, r *matrixResult) {
		t.Helper()
		raw, ok := r.after[filepath.Join(r.out, "bundles", filepath.FromSlash(dir), "tree.json")]
		if !ok {
			t.Fatalf("no bundle of %s", dir)
		}
		var tree map[string]any
		if err := json.Unmarshal([]byte(raw), &tree); err != nil {
			t.Fatal(err)
		}
		nodes, _ := tree["nodes"].([]any)
		if len(nodes) < 2 {
			t.Fatalf("%s: %d root nodes", dir, len(nodes))
		}
		fn(t, nodes)
	}
}

// onePagePerNode checks that the export in dir has a page of its own for
// every node the manifest counts, whatever the ids.
func onePagePerNode(dir string) func(t *testing.T, r *matrixResult) {
	return func(t *testing.T, r *matrixResult) {
		t.Helper()
		m := readManifestFromFiles(t, r.out, r.after)
		nodes := -1
		for _, e := range m.Exports {
			if strings.HasPrefix(e.HTML, dir+"/") {
				nodes = e.NodeCount
			}
		}
		pages := 0
		prefix := filepath.Join(r.out, filepath.FromSlash(dir)) + string(filepath.Separator)
		for p := range r.after {
			if rel, ok := strings.CutPrefix(p, prefix); ok && strings.Count(rel, string(filepath.Separator)) == 1 && filepath.Base(rel) == "index.html" {
				pages++
			}
		}
		if nodes <= 0 || pages != nodes {
			t.Errorf("%s: %d node pages for %d nodes", dir, pages, nodes)
		}
	}
}

// matrixDataset is one organization with two curricula: "big" with the
// nodes given, and "small", a unit with a lesson.
func matrixDataset(nodes []dataset.Node) *dataset.Dataset {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	en := []dataset.Locale{{Code: "en", Name: "English"}}
	return &dataset.Dataset{
		Organizations: []dataset.Organization{{ID: "org", Name: "Org"}},
		Users:         []dataset.User{{ID: "u", Email: "u@example.org", Name: "U", Organization: "org"}},
		Tokens:        []dataset.Token{{Token: matrixToken, User: "u"}},
		NodeTypes:     []dataset.NodeType{{Name: "unit", DisplayName: "Unit"}, {Name: "lesson", DisplayName: "Lesson"}},
		Curricula: []dataset.Curriculum{
			{ID: "big", Organization: "org", Name: "Big", PrimaryLocale: "en", Locales: en, CreatedAt: t0, UpdatedAt: t0, Nodes: nodes},
			{ID: "small", Organization: "org", Name: "Small", PrimaryLocale: "en", Locales: en, CreatedAt: t0, UpdatedAt: t0,
				Nodes: []dataset.Node{{ID: "s1", Title: "Unit", NodeType: "unit", Children: []dataset.Node{{ID: "s2", Title: "Lesson", NodeType: "lesson"}}}}},
		},
	}
}

// bigTree is n lessons in units of ten, each with a description of size
// bytes.
func bigTree(n, size int) []dataset.Node {
	var units []dataset.Node
	para := strings.Repeat("Lorem ipsum dolor sit amet. ", size/28+1)[:size]
	desc, _ := json.Marshal(para)
	for i := 0; i < n; i += 10 {
		u := dataset.Node{ID: fmt.Sprintf("u%d", i/10), Title: fmt.Sprintf("Unit %d", i/10), NodeType: "unit"}
		for j := i; j < min(i+10, n); j++ {
			u.Children = append(u.Children, dataset.Node{ID: fmt.Sprintf("l%d", j), Title: fmt.Sprintf("Lesson %d", j), NodeType: "lesson",
				Attributes: map[string]json.RawMessage{"description": desc}})
		}
		units = append(units, u)
	}
	return units
}

// deepTree is a chain of depth nodes, each the only child of the previous.
func deepTree(depth int) []dataset.Node {
	n := dataset.Node{ID: fmt.Sprintf("d%d", depth-1), Title: "Leaf", NodeType: "lesson"}
	for i := depth - 2; i >= 0; i-- {
		n = dataset.Node{ID: fmt.Sprintf("d%d", i), Title: fmt.Sprintf("Level %d", i), NodeType: "unit", Children: []dataset.Node{n}}
	}
	return []dataset.Node{n}
}

// walkNodes calls fn for every resolved content node in a decoded body, in
// either record form (a plain node has no type, its fields at the top).
func walkNodes(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		_, plain := x["inheritance_metadata"]
		if x["type"] == "resolved_content_node" || (plain && x["id"] != nil) {
			fn(x)
		}
		for _, c := range x {
			walkNodes(c, fn)
		}
	case []any:
		for _, c := range x {
			walkNodes(c, fn)
		}
	}
}

// mustLimits parses rate limits such as "10/1m".
func mustLimits(s string) ratelimit.Limits {
	l, err := ratelimit.Parse(s)
	if err != nil {
		panic(err)
	}
	return l
}

// revoke expires tok now.
func revoke(t *testing.T, h *sandbox.Handler, tok string) {
	err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Tokens {
			if ds.Tokens[i].Token == tok {
				now := time.Now()
				ds.Tokens[i].ExpiresAt = &now
				return nil
			}
		}
		return errors.New("no such token")
	})
	if err != nil {
		t.Error(err)
	}
}

// moveCurriculum gives a base curriculum (and so its variants) to another
// organization: the token's requests for it are then answered 403.
func moveCurriculum(t *testing.T, h *sandbox.Handler, id, org string) {
	err := h.Edit(func(ds *dataset.Dataset) error {
		for i := range ds.Curricula {
			if ds.Curricula[i].ID == id {
				ds.Curricula[i].Organization = org
				return nil
			}
		}
		return fmt.Errorf("no curriculum %s", id)
	})
	if err != nil {
		t.Error(err)
	}
}
