// Package docsite holds the tests of the documentation a user starts
// from: README.md (what curex is, install, a quickstart from a token to a
// published site, where to go next) and the documentation site that
// mkdocs.yml at the repository's root builds from docs/, with the hooks of
// .ci/mkdocs_hooks.py that point links outside docs/ at the repository and
// check every #anchor. make docs builds the same site in make test.
//
// The package has no code of its own.
package docsite
