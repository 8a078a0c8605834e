package web

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"aeroplane/ui/i18n"
)

// pageCatalogues reads app.js's catalogues (const strings and const
// notices): per catalogue, per language, its messages by key.
func pageCatalogues(t *testing.T) map[string]map[string]map[string]string {
	t.Helper()
	src, err := os.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?ms)^const (\w+) = \{\n(.*?)^\};`)
	line := regexp.MustCompile(`(?m)^  ([a-z]{2}): \{(.*)\},$`)
	msg := regexp.MustCompile(`(?:^ |, )"?([\w.]+)"?: "((?:[^"\\]|\\.)*)"`)
	out := map[string]map[string]map[string]string{}
	for _, b := range block.FindAllStringSubmatch(string(src), -1) {
		langs := map[string]map[string]string{}
		for _, m := range line.FindAllStringSubmatch(b[2], -1) {
			msgs := map[string]string{}
			for _, k := range msg.FindAllStringSubmatch(m[2], -1) {
				msgs[k[1]] = k[2]
			}
			langs[m[1]] = msgs
		}
		if len(langs) > 0 {
			out[b[1]] = langs
		}
	}
	return out
}

// The page's strings and notices come in the terminal's seven languages,
// each with every key.
func TestPageStringsInEveryLanguage(t *testing.T) {
	cats := pageCatalogues(t)
	all := i18n.Languages()
	for _, name := range []string{"strings", "notices", "events"} {
		cat := cats[name]
		var langs []string
		for l := range cat {
			langs = append(langs, l)
		}
		slices.Sort(langs)
		if !slices.Equal(langs, all) {
			t.Errorf("%s: languages %v, the terminal's %v", name, langs, all)
		}
		if len(cat["en"]) < 5 {
			t.Fatalf("%s: only %d keys found: the test no longer reads the catalogue", name, len(cat["en"]))
		}
		for _, l := range langs {
			for k := range cat["en"] {
				if strings.TrimSpace(cat[l][k]) == "" {
					t.Errorf("%s: %s lacks %q", name, l, k)
				}
			}
			if len(cat[l]) != len(cat["en"]) {
				t.Errorf("%s: %s has %d keys, en %d", name, l, len(cat[l]), len(cat["en"]))
			}
		}
	}
}

// Every way the page's game can end before it is over (web/wasm's
// endKind) has its notice in the seven languages, none of them the
// English one.
func TestPageRefusalsTranslated(t *testing.T) {
	src, err := os.ReadFile("wasm/main.go")
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile(`(?s)func endKind\(.*?\n}\n`).Find(src)
	var kinds []string
	for _, m := range regexp.MustCompile(`return "(\w+)"`).FindAllStringSubmatch(string(fn), -1) {
		kinds = append(kinds, "end."+m[1])
	}
	if len(kinds) < 4 {
		t.Fatalf("endKind names %v: the test no longer reads it", kinds)
	}
	notices := pageCatalogues(t)["notices"]
	for _, k := range append(kinds, "notkept") {
		en := notices["en"][k]
		if en == "" {
			t.Errorf("notices lack %q in English", k)
		}
		for _, l := range i18n.Languages() {
			if l != "en" && notices[l][k] == en {
				t.Errorf("%s: %q is the English %q", l, k, en)
			}
		}
	}
}

// The board's own strings (board.js, which app.js adds to its own) come
// in the terminal's seven languages, each with every key.
func TestBoardStringsInEveryLanguage(t *testing.T) {
	src, err := os.ReadFile("static/board.js")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^ +([a-z]{2}): \{(.*)\},$`)
	key := regexp.MustCompile(`(?:^ ?|", )(\w+): "`)
	var langs, want []string
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
		t.Errorf("board languages %v, the terminal's %v", langs, all)
	}
	if len(want) < 3 {
		t.Errorf("only %d keys found: the test no longer reads the board's strings", len(want))
	}
}

// Every line web/client's EventLines makes has its message, and every
// colour its name, in the events catalogue, in the seven languages.
func TestPageEventLinesTranslated(t *testing.T) {
	src, err := os.ReadFile("client/events.go")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range regexp.MustCompile(`Key: "(\w+)"`).FindAllStringSubmatch(string(src), -1) {
		keys = append(keys, m[1])
	}
	if len(keys) < 10 {
		t.Fatalf("EventLines names %v: the test no longer reads it", keys)
	}
	keys = append(keys, "rolls", "c.R", "c.B", "c.Y", "c.G")
	events := pageCatalogues(t)["events"]
	for _, l := range i18n.Languages() {
		for _, k := range keys {
			if strings.TrimSpace(events[l][k]) == "" {
				t.Errorf("events: %s lacks %q", l, k)
			}
		}
	}
}
