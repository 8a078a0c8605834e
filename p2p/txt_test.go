package p2p

import (
	"crypto/rand"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

func testID(t testing.TB) peer.ID {
	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestTXTRoundTrip(t *testing.T) {
	id := testID(t)
	cases := []Advert{
		{Version: ProtocolVersion, ID: id},
		{Version: ProtocolVersion, ID: id, Name: "Ada", Lobby: "friday night", Host: true, Free: 3,
			Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.213.0.1/tcp/4001"), ma.StringCast("/ip4/10.213.0.1/udp/4001/quic-v1")}},
		{Version: "9.9.9", ID: id, Name: strings.Repeat("飞", 10), Lobby: strings.Repeat("x", MaxNameLen), Free: 4},
		// A host says what its table holds: the listing shows it.
		{Version: ProtocolVersion, ID: id, Name: "Bo", Lobby: "late", Host: true, Free: 1, Taken: 3,
			Rules: "takeoff=six,overshoot=bounce,stack=off,flyjump=on"},
	}
	for _, a := range cases {
		txt, err := EncodeTXT(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range txt {
			if len(s) >= 255 {
				t.Errorf("field of %d bytes", len(s))
			}
		}
		got, err := ParseTXT(txt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("round trip: got %+v, want %+v", got, a)
		}
	}
}

func TestTXTRejects(t *testing.T) {
	id := testID(t).String()
	cases := []struct {
		name string
		txt  []string
	}{
		{"no id", []string{"v=1.0.0"}},
		{"no version", []string{"id=" + id}},
		{"bad id", []string{"v=1", "id=nonsense"}},
		{"twice", []string{"v=1", "id=" + id, "n=a", "n=b"}},
		{"no equals", []string{"v=1", "id=" + id, "junk"}},
		{"seats", []string{"v=1", "id=" + id, "s=5"}},
		{"seats sign", []string{"v=1", "id=" + id, "s=+1"}},
		{"control char", []string{"v=1", "id=" + id, "n=a\x07b"}},
		{"long name", []string{"v=1", "id=" + id, "n=" + strings.Repeat("x", MaxNameLen+1)}},
		{"oversize", []string{"v=1", "id=" + id, "x=" + strings.Repeat("x", 300)}},
		{"addr with id", []string{"v=1", "id=" + id, "a0=/ip4/1.2.3.4/tcp/1/p2p/" + id}},
		{"bad addr", []string{"v=1", "id=" + id, "a0=/ip4/nope"}},
		{"a key twice", []string{"v=1", "id=" + id, "a0=/ip4/1.2.3.4/tcp/1", "a0=/ip4/1.2.3.5/tcp/1"}},
		{"host flag", []string{"v=1", "id=" + id, "h=yes"}},
		{"taken without host", []string{"v=1", "id=" + id, "t=2"}},
		{"rules without host", []string{"v=1", "id=" + id, "r=takeoff=even,overshoot=bounce,stack=on,flyjump=off"}},
		{"more than four seats", []string{"v=1", "id=" + id, "h=1", "s=3", "t=2"}},
		{"taken sign", []string{"v=1", "id=" + id, "h=1", "t=-1"}},
		{"rules not key=value text", []string{"v=1", "id=" + id, "h=1", "r=takeoff=Even;rm"}},
		{"rules too long", []string{"v=1", "id=" + id, "h=1", "r=" + strings.Repeat("stack=off,", 10)}},
		{"indexed addr with id", []string{"v=1", "id=" + id, "a0=/ip4/1.2.3.4/tcp/1/p2p/" + id}},
		{"indexed bad addr", []string{"v=1", "id=" + id, "a0=/ip4/nope"}},
		{"a1 without a0", []string{"v=1", "id=" + id, "a1=/ip4/1.2.3.4/tcp/1"}},
		{"a0 twice", []string{"v=1", "id=" + id, "a0=/ip4/1.2.3.4/tcp/1", "a0=/ip4/1.2.3.5/tcp/1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseTXT(c.txt); !errors.Is(err, errTXT) {
				t.Errorf("ParseTXT(%q) = %v, want a TXT error", c.txt, err)
			}
		})
	}
}

// TestTXTKeysOnce: no key of an advert repeats, since a DNS-SD client
// keeps only the first of a repeated key (RFC 6763 §6.4); the addresses
// are a0, a1... in order, and the older repeated a form still parses.
func TestTXTKeysOnce(t *testing.T) {
	addrs := []ma.Multiaddr{ma.StringCast("/ip4/10.213.0.1/tcp/4001"), ma.StringCast("/ip4/10.213.0.1/udp/4001/quic-v1"),
		ma.StringCast("/ip4/192.168.1.9/tcp/4001")}
	a := Advert{Version: ProtocolVersion, ID: testID(t), Name: "Ada", Lobby: "l", Host: true, Free: 3, Addrs: addrs}
	txt, err := EncodeTXT(a)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, f := range txt {
		k, _, _ := strings.Cut(f, "=")
		if keys[k] {
			t.Errorf("key %q twice in %q", k, txt)
		}
		keys[k] = true
	}
	for i := range addrs {
		if !keys["a"+string(rune('0'+i))] {
			t.Errorf("no key a%d in %q", i, txt)
		}
	}
}

func TestCleanName(t *testing.T) {
	cases := map[string]string{
		"  Ada  ":                 "Ada",
		"a \t\n b":                "a b",
		"bell\x07":                "bell",
		strings.Repeat("飞", 20):   strings.Repeat("飞", 10),
		strings.Repeat("ab ", 20): "ab ab ab ab ab ab ab ab ab ab ab",
		"":                        "",
	}
	for in, want := range cases {
		if got := CleanName(in); got != want {
			t.Errorf("CleanName(%q) = %q, want %q", in, got, want)
		}
		if got := CleanName(in); CleanName(got) != got || len(got) > MaxNameLen {
			t.Errorf("CleanName(%q) = %q is not a fixed point", in, got)
		}
	}
}

// FuzzParseTXT feeds newline-separated TXT strings: parsing never panics,
// and whatever parses re-encodes to something that parses the same.
func FuzzParseTXT(f *testing.F) {
	id := testID(f)
	txt, _ := EncodeTXT(Advert{Version: ProtocolVersion, ID: id, Name: "Ada", Lobby: "l", Host: true, Free: 2, Taken: 1, Rules: "takeoff=six,overshoot=stay,stack=on,flyjump=off",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.213.0.1/tcp/4001")}})
	if len(txt) == 0 {
		f.Fatal("the seed advert does not encode")
	}
	f.Add(strings.Join(txt, "\n"))
	f.Add("v=1\nid=" + id.String() + "\ns=9")
	f.Add("v=1\nid=" + id.String() + "\na1=/ip4/10.0.0.1/tcp/1\na0=/ip4/10.0.0.2/tcp/1")
	f.Add("v=1\nid=" + id.String() + "\na=/ip4/10.0.0.1/tcp/1\na=/ip4/10.0.0.2/tcp/1")
	f.Add("v=1\nid=" + id.String() + "\na0=/ip4/10.0.0.1/tcp/1\na2=/ip4/10.0.0.2/tcp/1\na9=x")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseTXT(strings.Split(s, "\n"))
		if err != nil {
			return
		}
		enc, err := EncodeTXT(a)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", a, err)
		}
		b, err := ParseTXT(enc)
		if err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("re-parse: %+v vs %+v (%v)", a, b, err)
		}
	})
}
