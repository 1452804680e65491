package exporter

// StemsRun is the number of words w's stemmers have run through an
// interpreter (the others came from their memo): for the tests of
// package exporter_test.
func StemsRun(w *Warm) int64 { return w.stemmers.Runs() }
