package i18n

import (
	"fmt"
	"sort"
	"strings"
)

// catalogs holds every language's messages by key; each language file
// adds its own in an init function.
var catalogs = map[string]map[string]string{}

// names is each language's name in that language, for help texts.
var names = map[string]string{}

func add(code, name string, msgs map[string]string) {
	extend(code, msgs)
	names[code] = name
}

// extend adds more messages to a language's catalog: a language's
// messages may come in several files (the session's notices and errors
// are in session_*.go), in any init order. A key given twice panics at
// start-up, so no file silently overrides another.
func extend(code string, msgs map[string]string) {
	c := catalogs[code]
	if c == nil {
		c = map[string]string{}
		catalogs[code] = c
	}
	for k, v := range msgs {
		if _, dup := c[k]; dup {
			panic("i18n: " + code + " has key " + k + " twice")
		}
		c[k] = v
	}
}

// Catalog translates message keys into one language.
type Catalog struct {
	lang string
	msgs map[string]string
}

// Languages lists the language codes there are catalogs for, sorted.
func Languages() []string {
	out := make([]string, 0, len(catalogs))
	for k := range catalogs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Name is a language's name in itself ("Ελληνικά" for el).
func Name(code string) string { return names[code] }

// Messages is a language's catalog, for tests; nil for an unknown language.
func Messages(code string) map[string]string { return catalogs[code] }

// New is the catalog of a language code; an unknown code gives English.
func New(code string) *Catalog {
	if m, ok := catalogs[code]; ok {
		return &Catalog{lang: code, msgs: m}
	}
	return &Catalog{lang: "en", msgs: catalogs["en"]}
}

// Lang is the catalog's language code.
func (c *Catalog) Lang() string { return c.lang }

// T formats a message; a key missing in this language falls back to
// English, and a key missing there too prints as itself so it gets noticed.
func (c *Catalog) T(key string, args ...any) string {
	f, ok := c.msgs[key]
	if !ok {
		if f, ok = catalogs["en"][key]; !ok {
			return key
		}
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// Choose picks the language: the --lang flag if given, else LC_ALL,
// LC_MESSAGES or LANG as POSIX orders them ("pt_BR.UTF-8" means pt); a
// language without a catalog gives English.
func Choose(flag string, getenv func(string) string) string {
	cands := []string{flag}
	if flag == "" {
		cands = []string{getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG")}
	}
	for _, v := range cands {
		if v == "" {
			continue
		}
		code := strings.ToLower(v)
		if i := strings.IndexAny(code, "_.@-"); i >= 0 {
			code = code[:i]
		}
		if _, ok := catalogs[code]; ok {
			return code
		}
		return "en" // the first one set decides, as in POSIX
	}
	return "en"
}
