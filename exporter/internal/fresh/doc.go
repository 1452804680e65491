// Package fresh decides which resolved trees a run fetches, so that an
// organization larger than the API's hourly budget can still be exported
// every night.
//
// Every tree (one variant × locale) costs a request, and a conditional
// request answered 304 costs one too: at 1000 requests an hour, 25,000
// trees need 25 hours even when nothing changed. So a run reads the cheap
// signals first, during discovery (the curricula list with every variant
// record's updated_at, and each curriculum's locale progress), and sums up
// the signals that shape each tree (Signal). A tree whose signal is the
// one recorded when it was last fetched is skipped without a request: its
// last body is in the ETag cache.
//
// Signals can miss an edit (a translation fixed without a progress change,
// a record in the alternate shape with no updated_at), so unchanged trees
// are also revalidated on a rolling schedule (Policy): each run takes a
// share of them, oldest first, sized so that every tree is revalidated
// within the window.
//
// Decide orders what a run fetches: new and changed trees first, then
// revalidation by age. Store keeps what is known of each tree next to the
// cache, and records each fetched tree at once (an append-only journal), so
// a run killed at its deadline loses nothing and the next one repeats no
// request that had succeeded.
package fresh
