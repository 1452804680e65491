// Package sandboxtest holds what end-to-end tests of other packages need
// of the sandbox, so that each does not keep a copy: a sandbox that serves
// records in the form the test run selects, and Transport, which serves a
// handler without sockets. Nothing in the curex binary imports it, so its
// test helpers (net/http/httptest) stay out of the binary.
//
// make test runs the end-to-end tests twice, once with the sandbox's
// records as resource objects (attributes under "attributes") and once as
// plain objects (fields at the top), both forms the specification allows;
// the environment variable RecordsEnv says which.
package sandboxtest

import (
	"fmt"
	"os"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// RecordsEnv names the environment variable that selects the record form
// New serves: "resource" (or unset) or "plain".
const RecordsEnv = "CUREX_SANDBOX_RECORDS"

// New is sandbox.New serving records in the form RecordsEnv selects,
// unless opts names one. A value of RecordsEnv that is no form is an
// error, so that a typo cannot pass as the default.
func New(ds *dataset.Dataset, opts sandbox.Options) (*sandbox.Handler, error) {
	form, err := sandbox.ParseRecordForm(os.Getenv(RecordsEnv))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RecordsEnv, err)
	}
	if opts.Records == "" {
		opts.Records = form
	}
	return sandbox.New(ds, opts)
}
