//go:build !unix

package html

import "time"

// processCPU is the CPU time the process has used: not known here.
func processCPU() (time.Duration, bool) { return 0, false }
