// Package release holds the tests of curex's release artefacts that are
// not Go code: the composite GitHub Action (action.yml at the repository's
// root) and the GitLab CI example (docs/ci.gitlab-ci.yml). The tests read
// each file, take out its shell steps, and run them as the CI service
// would, against a snapshot release that GoReleaser built (make
// release-check; CUREX_RELEASE_DIST names its dist folder) served over
// loopback HTTP, and against curex sandbox run from that release's
// binary. A broken step, a wrong archive name or a checksum that does not
// verify fails them.
//
// The package has no code of its own.
package release
