package engine

import "testing"

func mustParse(tb testing.TB, s string) Position {
	tb.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		tb.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

func mustRules(tb testing.TB, s string) Rules {
	tb.Helper()
	r, err := ParseRules(s)
	if err != nil {
		tb.Fatalf("ParseRules(%q): %v", s, err)
	}
	return r
}
