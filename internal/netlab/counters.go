package netlab

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Sent is what peer i has put on the bridge so far: the packets and bytes
// its cable carried towards the bridge (the host side's receive counters,
// read from /proc/net/dev, which shows this namespace's interfaces where
// /sys shows the machine's), whatever they are and wherever they go.
// Summed over the peers it is the traffic on the segment, each multicast
// counted once.
func (l *LAN) Sent(i int) (packets, bytes int64, err error) {
	f, err := os.Open("/proc/net/dev")
	if err != nil {
		return 0, 0, fmt.Errorf("netlab: interface counters: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(name) != l.hostSide(i) {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) < 2 {
			break
		}
		if bytes, err = strconv.ParseInt(fs[0], 10, 64); err == nil {
			packets, err = strconv.ParseInt(fs[1], 10, 64)
		}
		return packets, bytes, err
	}
	return 0, 0, fmt.Errorf("netlab: no counters for peer %d's cable %s", i, l.hostSide(i))
}
