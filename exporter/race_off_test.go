//go:build !race

package exporter_test

// raceDetector is true when the tests run with -race: the largest tests
// then run at a smaller scale (the detector slows them tenfold).
const raceDetector = false
