package content

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Highlighting must give the same bytes on any machine, however loaded,
// and a hostile code block must not stall a run. Chroma compiles every
// rule of its lexers with a match timeout of 250 ms of wall-clock time and
// treats a match that times out as no match (an error token): on a loaded
// machine the same block highlighted differently from run to run. Chroma
// offers no setting for it, so curex highlights with lexers of its own
// (highlighter): copies of chroma's regular-expression lexers, in a
// registry of their own, whose rules get a match timeout of
// HighlightTimeout as they are compiled (through a lexer mutator, chroma's
// hook that sees the compiled rules). Nothing global is changed: chroma's
// registry and lexers are left as they are.
//
// Then the bytes never depend on the clock: a match can only time out
// after HighlightTimeout of wall-clock time, and highlighting a block that
// took that long fails (ErrHighlightTimeout) instead of giving other
// bytes. What is highlighted at all depends on the block alone: blocks
// over maxHighlight bytes, with a line over maxHighlightLine bytes, that
// the lexer loops on (more than maxMatches matches), or in
// a language only chroma's own lexers know (markdown, HTTP, ERB, Svelte,
// Go HTML templates, the Lisps: lexers that are not plain regular
// expression lexers and reach chroma's registry) are shown plain.

// HighlightTimeout bounds the time one code block may take to highlight.
// Real code takes microseconds to milliseconds; only a pathological
// pattern on hostile text comes near, and it then fails its page (its
// export) rather than stall the run or come out different.
const HighlightTimeout = 20 * time.Second

// maxHighlightLine is the longest line a highlighted block may have:
// catastrophic backtracking needs long runs of text within a line (the
// lexers' patterns are multi-line but rarely cross line ends).
const maxHighlightLine = 2000

// ErrHighlightTimeout is the error, wrapped, of a code block whose
// highlighting took longer than HighlightTimeout.
var ErrHighlightTimeout = errors.New("highlighting took too long")

// highlighter finds lexers in a registry of copies of chroma's regular
// expression lexers, compiled without a short match timeout.
type highlighter struct {
	registry *chroma.LexerRegistry
	// timeout is every rule's match timeout and the limit of one block
	// (HighlightTimeout; tests make it shorter).
	timeout time.Duration
	// now is the clock the limit is measured with (time.Now).
	now func() time.Time

	mu sync.Mutex
	// compiled holds the rules of every lexer compiled so far, by name,
	// for tests.
	compiled map[string]chroma.CompiledRules
	// goRawStrings says the Go lexer's raw strings use this registry's
	// template lexer (see ownGoRawStrings), for tests.
	goRawStrings bool
}

// untimedState is the state, of curex's own, that holds the rule whose
// mutator sets the match timeouts; the mutator removes it.
const untimedState = "curex-match-timeout"

func newHighlighter() *highlighter {
	h := &highlighter{registry: chroma.NewLexerRegistry(), timeout: HighlightTimeout, now: time.Now,
		compiled: map[string]chroma.CompiledRules{}}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		rl, ok := l.(*chroma.RegexLexer)
		if !ok {
			continue // wraps chroma's own lexers: see the comment above
		}
		name := rl.Config().Name
		if name == "Raku" {
			continue // looks up embedded languages in chroma's registry
		}
		h.registry.Register(chroma.MustNewLexer(rl.Config(), func() chroma.Rules {
			rules := rl.MustRules().Clone()
			if name == "Go" {
				h.ownGoRawStrings(rules)
			}
			h.watch(rules)
			rules[untimedState] = []chroma.Rule{{Pattern: "", Mutator: &timeoutSetter{h: h, lexer: name}}}
			return rules
		}))
	}
	return h
}

// goRawString is the rule of chroma's Go lexer for raw strings, which it
// highlights with chroma's own Go template lexer, by reference.
const goRawString = "(`)([^`]*)(`)"

// ownGoRawStrings makes the Go lexer's rules highlight raw strings with
// this registry's Go template lexer, as chroma's does with its own.
func (h *highlighter) ownGoRawStrings(rules chroma.Rules) {
	for i, r := range rules["root"] {
		if r.Pattern == goRawString {
			tmpl := chroma.TypeRemappingLexer(h.registry.Get("Go Text Template"), chroma.TypeMapping{{From: chroma.Other, To: chroma.LiteralString}})
			rules["root"][i].Type = chroma.ByGroups(chroma.LiteralString, chroma.UsingLexer(tmpl), chroma.LiteralString)
			h.mu.Lock()
			h.goRawStrings = true
			h.mu.Unlock()
		}
	}
}

// watch makes every rule of rules report to the watchdog each time it
// matches (see watchedEmitter); a rule that only mutates the lexer as it
// compiles (include, combined) is left as it is, being replaced then.
func (h *highlighter) watch(rules chroma.Rules) {
	for _, rs := range rules {
		for i := range rs {
			if _, ok := rs[i].Mutator.(chroma.LexerMutator); ok {
				continue
			}
			rs[i].Type = &watchedEmitter{inner: rs[i].Type, h: h}
		}
	}
}

// Keys of what the watchdog keeps in a chroma.LexerState.
type (
	deadlineKey struct{}
	matchesKey  struct{}
)

// maxMatches bounds the rule matches of one run of a lexer over text of n
// runes: a few per rune in real code (a token, a state pushed or
// popped). A lexer that loops without moving on (chroma's Jungle lexer
// does on some text) reaches it, whatever the clock.
func maxMatches(n int) int { return 32*n + 1024 }

// errLoop is the panic of a lexer past maxMatches, recovered by tokenise.
var errLoop = errors.New("the lexer does not move on")

// watchedEmitter wraps a rule's emitter (nil for none): chroma's lexers
// call it after every match, in the goroutine that reads the tokens, so
// it can stop a lexer that loops inside one token, where tokenise's own
// check between tokens never comes. It counts the matches of the
// lexer's run against maxMatches, which depends on the text alone, and
// checks the time against HighlightTimeout; past either it panics with
// errLoop or ErrHighlightTimeout, which tokenise recovers.
type watchedEmitter struct {
	inner chroma.Emitter
	h     *highlighter
}

// Emit implements chroma.Emitter.
func (e *watchedEmitter) Emit(groups []string, state *chroma.LexerState) chroma.Iterator {
	n, _ := state.Get(matchesKey{}).(int)
	if n++; n > maxMatches(len(state.Text)) {
		panic(errLoop)
	}
	state.Set(matchesKey{}, n)
	now := e.h.now()
	if d, ok := state.Get(deadlineKey{}).(time.Time); !ok {
		state.Set(deadlineKey{}, now.Add(e.h.timeout))
	} else if !now.Before(d) {
		panic(ErrHighlightTimeout)
	}
	if e.inner == nil {
		return chroma.Literator()
	}
	return e.inner.Emit(groups, state)
}

// ValidateEmitter implements chroma.ValidatingEmitter for the emitters
// that check their rule (ByGroups against the groups of its pattern).
func (e *watchedEmitter) ValidateEmitter(rule *chroma.CompiledRule) error {
	if v, ok := e.inner.(chroma.ValidatingEmitter); ok {
		return v.ValidateEmitter(rule)
	}
	return nil
}

// lexer returns the lexer of language lang, nil when there is none.
func (h *highlighter) lexer(lang string) chroma.Lexer { return h.registry.Get(lang) }

// timeoutSetter is a chroma.LexerMutator: chroma calls it once, when the
// lexer's rules are compiled, and it sets their match timeout.
type timeoutSetter struct {
	h     *highlighter
	lexer string
}

// Mutate implements chroma.Mutator; the rule is gone before any text is
// read.
func (*timeoutSetter) Mutate(*chroma.LexerState) error { return nil }

// MutateLexer implements chroma.LexerMutator.
func (m *timeoutSetter) MutateLexer(rules chroma.CompiledRules, state string, _ int) error {
	delete(rules, state)
	for _, rs := range rules {
		for _, r := range rs {
			if r.Regexp != nil {
				r.Regexp.MatchTimeout = m.h.timeout
			}
		}
	}
	m.h.mu.Lock()
	m.h.compiled[m.lexer] = rules
	m.h.mu.Unlock()
	return nil
}

// tokenise runs lexer on code. Tokens come one at a time; highlighting
// that has taken longer than the timeout stops with ErrHighlightTimeout
// (a match that timed out may have changed the tokens), a lexer that
// loops with errLoop.
func (h *highlighter) tokenise(lexer chroma.Lexer, code string) (tokens []chroma.Token, err error) {
	defer func() {
		if p := recover(); p != nil {
			switch p {
			case errLoop:
				tokens, err = nil, errLoop
			case ErrHighlightTimeout:
				tokens, err = nil, fmt.Errorf("%w: more than %s", ErrHighlightTimeout, h.timeout)
			default:
				panic(p)
			}
		}
	}()
	start := h.now()
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return nil, err
	}
	for t := it(); t != chroma.EOF; t = it() {
		if h.now().Sub(start) >= h.timeout {
			return nil, fmt.Errorf("%w: more than %s", ErrHighlightTimeout, h.timeout)
		}
		tokens = append(tokens, t)
	}
	if h.now().Sub(start) >= h.timeout {
		return nil, fmt.Errorf("%w: more than %s", ErrHighlightTimeout, h.timeout)
	}
	return tokens, nil
}
