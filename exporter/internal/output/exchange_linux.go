//go:build linux

package output

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b, which must both exist, in one atomic
// step: renameat2(2) with RENAME_EXCHANGE. At every moment each path names
// one of the two folders. When the kernel or the file system cannot
// exchange (ENOSYS before Linux 3.15 or under a seccomp filter that hides
// the call, EINVAL or EOPNOTSUPP from a file system without it, EPERM from
// an old seccomp filter), the error wraps errNoExchange and the caller
// falls back to two renames; a genuine permission problem fails those too.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL),
		errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.EPERM):
		return fmt.Errorf("%w: %w", errNoExchange, &os.LinkError{Op: "renameat2 exchange", Old: a, New: b, Err: err})
	default:
		return &os.LinkError{Op: "renameat2 exchange", Old: a, New: b, Err: err}
	}
}

// sameDevice reports whether the folders a and b are on the same file
// system (b is not a mount point below a); when either cannot be looked
// at, it answers true and the ordinary errors come later.
func sameDevice(a, b string) bool {
	var sa, sb unix.Stat_t
	if unix.Stat(a, &sa) != nil || unix.Stat(b, &sb) != nil {
		return true
	}
	return sa.Dev == sb.Dev
}
