package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"aeroplane/ui/i18n"
)

// TestKeysUsedExist checks that every catalog key the code names is in the
// English catalog (the i18n tests check the other languages have them all).
func TestKeysUsedExist(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`"((?:app|lobby|table|seat|status|panel|turn|move|dice|help|rules|end|log|place|prompt|key|opt|notice)\.[a-z0-9.]+)"`)
	en := i18n.Messages("en")
	n := 0
	for _, f := range files {
		if filepath.Ext(f) != ".go" || len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			n++
			if _, ok := en[m[1]]; !ok {
				t.Errorf("%s uses %q, which the English catalog lacks", f, m[1])
			}
		}
	}
	for i := range keyTable {
		if _, ok := en[keyTable[i].help]; !ok {
			t.Errorf("key %q: no text %q", keyTable[i].label, keyTable[i].help)
		}
	}
	if n < 50 {
		t.Fatalf("found only %d keys: the pattern is broken", n)
	}
}
