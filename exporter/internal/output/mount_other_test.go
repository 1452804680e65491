//go:build !linux

package output

import "errors"

func mount(string) error   { return errors.New("tmpfs mounts are tried on Linux only") }
func unmount(string) error { return nil }
