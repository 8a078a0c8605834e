// Package netlab builds a private LAN for tests: it re-runs the calling test
// inside a network and mount namespace the test itself created (so no packet
// can leave the machine), and inside it makes one network namespace per peer
// on a bridge, with 10.213.0.x/24 addresses, where commands run with `ip
// netns exec`. A peer's cable can be pulled and plugged back, and its
// multicast turned off. StartInternet puts a stand-in for the internet
// (a web server at 8.8.8.8, a DNS server at 8.8.4.4 the namespace's
// resolver uses) on the namespace's own loopback and counts what reaches
// it, so a test can prove that nothing a peer said was dialled or looked up.
//
// netlab must never touch the host's own network namespace: every `ip`
// command it runs happens after Enter has moved the test into a fresh one.
// Outside CI a machine that cannot make namespaces skips the test; with the
// CI environment variable set it fails it.
package netlab
