package perf

import (
	"fmt"
	"os"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

func init() {
	if ip := os.Getenv(AgentEnv); ip != "" {
		if err := RunDiscoveryAgent(ip); err != nil {
			fmt.Fprintln(os.Stderr, "discovery agent:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// BenchmarkDiscoveryLAN: 4, 16 and 40 idle peers, each a process in its
// own namespace on one bridge and each hosting a lobby of its own. After
// they all list each other and 20 s more, what they send on the bridge is
// counted for 10 s (pkts/s, KB/s, and pkts/s per peer); then 10 new peers
// in turn start, and the time until an old peer lists one (per-peer
// p50/p95) and until all do (all-p50/p95) is reported.
func BenchmarkDiscoveryLAN(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	for _, n := range []int{4, 16, 40} {
		b.Run(fmt.Sprintf("peers=%d", n), func(b *testing.B) {
			for b.Loop() {
				lan := netlab.NewLAN(b, n+1)
				rep, err := MeasureLANDiscovery(lan, n, 10, 20*time.Second, 10*time.Second)
				if err != nil {
					b.Fatal(err)
				}
				per, all := Summarize(rep.PerPeer), Summarize(rep.AllList)
				b.Logf("%d peers: %d packets, %d bytes in %v; listed by one: %v; by all: %v", n, rep.Packets, rep.Bytes, rep.Window, per, all)
				b.ReportMetric(rep.PacketsPerSecond(), "pkts/s")
				b.ReportMetric(rep.PacketsPerSecond()/float64(n), "pkts/s/peer")
				b.ReportMetric(rep.BytesPerSecond()/1000, "KB/s")
				b.ReportMetric(ms(per.P50), "listed-p50-ms")
				b.ReportMetric(ms(per.P95), "listed-p95-ms")
				b.ReportMetric(ms(all.P50), "all-p50-ms")
				b.ReportMetric(ms(all.P95), "all-p95-ms")
				b.ReportMetric(float64(rep.Unlisted), "unlisted-pairs")
				b.ReportMetric(float64(rep.Missed), "missed")
				b.ReportMetric(0, "ns/op")
				reportLoad(b)
			}
		})
	}
}
