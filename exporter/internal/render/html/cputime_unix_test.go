//go:build unix

package html

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system (ok
// false where the system does not say).
func processCPU() (d time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
