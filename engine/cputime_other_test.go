//go:build !linux

package engine

import "time"

// threadCPUTime is not measured off Linux; the benchmarks then report wall time only.
func threadCPUTime() (time.Duration, bool) { return 0, false }
