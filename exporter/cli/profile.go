package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startProfile begins a CPU profile into path (--cpu-profile) and returns
// the function that ends it; with an empty path it does nothing. The
// profile is what to attach to a report of a slow export or build: it
// holds function names and sample counts, no content and no token.
func startProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usageErr(fmt.Errorf("--cpu-profile: %w", err))
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpu-profile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpu-profile %s: %w", path, err)
		}
		return nil
	}, nil
}
