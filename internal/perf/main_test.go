package perf

import (
	"os"
	"testing"

	"aeroplane/internal/testkit"
)

// TestMain removes the binaries the benchmarks built, once per test process.
// A process started as a benchmark's watcher (RunWatcherProcess) watches
// and exits instead.
func TestMain(m *testing.M) {
	if IsWatcherProcess() {
		os.Exit(RunWatcherProcess())
	}
	if os.Getenv(yieldProbeEnv) == "1" {
		os.Exit(yieldProbe())
	}
	code := m.Run()
	testkit.RemoveBinaries()
	os.Exit(code)
}

// aeroplaneBinary builds the real command once (default flags).
func aeroplaneBinary(tb testing.TB) string {
	tb.Helper()
	return testkit.Binary(tb, "aeroplane")
}

// reportLoad puts the machine's one-minute load next to every number.
func reportLoad(b *testing.B) {
	b.ReportMetric(LoadAverage(), "load1")
}
