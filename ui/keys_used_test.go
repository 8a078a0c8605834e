package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"aeroplane/ui/i18n"
)

// TestKeysUsedExist checks that every catalog key the code names, and
// every key table entry's help text, is in every language's catalog, so a
// string added in English only fails here.
func TestKeysUsedExist(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`"((?:app|lobby|table|seat|status|panel|turn|move|dice|help|rules|end|log|place|prompt|key|opt|notice|small|legend|leave|history|note|err|cheat|replay|watch|weekday|phone)\.[a-z0-9.]+)"`)
	used := map[string]string{} // key → file that names it
	for _, f := range files {
		if filepath.Ext(f) != ".go" || len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = f
		}
	}
	for i := range keyTable {
		used[keyTable[i].help] = "keyTable " + keyTable[i].label
	}
	for _, k := range legendKeys {
		used[k] = "legendKeys"
	}
	for d := range 7 { // named as weekday.%d (view.go)
		used[fmt.Sprintf("weekday.%d", d)] = "the continue lines"
	}
	if len(used) < 50 {
		t.Fatalf("found only %d keys: the pattern is broken", len(used))
	}
	for _, lang := range i18n.Languages() {
		msgs := i18n.Messages(lang)
		for k, f := range used {
			if _, ok := msgs[k]; !ok {
				t.Errorf("%s uses %q, which the %s catalog lacks", f, k, lang)
			}
		}
	}
}
