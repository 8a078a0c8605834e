package perf

import (
	"os"
	"strings"
	"testing"
	"time"
)

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func TestQuantile(t *testing.T) {
	var hundred, twenty []time.Duration
	for i := 1; i <= 100; i++ {
		hundred = append(hundred, time.Duration(i)*time.Millisecond)
	}
	for i := 1; i <= 20; i++ {
		twenty = append(twenty, time.Duration(i))
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{"median of 100", hundred, 0.50, 50 * time.Millisecond},
		{"p95 of 100", hundred, 0.95, 95 * time.Millisecond},
		{"p99 of 100", hundred, 0.99, 99 * time.Millisecond},
		{"max of 100", hundred, 1, 100 * time.Millisecond},
		{"p95 of 20 is rank 19", twenty, 0.95, 19},
		{"p99 of 20 is the max", twenty, 0.99, 20},
		{"tiny q is the min", twenty, 0.0001, 1},
		{"one sample", []time.Duration{7}, 0.5, 7},
		{"empty", nil, 0.5, 0},
	}
	for _, tc := range tests {
		if got := Quantile(tc.sorted, tc.q); got != tc.want {
			t.Errorf("%s: Quantile(q=%v) = %v, want %v", tc.name, tc.q, got, tc.want)
		}
	}
}

func TestSummarizeUnsorted(t *testing.T) {
	in := []time.Duration{5, 1, 4, 2, 3}
	s := Summarize(in)
	want := Summary{N: 5, Min: 1, P50: 3, P95: 5, P99: 5, Max: 5, Mean: 3}
	if s != want {
		t.Fatalf("Summarize = %+v, want %+v", s, want)
	}
	if in[0] != 5 {
		t.Error("Summarize sorted its input in place")
	}
	if (Summarize(nil) != Summary{}) {
		t.Error("Summarize(nil) is not zero")
	}
}

func TestParseStatus(t *testing.T) {
	good := "Name:\taeroplane\nVmPeak:\t  900 kB\nVmHWM:\t   30720 kB\nVmRSS:\t   20480 kB\nThreads:\t9\n"
	m, err := parseStatus([]byte(good))
	if err != nil || m != (Memory{RSS: 20 << 20, HWM: 30 << 20}) {
		t.Fatalf("parseStatus = %+v, %v", m, err)
	}
	for _, bad := range []string{
		"Name:\tkthreadd\n",              // kernel threads have no Vm lines
		"VmRSS:\t12 MB\nVmHWM:\t13 kB\n", // not kB
		"VmRSS:\tx kB\nVmHWM:\t13 kB\n",  // not a number
		"VmRSS:\t12 kB\n",                // one of two
	} {
		if _, err := parseStatus([]byte(bad)); err == nil {
			t.Errorf("parseStatus(%q): no error", bad)
		}
	}
}

// Our own process is resident, and never more than its high-water mark.
func TestReadMemorySelf(t *testing.T) {
	m, err := ReadMemory(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS <= 0 || m.HWM < m.RSS {
		t.Fatalf("own memory %+v: want 0 < RSS <= HWM", m)
	}
	if _, err := ReadMemory(-1); err == nil {
		t.Error("ReadMemory(-1): no error")
	}
}

func TestMachine(t *testing.T) {
	s := Machine()
	if !strings.Contains(s, "cores") || !strings.Contains(s, "go1.") {
		t.Errorf("Machine() = %q", s)
	}
	if LoadAverage() < 0 {
		t.Error("no load average on Linux")
	}
}
