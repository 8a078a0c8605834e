package perf

import (
	"os"
	"sync"
	"testing"
)

// binDir holds the binaries the benchmarks build, once per test process.
var (
	binDir  string
	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// aeroplaneBinary builds the real command once (default flags).
func aeroplaneBinary(tb testing.TB) string {
	tb.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "aeroplane-perf-"); binErr != nil {
			return
		}
		binPath, _, binErr = BuildBinary(binDir, "aeroplane")
	})
	if binErr != nil {
		tb.Fatal(binErr)
	}
	return binPath
}

// reportLoad puts the machine's one-minute load next to every number.
func reportLoad(b *testing.B) {
	b.ReportMetric(LoadAverage(), "load1")
}
