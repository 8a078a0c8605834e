package p2p

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/testout"

	ma "github.com/multiformats/go-multiaddr"
)

// avahiConf runs avahi-daemon on this namespace's interfaces only, with no
// D-Bus (nothing to talk to in a test namespace) and its static services.
const avahiConf = `[server]
host-name=avahi-beside
use-ipv4=yes
use-ipv6=no
enable-dbus=no
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
`

// avahiService is a static avahi service file: one service of typ at
// port named name, with txt.
func avahiService(name, typ string, port int, txt []string) string {
	esc := func(s string) string {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	var recs strings.Builder
	for _, r := range txt {
		fmt.Fprintf(&recs, "<txt-record>%s</txt-record>", esc(r))
	}
	return fmt.Sprintf(`<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<service-group><name>%s</name><service><type>%s</type><port>%d</port>%s</service></service-group>
`, esc(name), typ, port, recs.String())
}

// startAvahi runs Debian's avahi-daemon (through command: in a LAN
// peer's namespace, or in this one) with the given service files, and returns its log and whether it still
// runs; it fails the test if avahi-daemon is missing (.ci/run installs
// it). /run and /etc/avahi/services are mounted over in a mount
// namespace of avahi's own.
func startAvahi(t *testing.T, command func(string, ...string) *exec.Cmd, services map[string]string) (log *testout.Buffer, alive func() bool) {
	t.Helper()
	bin, err := exec.LookPath("avahi-daemon")
	if err != nil {
		netlab.Unavailable(t, fmt.Errorf("avahi-daemon is needed for the interop test (apt-get install avahi-daemon): %w", err))
		return nil, nil
	}
	dir := t.TempDir()
	svc := filepath.Join(dir, "services")
	if err := os.Mkdir(svc, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range services {
		if err := os.WriteFile(filepath.Join(svc, name+".service"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "avahi-daemon.conf")
	if err := os.WriteFile(conf, []byte(avahiConf), 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `mount -t tmpfs avahi-run /run && mount --bind "$1" /etc/avahi/services && ` +
		`exec "$3" -f "$2" --no-drop-root --no-chroot --no-rlimits --no-proc-title --debug`
	log = &testout.Buffer{}
	cmd := command("unshare", "-m", "sh", "-c", script, "sh", svc, conf, bin)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	alive = func() bool {
		select {
		case <-done:
			return false
		default:
			return true
		}
	}
	return log, alive
}

// Debian's avahi-daemon, a standard mDNS/DNS-SD responder, runs beside
// two of our peers in one namespace, publishing a service of its own and
// an aeroplane advert (static service files). Our peers find each other
// and list avahi's advert for longer than an entry lives unheard (avahi
// answers at its own pace, TTL 120 s); avahi stays up through our
// announcements, queries and goodbyes, logs no packet of ours as
// invalid, and a standard DNS-SD client (hashicorp/mdns) still finds
// avahi's own service and ours.
func TestDiscoveryBesideAvahi(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 3)
	other := testID(t)
	txt, err := EncodeTXT(Advert{Version: ProtocolVersion, ID: other, Name: "avahi",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/" + lan.Addr(2).String() + "/tcp/4001")}})
	if err != nil {
		t.Fatal(err)
	}
	log, alive := startAvahi(t, func(name string, args ...string) *exec.Cmd { return lan.Command(2, name, args...) }, map[string]string{
		"aeroplane": avahiService(other.String(), ServiceName, 4001, txt),
		"own":       avahiService("avahi-own", "_http._tcp", 80, nil),
	})
	if log == nil {
		return
	}
	waitPublished(t, log, alive, 2)
	as := startAgents(t, lan, 2)
	for i, a := range as {
		a.expectAll(t, "found", []string{as[1-i].id, other.String()}, 20*time.Second)
	}
	// Watched for longer than an entry lives unheard (maxLife): avahi's
	// advert must have been refreshed by its answers, not merely not yet
	// expired.
	time.Sleep(maxLife + 4*time.Second)
	for _, a := range as {
		if l := a.seen("lost"); l != "" {
			t.Errorf("agent %d: %s while it runs\navahi:\n%s", a.i, l, log.String())
		}
	}
	if !alive() {
		t.Fatalf("avahi-daemon stopped beside our peers:\n%s", log.String())
	}
	for _, c := range []struct{ service, want string }{{"_http._tcp", "avahi-own."}, {ServiceName, other.String() + "."}, {ServiceName, as[1].id + "."}} {
		as[0].send(t, "ask "+c.service)
		var got []string
		for {
			l := as[0].expect(t, "an answer to ask", 10*time.Second, func(f []string) bool { return f[0] == "entry" || f[0] == "asked" })
			f := strings.Fields(l)
			if f[0] == "asked" {
				break
			}
			got = append(got, f[1])
		}
		if !containsPrefix(got, c.want) {
			t.Errorf("a standard client browsing %s beside our peers finds %v, not %s", c.service, got, c.want)
		}
	}
	as[1].send(t, "quit") // its goodbye (TTL 0) goes out beside avahi
	as[0].expect(t, "the goodbye of agent 1", 10*time.Second, func(f []string) bool { return f[0] == "lost" && len(f) > 1 && f[1] == as[1].id })
	time.Sleep(time.Second)
	if !alive() {
		t.Fatalf("avahi-daemon stopped after our goodbye:\n%s", log.String())
	}
	for _, bad := range []string{"invalid", "Invalid", "failed", "error"} {
		if strings.Contains(log.String(), bad) {
			t.Errorf("avahi-daemon logged %q beside our peers:\n%s", bad, log.String())
		}
	}
	t.Logf("avahi-daemon's log, %d lines, says nothing of our packets", strings.Count(log.String(), "\n"))
}

// waitPublished waits until avahi-daemon says it has published n
// services.
func waitPublished(t *testing.T, log *testout.Buffer, alive func() bool, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Count(log.String(), "successfully established") < n {
		if time.Now().After(deadline) || !alive() {
			t.Fatalf("avahi-daemon did not publish its services:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// avahi-daemon and one of our peers on one machine, both on loopback
// only (this namespace's lo, as on a machine with no network): our
// peer lists avahi's advert for longer than an entry lives unheard, so
// avahi answered our queries. It did not while our packets on lo left
// from 0.0.0.0 (TestMDNSOnLoopbackComesFrom127): avahi drops those.
func TestDiscoveryBesideAvahiOnLoopback(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	other := testID(t)
	txt, err := EncodeTXT(Advert{Version: ProtocolVersion, ID: other, Name: "avahi",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/4001")}})
	if err != nil {
		t.Fatal(err)
	}
	log, alive := startAvahi(t, exec.Command, map[string]string{
		"aeroplane": avahiService(other.String(), ServiceName, 4001, txt),
	})
	if log == nil {
		return
	}
	waitPublished(t, log, alive, 1)
	d := startTestDiscovery(t, newTestHost(t), Advert{Name: "us"})
	waitPeers(t, d, "avahi's advert", hasPeer(other, nil))
	// Avahi announced its service on start; past maxLife only its
	// answers to our queries keep it listed.
	until := time.Now().Add(maxLife + 4*time.Second)
	for time.Now().Before(until) {
		if !hasPeer(other, nil)(d.Peers()) {
			t.Fatalf("avahi's advert was dropped while avahi runs: it did not answer our queries\navahi:\n%s", log.String())
		}
		select {
		case <-d.Changes():
		case <-time.After(100 * time.Millisecond):
		}
	}
	if !alive() {
		t.Fatalf("avahi-daemon stopped beside our peer:\n%s", log.String())
	}
	for _, bad := range []string{"invalid", "Invalid", "failed", "error"} {
		if strings.Contains(log.String(), bad) {
			t.Errorf("avahi-daemon logged %q beside our peer:\n%s", bad, log.String())
		}
	}
}

func containsPrefix(names []string, prefix string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}
