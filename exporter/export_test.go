package exporter

// StemsRun is the number of words w's stemmers have run through an
// interpreter (the others came from their memo): for the tests of
// package exporter_test.
func StemsRun(w *Warm) int64 { return w.stemmers.Runs() }

// TreesDecoded is the number of trees read from the cache that w's memo
// did not hold and a build decoded: for the tests of package
// exporter_test.
func TreesDecoded(w *Warm) int64 { return w.decoded.Decoded() }
