//go:build linux

package plainfile

import (
	"io"
	"io/fs"
	"syscall"
	"time"
)

// ReadFile returns the contents of the regular file name and its
// modification time, reading the size fstat gives: a file that is not
// regular is an error (ErrNotRegular), and so is one that ends sooner
// than its size said (io.ErrUnexpectedEOF).
func ReadFile(name string) ([]byte, time.Time, error) {
	// O_NONBLOCK: a pipe planted under the name is refused below, not
	// waited on; on a regular file the flag changes nothing.
	fd, err := open(name, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, time.Time{}, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, time.Time{}, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	data := make([]byte, st.Size)
	for n := 0; n < len(data); {
		var m int
		err := retry(func() (err error) { m, err = syscall.Read(fd, data[n:]); return err })
		if err != nil {
			return nil, time.Time{}, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if m == 0 {
			return nil, time.Time{}, &fs.PathError{Op: "read", Path: name, Err: io.ErrUnexpectedEOF}
		}
		n += m
	}
	return data, time.Unix(st.Mtim.Unix()), nil
}

// WriteFile creates or truncates the file name and writes data to it, with
// perm (before the umask) when it is new, as os.WriteFile does.
func WriteFile(name string, data []byte, perm fs.FileMode) error {
	fd, err := open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC, perm)
	if err != nil {
		return err
	}
	for len(data) > 0 {
		var m int
		err := retry(func() (err error) { m, err = syscall.Write(fd, data); return err })
		if err != nil {
			syscall.Close(fd)
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[m:]
	}
	// close is not retried on EINTR: on Linux the descriptor is gone
	// either way.
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}

// open opens name with flag (close on exec added), retrying when a signal
// interrupts it.
func open(name string, flag int, perm fs.FileMode) (int, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		return err
	})
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return fd, nil
}

// retry calls f again for as long as a signal interrupts it.
func retry(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
