package mathml

import (
	"container/list"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/curex/curex/exporter/internal/diskcache"
)

//go:embed temml/temml.min.js
var temmlJS string

// mhchemJS is Temml's mhchem extension (\ce and \pu, chemistry), loaded
// after Temml into the same interpreter; see temml/mhchem.NOTICE.
//
//go:embed temml/mhchem.min.js
var mhchemJS string

// TemmlVersion is the version of the vendored Temml.
const TemmlVersion = "0.13.5"

// Defaults of Options.
const (
	// DefaultMaxInput is the longest expression converted, in bytes: a
	// page of TeX, far above any real equation.
	DefaultMaxInput = 4 << 10
	// DefaultCacheBytes bounds the results a Converter keeps, by the
	// bytes of their TeX and MathML: about 25,000 formulas of a few
	// hundred bytes each, so that a tree's formulas, counted before its
	// formats render it, are still there when they do (a bound by count
	// of 4,096 made a tree of 5,882 formulas read every one twice).
	DefaultCacheBytes = 16 << 20
	// maxExpand bounds Temml's macro expansions per expression (its
	// own default is 1000).
	maxExpand = 1000
	// maxCallStack bounds the interpreter's call depth, so that deeply
	// nested braces are a parse error, not a Go stack overflow.
	maxCallStack = 4096
)

// ErrTooLong is the error of an expression over Options.MaxInput bytes.
var ErrTooLong = errors.New("mathml: expression too long")

// ParseError is the error of an expression Temml cannot read: the
// expression is the author's to fix, and the rest of the page renders.
type ParseError struct {
	// Msg is Temml's message, e.g. "Undefined control sequence: \foo".
	Msg string
}

func (e *ParseError) Error() string { return "mathml: " + e.Msg }

// Options configure a Converter. Zero values mean the defaults.
type Options struct {
	// Runtimes bounds how many interpreters run at once (each holds
	// Temml, a few MB): GOMAXPROCS by default.
	Runtimes int
	// CacheBytes bounds the results kept, by the bytes of their TeX and
	// MathML (DefaultCacheBytes); negative keeps none.
	CacheBytes int
	// MaxInput is the longest expression converted, in bytes
	// (DefaultMaxInput).
	MaxInput int
	// Store, when set, keeps Temml's output between runs (the cache
	// folder's math/, a diskcache.Store): a conversion it holds costs no
	// interpreter (the output is sanitized again). Its Get and Put must be
	// safe for concurrent use; a Put that fails costs only the next run a
	// conversion, so it reports nothing.
	Store diskcache.Cache
}

// Converter converts TeX to sanitized MathML. Its zero value is not
// usable; make one with New. A Converter is safe for concurrent use; its
// interpreters are made as they are needed, so one that never converts
// costs nothing.
type Converter struct {
	opts    Options
	compile func() ([]*goja.Program, error)

	// idle holds the interpreters not in use; made counts those made.
	mu   sync.Mutex
	made int
	idle chan *engine

	cache *cache
	// code is codeSum's, for the Store's keys.
	code func() string
}

// New returns a Converter with options o.
func New(o Options) *Converter {
	if o.Runtimes <= 0 {
		o.Runtimes = runtime.GOMAXPROCS(0)
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.MaxInput <= 0 {
		o.MaxInput = DefaultMaxInput
	}
	return &Converter{
		opts:    o,
		compile: sync.OnceValues(compileTemml),
		idle:    make(chan *engine, o.Runtimes),
		cache:   newCache(max(o.CacheBytes, 0)),
		code:    sync.OnceValue(codeSum),
	}
}

// Convert returns the MathML of tex, sanitized: <math display="block">
// when display is set, <math> (inline) otherwise. An expression Temml
// cannot read is a *ParseError, one too long ErrTooLong, one over its
// work budget a *BudgetError; these are the expression's alone (see
// IsExpressionError). Any other error (ctx done, an interpreter that
// failed to load) is the run's. ctx's end stops a conversion under way.
func (c *Converter) Convert(ctx context.Context, tex string, display bool) (string, error) {
	if len(tex) > c.opts.MaxInput {
		return "", fmt.Errorf("%w (%d bytes, at most %d)", ErrTooLong, len(tex), c.opts.MaxInput)
	}
	k := key{tex: tex, display: display}
	if r, ok := c.cache.get(k); ok {
		return r.out, r.err
	}
	raw, err := c.render(ctx, tex, display)
	if err != nil && !IsExpressionError(err) {
		return "", err
	}
	var out string
	if err == nil {
		// What Sanitize refuses (MathML nested deeper than the HTML
		// parser goes) is the expression's fault too.
		if out, err = Sanitize(raw); err != nil {
			err = &ParseError{Msg: "unusable MathML: " + strings.TrimPrefix(err.Error(), "parse mathml: ")}
		}
	}
	if err == nil || IsExpressionError(err) {
		// Only what depends on the expression alone is kept.
		c.cache.put(k, result{out: out, err: err})
	}
	return out, err
}

// render returns Temml's output for tex: the Store's when it holds it,
// else an interpreter's, which the Store then keeps.
func (c *Converter) render(ctx context.Context, tex string, display bool) (string, error) {
	var sk string
	if c.opts.Store != nil {
		sk = storeKey(c.code(), tex, display)
		if raw, ok := c.opts.Store.Get(sk); ok {
			return string(raw), nil
		}
	}
	e, err := c.engine(ctx)
	if err != nil {
		return "", err
	}
	raw, err := e.render(ctx, tex, display)
	c.idle <- e
	if err == nil && c.opts.Store != nil {
		_ = c.opts.Store.Put(sk, []byte(raw)) // a miss next run is all a failure costs
	}
	return raw, err
}

// IsExpressionError reports whether err, from Convert, is the
// expression's alone (a *ParseError, a *BudgetError or ErrTooLong): the
// page shows the expression's TeX and the run goes on.
func IsExpressionError(err error) bool {
	var pe *ParseError
	var be *BudgetError
	return errors.As(err, &pe) || errors.As(err, &be) || errors.Is(err, ErrTooLong)
}

// engine returns an idle interpreter, makes one when fewer than Runtimes
// exist, or waits for one.
func (c *Converter) engine(ctx context.Context) (*engine, error) {
	select {
	case e := <-c.idle:
		return e, nil
	default:
	}
	c.mu.Lock()
	if c.made < c.opts.Runtimes {
		c.made++
		c.mu.Unlock()
		e, err := c.newEngine()
		if err != nil {
			c.mu.Lock()
			c.made--
			c.mu.Unlock()
			return nil, err
		}
		return e, nil
	}
	c.mu.Unlock()
	select {
	case e := <-c.idle:
		return e, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// engine is one interpreter with Temml loaded.
type engine struct {
	vm *goja.Runtime
	fn goja.Callable
}

// compileTemml compiles the vendored Temml and its mhchem extension,
// each with the budget's patches, in the order they are loaded.
func compileTemml() ([]*goja.Program, error) {
	src, err := patchTemml(temmlJS, budgetPatches)
	if err != nil {
		return nil, err
	}
	temml, err := goja.Compile("temml.min.js", src, true)
	if err != nil {
		return nil, err
	}
	msrc, err := patchTemml(mhchemJS, mhchemPatches)
	if err != nil {
		return nil, err
	}
	mhchem, err := goja.Compile("mhchem.min.js", msrc, false)
	if err != nil {
		return nil, err
	}
	return []*goja.Program{temml, mhchem}, nil
}

// renderJS wraps temml.renderToString with curex's options: errors
// thrown, trust off, the TeX kept as an annotation, macro expansion
// bounded; it resets the budget's counters first.
const renderJS = `(function (tex, display) {
	` + jsSteps + ` = 0; ` + jsNodes + ` = 0; ` + jsBytes + ` = 0;
	return temml.renderToString(tex, {
		displayMode: display, throwOnError: true, trust: false,
		annotate: true, xml: false, maxExpand: %d,
	});
})`

// newEngine makes an interpreter and loads Temml and mhchem into it: about 5 ms
// once the program is compiled (30 ms, once per Converter); see
// BenchmarkLoad.
func (c *Converter) newEngine() (*engine, error) {
	progs, err := c.compile()
	if err != nil {
		return nil, fmt.Errorf("mathml: compile temml: %w", err)
	}
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStack)
	for name, v := range map[string]any{
		jsSteps: 0, jsNodes: 0, jsBytes: 0,
		jsMaxSteps: maxTokenSteps, jsMaxNodes: maxNodes, jsMaxBytes: maxMarkupBytes,
		// Over budget, the conversion stops where it is: an interrupt,
		// which no try/catch in Temml can catch.
		jsOver: func(i int64) { vm.Interrupt(budgetError(i)) },
	} {
		if err := vm.Set(name, v); err != nil {
			return nil, fmt.Errorf("mathml: load temml: %w", err)
		}
	}
	for i, prog := range progs {
		if _, err := vm.RunProgram(prog); err != nil {
			return nil, fmt.Errorf("mathml: load %s: %w", [...]string{"temml", "mhchem"}[i], err)
		}
	}
	v, err := vm.RunString(fmt.Sprintf(renderJS, maxExpand))
	if err != nil {
		return nil, fmt.Errorf("mathml: load temml: %w", err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, errors.New("mathml: load temml: no render function")
	}
	return &engine{vm: vm, fn: fn}, nil
}

// render runs Temml on tex. ctx's end interrupts it.
func (e *engine) render(ctx context.Context, tex string, display bool) (string, error) {
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(interrupted)
		e.vm.Interrupt(ctx.Err())
	})
	v, err := e.fn(goja.Undefined(), e.vm.ToValue(tex), e.vm.ToValue(display))
	if !stop() {
		// The interrupt has started, maybe after the call ended: wait
		// until it is set, then clear it so the next call on this
		// interpreter does not see it.
		<-interrupted
		e.vm.ClearInterrupt()
		if err == nil {
			err = ctx.Err()
		}
	}
	if err == nil {
		s, ok := v.Export().(string)
		if !ok {
			return "", errors.New("mathml: temml returned no string")
		}
		return s, nil
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		be, over := ie.Value().(*BudgetError)
		if over {
			// The budget's interrupt, set on this goroutine: clear it
			// so that the next conversion on e runs.
			e.vm.ClearInterrupt()
		}
		if cerr := ctx.Err(); cerr != nil {
			return "", fmt.Errorf("mathml: %w", cerr)
		}
		if over {
			return "", be
		}
		return "", fmt.Errorf("mathml: temml: %w", err)
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return "", &ParseError{Msg: parseMessage(ex)}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return "", &ParseError{Msg: "expression nested too deeply"}
	}
	return "", fmt.Errorf("mathml: temml: %w", err)
}

// parseMessage is the message of a JavaScript exception, without the
// "ParseError: " name, the JavaScript position, or Temml's underlined
// excerpt of the expression (the page shows the expression itself).
func parseMessage(ex *goja.Exception) string {
	msg := ex.Value().String()
	if obj, ok := ex.Value().(*goja.Object); ok {
		if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
			msg = m.String()
		}
	}
	msg = strings.TrimSpace(strings.TrimPrefix(msg, "ParseError:"))
	if i := strings.Index(msg, " at position "); i >= 0 {
		msg = msg[:i]
	}
	if i := strings.Index(msg, " at end of input"); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSpace(msg)
}

// key identifies a conversion.
type key struct {
	tex     string
	display bool
}

// result is a conversion's outcome.
type result struct {
	out string
	err error
}

// cache is a least-recently-used map of results, bounded by their size
// (cacheSize).
type cache struct {
	mu    sync.Mutex
	max   int // bytes
	size  int
	order *list.List // of *cacheEntry, most recent first
	m     map[key]*list.Element
}

type cacheEntry struct {
	k key
	r result
}

// entryOverhead is what an entry costs beyond its TeX and MathML: the
// list element, the map entry, the strings' headers.
const entryOverhead = 160

// cacheSize is what e counts against the bound.
func cacheSize(k key, r result) int { return len(k.tex) + len(r.out) + entryOverhead }

func newCache(maxBytes int) *cache {
	return &cache{max: maxBytes, order: list.New(), m: map[key]*list.Element{}}
}

func (c *cache) get(k key) (result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[k]
	if !ok {
		return result{}, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).r, true
}

func (c *cache) put(k key, r result) {
	if c.max == 0 || cacheSize(k, r) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[k]; ok {
		e := el.Value.(*cacheEntry)
		c.size += cacheSize(k, r) - cacheSize(k, e.r)
		e.r = r
		c.order.MoveToFront(el)
	} else {
		c.m[k] = c.order.PushFront(&cacheEntry{k: k, r: r})
		c.size += cacheSize(k, r)
	}
	for c.size > c.max {
		last := c.order.Back()
		e := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.m, e.k)
		c.size -= cacheSize(e.k, e.r)
	}
}
