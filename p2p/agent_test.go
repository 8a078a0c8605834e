package p2p

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	stdlog "log"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The test binary doubles as a scriptable peer ("agent") that the LAN
// tests start in each peer's namespace: with P2P_AGENT set, init runs the
// agent and exits before any test. It prints one line per thing seen and
// obeys one command per stdin line:
//
//	out: ready ID ADDR | found ID | lost ID | up ID | down ID REASON |
//	     chat FROM SEQ TEXT | frame FROM TEXT | connected ID | error TEXT
//	     entry NAME | asked SERVICE
//	in:  chat TEXT | send ID TEXT | connect ADDR | ask SERVICE | quit
func init() {
	if os.Getenv("P2P_AGENT") == "" {
		return
	}
	if err := runAgent(); err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runAgent() error {
	stdlog.SetOutput(io.Discard) // hashicorp/mdns's client (ask) talks on the standard logger
	var mu sync.Mutex
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf(format+"\n", a...)
	}
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return err
	}
	ip := net.ParseIP(os.Getenv("P2P_AGENT_IP"))
	h, err := NewHost(HostConfig{Identity: key, ListenIPs: []net.IP{ip}})
	if err != nil {
		return err
	}
	defer h.Close()
	t := NewTransport(h, TransportConfig{})
	defer t.Close()
	chat := NewChat(t)
	d, err := StartDiscovery(h, Advert{Name: os.Getenv("P2P_AGENT_NAME")}, DiscoveryConfig{})
	if err != nil {
		say("nodiscovery %v", err)
		d = nil
	}
	addrs := DialableAddrs(h)
	say("ready %s %s", h.ID(), strings.Join(addrs, " "))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if d != nil {
		defer d.Close()
		go func() {
			known := map[peer.ID]bool{}
			for {
				select {
				case <-ctx.Done():
					return
				case <-d.Changes():
				}
				now := map[peer.ID]bool{}
				for _, ad := range d.Peers() {
					now[ad.ID] = true
					if !known[ad.ID] {
						say("found %s", ad.ID)
						go func() {
							cctx, c := context.WithTimeout(ctx, 5*time.Second)
							defer c()
							_ = t.Connect(cctx, peer.AddrInfo{ID: ad.ID, Addrs: ad.Addrs})
						}()
					}
				}
				for id := range known {
					if !now[id] {
						say("lost %s", id)
					}
				}
				known = now
			}
		}()
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-t.Events():
				if ev.Up {
					say("up %s", ev.Peer)
				} else {
					say("down %s %s", ev.Peer, ev.Reason)
				}
			case in := <-t.Inbox():
				switch in.Kind {
				case KindChat:
					if l, err := chat.Receive(in); err == nil {
						say("chat %s %d %s", l.From, l.Seq, l.Text)
					}
				case KindGame:
					say("frame %s %s", in.From, in.Data)
				}
			}
		}
	}()
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		verb, arg, _ := strings.Cut(sc.Text(), " ")
		switch verb {
		case "chat":
			if _, err := chat.Say(arg); err != nil {
				say("error %v", err)
			}
		case "send":
			to, text, _ := strings.Cut(arg, " ")
			id, err := peer.Decode(to)
			if err == nil {
				err = t.Send(id, KindGame, []byte(text))
			}
			if err != nil {
				say("error %v", err)
			}
		case "connect":
			cctx, c := context.WithTimeout(ctx, 10*time.Second)
			info, err := ResolveAddr(cctx, key, arg)
			if err == nil {
				err = t.Connect(cctx, info)
			}
			c()
			if err != nil {
				say("error %v", err)
			} else {
				say("connected %s", info.ID)
			}
		case "ask":
			// A standard DNS-SD client's browse (hashicorp/mdns) for
			// the service arg on this peer's LAN interface.
			ifc, err := net.InterfaceByName("eth0")
			entries := make(chan *mdns.ServiceEntry, 64)
			if err == nil {
				err = mdns.Query(&mdns.QueryParam{Service: arg, Domain: "local", Timeout: 2 * time.Second,
					Interface: ifc, Entries: entries, DisableIPv6: true})
			}
			close(entries)
			if err != nil {
				say("error %v", err)
			}
			for e := range entries {
				say("entry %s", e.Name)
			}
			say("asked %s", arg)
		case "quit":
			return nil
		}
	}
	return nil
}
