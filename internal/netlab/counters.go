package netlab

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Sent is what peer i has put on the bridge so far: the packets and bytes
// its cable carried towards the bridge (the host side's receive counters),
// whatever they are and wherever they go. Summed over the peers it is the
// traffic on the segment, each multicast counted once.
func (l *LAN) Sent(i int) (packets, bytes int64, err error) {
	read := func(name string) (int64, error) {
		b, err := os.ReadFile(fmt.Sprintf("/sys/class/net/%s/statistics/%s", l.hostSide(i), name))
		if err != nil {
			return 0, fmt.Errorf("netlab: peer %d's counters: %w", i, err)
		}
		return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	if packets, err = read("rx_packets"); err != nil {
		return 0, 0, err
	}
	bytes, err = read("rx_bytes")
	return packets, bytes, err
}
