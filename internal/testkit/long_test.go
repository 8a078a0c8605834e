package testkit

import (
	"slices"
	"testing"
)

func TestLong(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", true}} {
		t.Setenv(LongEnv, tc.env)
		if got := Long(); got != tc.want {
			t.Errorf("%s=%q: Long() = %v, want %v", LongEnv, tc.env, got, tc.want)
		}
	}
}

func TestRows(t *testing.T) {
	type row struct {
		name string
		long bool
	}
	rows := []row{{"a", false}, {"b", true}, {"c", false}, {"d", true}}
	names := func(rs []row) (n []string) {
		for _, r := range rs {
			n = append(n, r.name)
		}
		return n
	}
	isLong := func(i int) bool { return rows[i].long }
	t.Setenv(LongEnv, "")
	if got := names(Rows(rows, isLong)); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("default run plays %v, want [a c]", got)
	}
	t.Setenv(LongEnv, "1")
	if got := names(Rows(rows, isLong)); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("long run plays %v, want every row", got)
	}
}
