// Package lint holds tests of house rules that apply to the whole module
// rather than to one package: no non-test function longer than 80 lines
// (TestNoFunctionOver80Lines) and no test-only package linked into the
// curex binary (TestBinaryDoesNotLinkHTTPTest). They run under
// go test -short ./..., so make check runs them.
//
// The package has no code of its own.
package lint
