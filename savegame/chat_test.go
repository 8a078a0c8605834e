package savegame

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"aeroplane/lockstep"
)

// Chat lines saved for a game come back for it, in order, cleaned: no
// control character, newline or tab of a hostile line survives, and
// over-long text is cut; a game without a file has none.
func TestChatRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   ChatLine
		want ChatLine
	}{
		{"plain", ChatLine{Colour: 1, From: "Bob", Text: "good luck"}, ChatLine{Colour: 1, From: "Bob", Text: "good luck"}},
		{"no seat", ChatLine{Colour: -1, From: "Eve", Text: "hi"}, ChatLine{Colour: -1, From: "Eve", Text: "hi"}},
		{"a colour out of range is no seat", ChatLine{Colour: 9, From: "Eve", Text: "hi"}, ChatLine{Colour: -1, From: "Eve", Text: "hi"}},
		{"hostile text", ChatLine{Colour: 0, From: "A\tn\nn", Text: "x\x1b[2J\ny\tz\r"}, ChatLine{Colour: 0, From: "A n n", Text: "x [2J y z "}},
		{"long text is cut", ChatLine{Colour: 2, From: "Cy", Text: strings.Repeat("é", 400)}, ChatLine{Colour: 2, From: "Cy", Text: strings.Repeat("é", maxChatText/2)}},
		{"empty", ChatLine{Colour: 3, From: "", Text: ""}, ChatLine{Colour: 3, From: "?", Text: " "}},
		{"bad UTF-8", ChatLine{Colour: 3, From: "D\xff", Text: "\xfe!"}, ChatLine{Colour: 3, From: "D?", Text: "?!"}},
	}
	d := openDir(t)
	gid := lockstep.GameID{7}
	var want []ChatLine
	for _, tc := range cases {
		if err := d.AppendChat(gid, tc.in); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want = append(want, tc.want)
		if got := d.Chat(gid); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %+v, want %+v", tc.name, got, want)
		}
	}
	if got := d.Chat(lockstep.GameID{8}); len(got) != 0 {
		t.Errorf("a game never chatted in has chat %v", got)
	}
}

// However long a game's chat, its file stays under maxChatFile (plus one
// line) and reading it gives the newest lines, at most maxChatLines.
func TestChatBounded(t *testing.T) {
	d := openDir(t)
	gid := lockstep.GameID{9}
	long := strings.Repeat("w", maxChatText)
	for i := range 2000 {
		if err := d.AppendChat(gid, ChatLine{Colour: i % 4, From: "spammer", Text: long[:i%maxChatText+1]}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(d.chatPath(gid)); err != nil || fi.Size() > maxChatFile+maxChatRecord {
			t.Fatalf("after %d lines the chat file is %d bytes (%v), cap %d", i+1, fi.Size(), err, maxChatFile)
		}
	}
	got := d.Chat(gid)
	if len(got) == 0 || len(got) > maxChatLines {
		t.Fatalf("%d lines read back, want 1-%d", len(got), maxChatLines)
	}
	if last := got[len(got)-1]; last.Text != long[:1999%maxChatText+1] {
		t.Errorf("the last line read back is %q…, not the newest", last.Text[:min(10, len(last.Text))])
	}
}

// A chat file, however damaged, never panics and yields at most
// maxChatLines lines, each one that the file format could have written.
func FuzzParseChat(f *testing.F) {
	f.Add("0\tAnn\tgood luck\n-\tEve\thi\n")
	f.Add("9\tx\ty\n01\ta\tb\n\t\t\n" + strings.Repeat("2\tb\tc\n", 300))
	f.Fuzz(func(t *testing.T, s string) {
		got := ParseChat(strings.NewReader(s))
		if len(got) > maxChatLines {
			t.Fatalf("%d lines", len(got))
		}
		for _, l := range got {
			if l.Colour < -1 || l.Colour > 3 || !validChat(l.From, maxChatFrom) || !validChat(l.Text, maxChatText) {
				t.Fatalf("invalid line %+v", l)
			}
			if back, ok := parseChatLine(strings.TrimSuffix(string(chatRecord(l)), "\n")); !ok || back != l {
				t.Fatalf("%+v does not round-trip: %+v", l, back)
			}
		}
	})
}
