package plainfile

import "errors"

// ErrNotRegular is ReadFile's error for a name that is not a regular file
// (a folder, a device, a pipe).
var ErrNotRegular = errors.New("not a regular file")
