package cheat

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"net"
	"slices"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Rolls to leave between two attacks, so the honest peers have dealt with
// one before the next arrives.
const gap = 4

func (p *Peer) queueHead(name string) bool { return len(p.queue) > 0 && p.queue[0] == name }

func (p *Peer) done(name, format string, a ...any) {
	p.queue = p.queue[1:]
	p.cooldown = p.state.Roll + gap
	p.say("attack "+name+" roll=%d: "+format, append([]any{p.state.Roll}, a...)...)
}

// attack runs the next attack if the game now gives it its chance.
func (p *Peer) attack(ctx context.Context) {
	if len(p.queue) == 0 {
		return
	}
	st := p.state
	name := p.queue[0]
	if name == "copied-chain" {
		if st.Phase != lockstep.PhaseSetup {
			p.done(name, "committed a copied anchor")
		}
		return
	}
	if st.Roll < 4 || st.Roll < p.cooldown || st.Phase != lockstep.PhaseMove {
		return
	}
	k, hist := st.Roll, st.History
	othersMove := st.Pos.ToMove() != p.colour
	mine := len(st.Moves) > 0
	switch name {
	case "bad-reveal":
		if othersMove {
			var junk [32]byte
			_, _ = rand.Read(junk[:])
			p.inject(&Msg{Kind: KindReveal, K: k + 1, Link: junk, State: hist})
			p.done(name, "a link for roll %d off its chain", k+1)
		}
	case "out-of-turn":
		if othersMove {
			p.inject(&Msg{Kind: KindReveal, K: k + 1, Link: p.chain.Link(k + 2), State: hist, HasMove: true,
				Move: Move{uint8(engine.PlaneMove), uint8(p.colour), 0}})
			p.done(name, "moved %s while %s was to move", p.colour, st.Pos.ToMove())
		}
	case "wrong-seat":
		if othersMove {
			c := st.Pos.ToMove()
			p.inject(&Msg{Kind: KindReveal, K: k + 1, Link: p.chain.Link(k + 2), State: hist, HasMove: true,
				Move: Move{uint8(engine.PlaneMove), uint8(c), 0}})
			p.done(name, "moved the %s seat's plane", c)
		}
	case "illegal-move":
		if mine {
			for plane := uint8(0); plane < engine.PlanesPerColour; plane++ {
				bad := engine.Move{Kind: engine.PlaneMove, Colour: p.colour, Plane: plane}
				if slices.Contains(st.Moves, bad) {
					continue
				}
				p.inject(&Msg{Kind: KindReveal, K: k + 1, Link: p.chain.Link(k + 2), State: hist, HasMove: true,
					Move: Move{uint8(bad.Kind), uint8(bad.Colour), bad.Plane}})
				p.done(name, "played %s with a %d (legal: %v)", bad, st.Value, st.Moves)
				return
			}
		}
	case "move-alone":
		// A manual player's move message (no link) while another is to move.
		if othersMove {
			p.inject(&Msg{Kind: KindMove, K: k, State: hist, HasMove: true,
				Move: Move{uint8(engine.PlaneMove), uint8(p.colour), 0}})
			p.done(name, "sent a move message for %s while %s was to move", p.colour, st.Pos.ToMove())
		}
	case "stale":
		if othersMove {
			p.inject(&Msg{Kind: KindReveal, K: k - 2, Link: p.chain.Link(k - 1), State: hist})
			p.done(name, "re-revealed roll %d", k-2)
		}
	case "replay":
		n := 0
		for _, raw := range p.replayable {
			p.send("", raw)
			n++
		}
		if len(p.wire) > 2 {
			p.send("", p.wire[1])
			n++
		}
		other := &Msg{Kind: KindReveal, Game: [32]byte{1}, From: p.self, Seq: 99, K: k}
		if raw, _, err := other.Seal(p.cfg.Key); err == nil {
			p.send("", raw)
		}
		p.done(name, "re-sent %d old signed messages and one of another game", n)
	case "equivocation":
		// Runs from out(), when our node signs a move with a choice.
	case "garbage":
		for _, id := range p.others() {
			var body [64]byte
			_, _ = rand.Read(body[:])
			var b []byte
			for _, kind := range []byte{0x00, 0x7f, 0xee} {
				b = binary.BigEndian.AppendUint32(b, 1+uint32(len(body)))
				b = append(append(b, kind), body[:]...)
			}
			b, _ = p2p.AppendFrame(b, p2p.Frame{Kind: p2p.KindGame, Body: body[:]})
			b, _ = p2p.AppendFrame(b, p2p.Frame{Kind: p2p.KindLobby, Body: body[:]})
			go p.raw(ctx, id, b, time.Second)
		}
		p.done(name, "three frames of unknown kinds, a random game frame and a random lobby frame to each peer")
	case "oversized":
		for _, id := range p.others() {
			b := binary.BigEndian.AppendUint32(nil, 1<<20)
			b = append(b, byte(p2p.KindGame))
			b = append(b, make([]byte, 4096)...)
			go p.raw(ctx, id, b, time.Second)
		}
		p.done(name, "a frame header of 1 MiB to each peer")
	case "never-ending":
		go p.neverEnding(ctx)
		p.done(name, "a frame of 1000 bytes that stops after 4, held open 8 s, to each peer")
	case "chat-flood":
		for _, id := range p.others() {
			for i := range 300 {
				_ = p.t.Send(id, p2p.KindChat, p2p.EncodeChat(uint64(1000+i), "flood"))
			}
		}
		p.done(name, "300 chat lines to each peer at once")
	case "conn-flood":
		go p.connFlood(ctx)
		p.done(name, "100 bare TCP connections and 8 fresh libp2p identities to each peer")
	case "spoof-mdns":
		n := p.spoof(ctx)
		p.done(name, "advertising %d honest peers' IDs at this peer's address", n)
	}
}

func (p *Peer) others() []peer.ID {
	var ids []peer.ID
	for _, id := range p.players {
		if id != p.self {
			ids = append(ids, id)
		}
	}
	return ids
}

// raw opens a fresh aeroplane stream to id, writes b as is, and holds the
// stream open for hold.
func (p *Peer) raw(ctx context.Context, id peer.ID, b []byte, hold time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := p.h.NewStream(ctx, id, protocol.ID(p2p.ProtocolID))
	if err != nil {
		p.say("raw stream to %s: %v", short(id), err)
		return
	}
	_, _ = s.Write(b)
	time.Sleep(hold)
	_ = s.Reset()
}

// connFlood opens bare TCP connections that never speak, then whole libp2p
// hosts with fresh identities that open the game stream without being in
// the game; it says per target what got through.
func (p *Peer) connFlood(ctx context.Context) {
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	tcp := map[peer.ID]int{}
	for _, id := range p.others() {
		for _, a := range p.h.Peerstore().Addrs(id) {
			na, err := manet.ToNetAddr(a)
			if err != nil {
				continue
			}
			if _, ok := na.(*net.TCPAddr); !ok {
				continue
			}
			for range 100 {
				if c, err := net.DialTimeout("tcp", na.String(), time.Second); err == nil {
					conns = append(conns, c)
					tcp[id]++
				}
			}
			break
		}
	}
	streams, firstErr := map[peer.ID]int{}, map[peer.ID]string{}
	for range 8 {
		h, err := freshHost()
		if err != nil {
			p.say("conn-flood host: %v", err)
			continue
		}
		defer h.Close()
		for _, id := range p.others() {
			if s, err := p.openAs(ctx, h, id); err != nil {
				firstErr[id] = cmp.Or(firstErr[id], err.Error())
			} else {
				b, _ := p2p.AppendFrame(nil, p2p.Frame{Kind: p2p.KindGame, Body: []byte("let me in")})
				if _, err := s.Write(b); err == nil {
					streams[id]++
				}
			}
		}
	}
	for _, id := range p.others() {
		p.say("conn-flood to %s: tcp=%d streams=%d %s", id, tcp[id], streams[id], firstErr[id])
	}
	time.Sleep(2 * time.Second)
}

func freshHost() (host.Host, error) {
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, err
	}
	return p2p.NewHost(p2p.HostConfig{Identity: k})
}

// openAs opens the game stream to id from host h (nil if refused).
func (p *Peer) openAs(ctx context.Context, h host.Host, id peer.ID) (network.Stream, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := h.Connect(ctx, peer.AddrInfo{ID: id, Addrs: p.h.Peerstore().Addrs(id)}); err != nil {
		return nil, err
	}
	return h.NewStream(ctx, id, protocol.ID(p2p.ProtocolID))
}

// neverEnding sends, from a fresh identity (so no newer stream of ours can
// replace it), a frame header for 1000 bytes followed by 4 and silence.
func (p *Peer) neverEnding(ctx context.Context) {
	h, err := freshHost()
	if err != nil {
		p.say("never-ending host: %v", err)
		return
	}
	defer h.Close()
	for _, id := range p.others() {
		s, err := p.openAs(ctx, h, id)
		if err != nil {
			p.say("never-ending to %s: refused: %v", id, err)
			continue
		}
		b := binary.BigEndian.AppendUint32(nil, 1000)
		b = append(b, byte(p2p.KindGame), 1, 2, 3)
		if _, err := s.Write(b); err == nil {
			p.say("never-ending to %s: from %s", id, h.ID())
		}
	}
	time.Sleep(8 * time.Second)
}

// ipOf is the cheater's first IPv4 listen address.
func (p *Peer) ipOf() (net.IP, []ma.Multiaddr) {
	for _, a := range p.h.Addrs() {
		if na, err := manet.ToNetAddr(a); err == nil {
			if t, ok := na.(*net.TCPAddr); ok && t.IP.To4() != nil && !t.IP.IsLoopback() {
				return t.IP, []ma.Multiaddr{a}
			}
		}
	}
	return nil, nil
}
