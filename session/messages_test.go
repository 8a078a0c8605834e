package session

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/ui"
	"aeroplane/ui/i18n"
)

// sameByNature are the kinds whose text is the same in every language: a
// frame of the protocol's own words.
var sameByNature = map[string]bool{"cheat.other": true}

// englishRun is three English words in a row: a sentence that reached the
// screen untranslated.
var englishRun = regexp.MustCompile(`[A-Za-z]{2,}(?:[ ,':]+[A-Za-z]{2,}){2,}`)

// kinds are every notice, refusal and cheat kind the session can hand the
// screen: the catalogue keys its sources name.
func kinds(t *testing.T) map[string]string {
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`"((?:err|note|cheat)\.[a-z0-9.]+)"`)
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			out[m[1]] = f
		}
	}
	out["note.failed"] = "ui.ErrorMsg" // the frame of an error nobody explained
	if len(out) < 60 {
		t.Fatalf("found only %d kinds: the pattern is broken", len(out))
	}
	return out
}

// sample fills a message's verbs with arguments that are no English.
func sample(lang, key string) string {
	f := i18n.Messages("en")[key]
	var args []any
	for _, v := range regexp.MustCompile(`%[-+# 0]*\d*[a-zA-Z]`).FindAllString(f, -1) {
		if v[len(v)-1] == 'd' {
			args = append(args, 7)
		} else {
			args = append(args, "Ἄννα")
		}
	}
	return ui.M(key, args...).In(i18n.New(lang))
}

// Every kind the session emits has a translation in every language, one
// that is not the English one (unless the same by nature), and none lets
// an English sentence through in zh or ru.
func TestEveryNoticeKindTranslated(t *testing.T) {
	en := i18n.Messages("en")
	for key, file := range kinds(t) {
		if _, ok := en[key]; !ok {
			t.Errorf("%s names %q, which the English catalogue lacks", file, key)
			continue
		}
		for _, lang := range i18n.Languages() {
			msg, ok := i18n.Messages(lang)[key]
			switch {
			case !ok:
				t.Errorf("%s: %q missing", lang, key)
			case lang != "en" && msg == en[key] && !sameByNature[key]:
				t.Errorf("%s: %q is the English text %q", lang, key, msg)
			}
		}
		for _, lang := range []string{"zh", "ru", "el", "hi"} {
			if got := sample(lang, key); englishRun.MatchString(strings.ReplaceAll(got, "--", " ")) {
				t.Errorf("%s: %q shows English: %q", lang, key, got)
			}
		}
	}
}

// A player at an offline game, the screen in zh, presses keys that make
// no sense now: every refusal is a kind of the catalogue (never the frame
// around an unexplained error) and reads with no English in it.
func TestRefusalsReachTheScreenTranslated(t *testing.T) {
	s := newLocal(t, 1)
	zh := i18n.New("zh")
	check := func(what string, err error) {
		t.Helper()
		var e *ui.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v is no ui.Error: the screen would show it in English", what, err)
			return
		}
		got := ui.ErrorMsg(err).In(zh)
		for _, k := range engine.BotKinds() { // the bots' names are names
			got = strings.ReplaceAll(got, k, "")
		}
		if englishRun.MatchString(got) || got == e.Error() {
			t.Errorf("%s: zh shows %q", what, got)
		}
	}
	check("empty name", s.SetName(""))
	check("join offline", s.Join("g"))
	check("connect offline", s.Connect("10.0.0.1:1"))
	check("seat before a game", s.SetSeat(engine.Blue, "random"))
	check("rules before a game", s.SetRules(engine.DefaultRules()))
	check("start before a game", s.Start())
	check("roll before a game", s.Roll())
	check("rematch before a game", s.Rematch())
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	check("own seat", s.SetSeat(engine.Red, "random"))
	check("no such bot", s.SetSeat(engine.Blue, "nosuchbot"))
	check("no such seat", s.SetSeat(engine.NumColours+1, "random"))
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	check("create during a game", s.CreateGame(engine.DefaultRules()))
	check("seat during a game", s.SetSeat(engine.Blue, "random"))
	check("rules during a game", s.SetRules(engine.DefaultRules()))
	check("start again", s.Start())
	check("rematch during a game", s.Rematch())
	s.Close()
	check("after close", s.SetName("Mei"))
}

// What the lobby and the game log refuse becomes the player's words, and
// errors.Is still sees the cause.
func TestExplainKeepsTheCause(t *testing.T) {
	for _, k := range refusals {
		err := explain(errors.Join(errors.New("context"), k.err))
		var e *ui.Error
		if !errors.As(err, &e) || e.Msg.Key != k.key || !errors.Is(err, k.err) {
			t.Errorf("%v: explained as %v, want %s", k.err, err, k.key)
		}
	}
	raw := errors.New("connection refused")
	if explain(raw) != raw || explain(nil) != nil {
		t.Error("an error nobody explains must pass as it is")
	}
	if got := ui.ErrorMsg(raw).In(i18n.New("zh")); got != "没能完成：connection refused" {
		t.Errorf("an unexplained error in zh: %q", got)
	}
	if err := ui.Errorf("err.roll", ErrNotYourRoll); !errors.Is(err, ErrNotYourRoll) || ui.ErrorMsg(err).In(i18n.New("ru")) != "Не удаётся бросить: Сейчас не ваш бросок." {
		t.Errorf("a nested refusal: %v, ru %q", err, ui.ErrorMsg(err).In(i18n.New("ru")))
	}
}
