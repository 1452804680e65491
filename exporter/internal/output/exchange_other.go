//go:build !linux

package output

// exchange reports errNoExchange: only Linux has an atomic exchange of two
// folders here (renameat2 with RENAME_EXCHANGE), so Commit falls back to
// two renames.
func exchange(a, b string) error { return errNoExchange }

// sameDevice reports true: only Linux looks for a mount point here.
func sameDevice(a, b string) bool { return true }
