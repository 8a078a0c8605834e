package p2p

import (
	"strings"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

// What discovery sends and how it reads what it hears, on the wire.
// hashicorp/mdns's MDNSService builds our records (PTR, SRV, TXT, A) and
// its ServiceEntry carries what we heard to saw; the messages around them
// (announcements, goodbyes, answers with known-answer suppression, queries
// with known answers) are built here with github.com/miekg/dns, the DNS
// library hashicorp/mdns itself uses, because its Server and Query do none
// of that (its server answers every query by unicast, its client asks
// with no known answers and reads no TTL).

const (
	cacheFlush    = 1 << 15 // top bit of a record's class: unique, replace the cached set (RFC 6762 §10.2)
	unicastAnswer = 1 << 15 // top bit of a question's class: QU, answer by unicast (§5.4)
	legacyTTL     = 10      // the most a legacy unicast answer may say (§6.7)
	maxMDNSMsg    = 9000    // the largest mDNS message (§17)
	serviceEnum   = "_services._dns-sd._udp.local."
)

// serviceFQDN is the PTR name peers browse; instanceFQDN one peer's name.
var serviceFQDN = ServiceName + ".local."

func instanceFQDN(id string) string { return id + "." + serviceFQDN }

// advertRecords are the records of svc with ttl (seconds): the PTR from the
// service to our instance, the SRV, the TXT, the A records. A goodbye is
// the same with ttl 0.
func advertRecords(svc *mdns.MDNSService, ttl uint32, flush bool) []dns.RR {
	rrs := svc.Records(dns.Question{Name: serviceFQDN, Qtype: dns.TypePTR, Qclass: dns.ClassINET})
	for _, rr := range rrs {
		h := rr.Header()
		h.Ttl = ttl
		if _, shared := rr.(*dns.PTR); flush && !shared {
			h.Class |= cacheFlush
		}
	}
	return rrs
}

// answersFor are our records that answer q, its name matched without
// regard to case as DNS asks. nil if q is not about us.
func answersFor(svc *mdns.MDNSService, q dns.Question, ttl uint32) []dns.RR {
	if c := q.Qclass &^ unicastAnswer; c != dns.ClassINET && c != dns.ClassANY {
		return nil
	}
	name := ""
	for _, n := range []string{serviceEnum, serviceFQDN, instanceFQDN(svc.Instance), svc.HostName} {
		if strings.EqualFold(q.Name, n) {
			name = n
		}
	}
	if name == "" {
		return nil
	}
	rrs := svc.Records(dns.Question{Name: name, Qtype: q.Qtype, Qclass: dns.ClassINET})
	for _, rr := range rrs {
		rr.Header().Ttl = ttl
	}
	return rrs
}

// knownAnswer reports whether known (a query's Answer section) already
// holds rr with at least half of rr's TTL left, so the querier needs no
// answer (RFC 6762 §7.1).
func knownAnswer(known []dns.RR, rr dns.RR) bool {
	for _, k := range known {
		if k.Header().Ttl < rr.Header().Ttl/2 || k.Header().Rrtype != rr.Header().Rrtype {
			continue
		}
		a, b := dns.Copy(k), dns.Copy(rr)
		a.Header().Class &^= cacheFlush
		b.Header().Class &^= cacheFlush
		if dns.IsDuplicate(a, b) {
			return true
		}
	}
	return false
}

// response is an unsolicited or multicast answer: all in the Answer
// section, ID 0, authoritative (RFC 6762 §18).
func response(rrs []dns.RR) *dns.Msg {
	return &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Answer: rrs, Compress: true}
}

// knownPTR is a known answer: the service's PTR to an instance, with the
// TTL it has left.
func knownPTR(instance string, left time.Duration) dns.RR {
	return &dns.PTR{Hdr: dns.RR_Header{Name: serviceFQDN, Rrtype: dns.TypePTR, Class: dns.ClassINET,
		Ttl: uint32(left / time.Second)}, Ptr: instance}
}

// browseQuery asks for the service's instances (a QM question: answers go
// to the group, so every peer hears them), listing known: the instances
// whose answer we do not need.
func browseQuery(known []dns.RR) *dns.Msg {
	m := &dns.Msg{Compress: true}
	m.Question = []dns.Question{{Name: serviceFQDN, Qtype: dns.TypePTR, Qclass: dns.ClassINET}}
	m.Answer = known
	for len(known) > 0 {
		if n := m.Len(); n <= maxMDNSMsg {
			break
		}
		// More peers than one message can name: the rest will answer.
		known = known[:len(known)-1]
		m.Answer = known
	}
	return m
}

// heardRecord is one advert found in a response: the instance's TXT (nil
// for a goodbye) and its TTL.
type heardRecord struct {
	instance string
	txt      []string
	ttl      time.Duration
}

// readResponse finds the adverts of the service in a response: each TXT
// record of an instance of the service (with its TTL), and a goodbye (TTL
// 0, txt nil) for each PTR or TXT that withdraws one.
func readResponse(m *dns.Msg) []heardRecord {
	var out []heardRecord
	suffix := "." + strings.ToLower(serviceFQDN)
	for _, rr := range append(m.Answer, m.Extra...) {
		h := rr.Header()
		switch r := rr.(type) {
		case *dns.PTR:
			if h.Ttl == 0 && strings.EqualFold(h.Name, serviceFQDN) && strings.HasSuffix(strings.ToLower(r.Ptr), suffix) {
				out = append(out, heardRecord{instance: r.Ptr})
			}
		case *dns.TXT:
			if !strings.HasSuffix(strings.ToLower(h.Name), suffix) {
				continue
			}
			if h.Ttl == 0 {
				out = append(out, heardRecord{instance: h.Name})
			} else {
				out = append(out, heardRecord{instance: h.Name, txt: r.Txt, ttl: time.Duration(h.Ttl) * time.Second})
			}
		}
	}
	return out
}
