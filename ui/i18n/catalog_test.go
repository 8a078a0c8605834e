package i18n

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// sampleArgs makes arguments that fit the verbs of the English message.
func sampleArgs(f string) []any {
	var args []any
	for _, v := range verb.FindAllString(f, -1) {
		switch v[len(v)-1] {
		case '%':
		case 'd':
			args = append(args, 7)
		case 'f':
			args = append(args, 0.5)
		default:
			args = append(args, "x")
		}
	}
	return args
}

func TestEveryCatalogHasEveryKey(t *testing.T) {
	en := Messages("en")
	want := []string{"el", "en", "hi", "it", "pt", "ru", "zh"}
	if got := strings.Join(Languages(), " "); got != strings.Join(want, " ") {
		t.Fatalf("languages %s, want %s", got, want)
	}
	for _, lang := range Languages() {
		msgs := Messages(lang)
		for k, f := range en {
			tr, ok := msgs[k]
			if !ok {
				t.Errorf("%s: missing %q", lang, k)
				continue
			}
			if strings.TrimSpace(tr) == "" {
				t.Errorf("%s: %q is empty", lang, k)
			}
			// The translation must use exactly the English arguments.
			if out := fmt.Sprintf(tr, sampleArgs(f)...); strings.Contains(out, "%!") {
				t.Errorf("%s: %q = %q formats badly: %s", lang, k, tr, out)
			}
		}
		for k := range msgs {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: %q is not an English key", lang, k)
			}
		}
		if Name(lang) == "" {
			t.Errorf("%s has no name", lang)
		}
	}
}

func TestChoose(t *testing.T) {
	cases := []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"", nil, "en"},
		{"ru", map[string]string{"LANG": "el_GR.UTF-8"}, "ru"},
		{"", map[string]string{"LANG": "pt_BR.UTF-8"}, "pt"},
		{"", map[string]string{"LANG": "pt_BR.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, "zh"},
		{"", map[string]string{"LC_MESSAGES": "it_IT", "LANG": "ru_RU"}, "it"},
		{"", map[string]string{"LANG": "hi_IN"}, "hi"},
		{"", map[string]string{"LANG": "C.UTF-8"}, "en"},
		{"", map[string]string{"LC_ALL": "de_DE.UTF-8", "LANG": "el_GR"}, "en"},
	}
	for _, c := range cases {
		if got := Choose(c.flag, func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("Choose(%q, %v) = %s, want %s", c.flag, c.env, got, c.want)
		}
	}
}

func TestFallback(t *testing.T) {
	c := New("xx")
	if c.Lang() != "en" || c.T("colour.0") != "Red" {
		t.Errorf("unknown language: %s %s", c.Lang(), c.T("colour.0"))
	}
	if got := New("el").T("lobby.name", "Νίκος"); got != "Το όνομά σου: Νίκος" {
		t.Errorf("el: %q", got)
	}
	if got := c.T("no.such.key"); got != "no.such.key" {
		t.Errorf("missing key shows %q", got)
	}
}

func ExampleCatalog_T() {
	fmt.Println(New("pt").T("log.pass", "Vermelho", 3))
	// Output: Vermelho tirou 3: sem jogada
}
