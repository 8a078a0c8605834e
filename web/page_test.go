package web

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"aeroplane/ui/i18n"
)

// The page's strings come in the terminal's seven languages, each with
// every key: app.js's table and board.js's.
func TestPageStringsInEveryLanguage(t *testing.T) {
	for _, file := range []string{"static/app.js", "static/board.js"} {
		t.Run(file, func(t *testing.T) { checkStrings(t, file) })
	}
}

func checkStrings(t *testing.T, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^ +([a-z]{2}): \{(.*)\},$`)
	key := regexp.MustCompile(`(?:^ ?|", )(\w+): "`)
	var langs []string
	var want []string
	for _, m := range line.FindAllStringSubmatch(string(src), -1) {
		var keys []string
		for _, k := range key.FindAllStringSubmatch(m[2], -1) {
			keys = append(keys, k[1])
		}
		slices.Sort(keys)
		if want == nil {
			want = keys
		} else if !slices.Equal(keys, want) {
			t.Errorf("%s has keys %v, en has %v", m[1], keys, want)
		}
		langs = append(langs, m[1])
	}
	slices.Sort(langs)
	all := append([]string(nil), i18n.Languages()...)
	slices.Sort(all)
	if !slices.Equal(langs, all) {
		t.Errorf("page languages %v, the terminal's %v", langs, all)
	}
	if len(want) < 3 {
		t.Errorf("only %d keys found: the test no longer reads the strings table", len(want))
	}
}
