// Package sandboxtest holds what end-to-end tests of other packages need
// of the sandbox, so that each does not keep a copy: a sandbox that serves
// records in the form the test run selects, and Transport, which serves a
// handler without sockets. Nothing in the curex binary imports it, so its
// test helpers (net/http/httptest) stay out of the binary.
//
// The specification allows two forms of records, resource objects
// (attributes under "attributes") and plain objects (fields at the top).
// New serves each test one of them, chosen by the name of the
// top-level test, so that one
// run of the suite sends both through curex's client end to end, about
// half the tests each, the same half on every run; the environment
// variable RecordsEnv forces one form for every test.
package sandboxtest

import (
	"fmt"
	"hash/fnv"
	"os"
	"strings"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// RecordsEnv names the environment variable that forces the record form
// New serves: "resource" or "plain"; unset or empty, each test gets the
// form its name chooses (Form).
const RecordsEnv = "CUREX_SANDBOX_RECORDS"

// New is sandbox.New serving records in the form RecordsEnv forces, or
// else the form Form chooses for name (the test's, t.Name(); a fixture
// shared by several tests names itself), unless opts names one. A value of
// RecordsEnv that is no form is an error, so that a typo cannot pass as
// the default.
func New(name string, ds *dataset.Dataset, opts sandbox.Options) (*sandbox.Handler, error) {
	if opts.Records == "" {
		env := os.Getenv(RecordsEnv)
		if env == "" {
			opts.Records = Form(name)
		} else {
			form, err := sandbox.ParseRecordForm(env)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", RecordsEnv, err)
			}
			opts.Records = form
		}
	}
	return sandbox.New(ds, opts)
}

// Form is the record form New serves the test named name when RecordsEnv
// is unset: plain when the FNV-1a hash of the top-level test's name (name
// up to its first "/") is odd, resource otherwise. The subtests of a test
// share its form, and so the outputs and caches it makes for them.
func Form(name string) sandbox.RecordForm {
	top, _, _ := strings.Cut(name, "/")
	h := fnv.New32a()
	h.Write([]byte(top))
	if h.Sum32()%2 == 1 {
		return sandbox.RecordsPlain
	}
	return sandbox.RecordsResource
}
