//go:build !race

// Package race says whether the binary was built with the race detector,
// so that a test can size itself: the detector makes code 5 to 10 times
// slower, and make test runs the largest tests once more without it.
package race

// Enabled is true when built with -race.
const Enabled = false
