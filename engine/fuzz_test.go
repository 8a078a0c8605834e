package engine

import (
	"errors"
	"testing"
)

// The seed corpora live in testdata/fuzz/<Name>/ and run with every go test.

func FuzzParsePosition(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			if !errors.Is(err, ErrIllegal) {
				t.Fatalf("ParsePosition(%q): %v does not wrap ErrIllegal", s, err)
			}
			return
		}
		if got := p.String(); got != s {
			t.Fatalf("ParsePosition(%q).String() = %q", s, got)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted %q does not validate: %v", s, err)
		}
		_ = p.Board()
		_ = p.Hash(DefaultRules())
	})
}

func FuzzParseRules(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRules(s)
		if err != nil {
			if !errors.Is(err, ErrIllegal) {
				t.Fatalf("ParseRules(%q): %v does not wrap ErrIllegal", s, err)
			}
			return
		}
		canon := r.String()
		r2, err := ParseRules(canon)
		if err != nil || r2 != r || r2.String() != canon {
			t.Fatalf("ParseRules(%q) = %v; its text %q reads back as %v, %v", s, r, canon, r2, err)
		}
		if s == canon && r.String() != s {
			t.Fatalf("canonical %q does not round-trip", s)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			if !errors.Is(err, ErrIllegal) {
				t.Fatalf("ParseMove(%q): %v does not wrap ErrIllegal", s, err)
			}
			return
		}
		if got := m.String(); got != s {
			t.Fatalf("ParseMove(%q).String() = %q", s, got)
		}
	})
}

// FuzzPlay plays up to 300 random rolls and outcomes from a fuzzed position
// under fuzzed rules. Each step goes through the checked Play and must
// agree with Apply and with the plain reference (reference_test.go), and
// every position reached must validate and round-trip. Hand-built positions need not be reachable, so only the
// invariants that hold for every valid position are checked here.
func FuzzPlay(f *testing.F) {
	f.Fuzz(func(t *testing.T, pos, rulesText string, seed uint64) {
		p, err := ParsePosition(pos)
		if err != nil {
			return
		}
		rules, err := ParseRules(rulesText)
		if err != nil {
			return
		}
		r := NewRand(seed)
		for ply := 0; ply < 300 && !p.GameOver(); ply++ {
			compareWithReference(t, p, rules)
			roll := r.Roll()
			outs := p.Outcomes(rules, roll)
			if outs.Len() == 0 {
				t.Fatalf("%s roll %d: no outcomes", p, roll)
			}
			m := outs.At(r.Intn(outs.Len()))
			q, res, err := p.Play(rules, roll, m)
			if err != nil {
				t.Fatalf("%s roll %d: Play(%s): %v", p, roll, m, err)
			}
			a := p
			a.Apply(rules, roll, m)
			if a != q || res.Next != q.ToMove() {
				t.Fatalf("%s roll %d %s: Apply %s, Play %s", p, roll, m, a, q)
			}
			if err := q.Validate(); err != nil {
				t.Fatalf("%s roll %d %s gives %s, which does not validate: %v", p, roll, m, q, err)
			}
			if back, err := ParsePosition(q.String()); err != nil || back != q {
				t.Fatalf("%s does not round-trip: %v", q, err)
			}
			// An outcome that is not listed must be refused.
			bogus := Move{Kind: PlaneMove, Colour: p.ToMove(), Plane: uint8(r.Intn(PlanesPerColour))}
			if !outs.Contains(bogus) {
				if _, _, err := p.Play(rules, roll, bogus); !errors.Is(err, ErrIllegal) {
					t.Fatalf("%s roll %d: unlisted %s accepted", p, roll, bogus)
				}
			}
			p = q
		}
	})
}
