package main

import (
	"os"

	"github.com/curex/curex/exporter/sandbox"
	"github.com/curex/curex/exporter/sandbox/dataset"
)

// recordsEnv names the environment variable that selects the record form
// the end-to-end tests' sandboxes serve: resource (unset) or plain. make
// test runs the end-to-end tests once in each.
const recordsEnv = "CUREX_SANDBOX_RECORDS"

// newSandbox is sandbox.New serving records in the form recordsEnv
// selects, unless opts names one; a value that is no form panics, so a
// typo cannot pass as the default.
func newSandbox(ds *dataset.Dataset, opts sandbox.Options) (*sandbox.Handler, error) {
	form, err := sandbox.ParseRecordForm(os.Getenv(recordsEnv))
	if err != nil {
		panic(recordsEnv + ": " + err.Error())
	}
	if opts.Records == "" {
		opts.Records = form
	}
	return sandbox.New(ds, opts)
}
