package session

import (
	"errors"
	"reflect"
	"testing"

	"aeroplane/lockstep"
)

func TestWatchWireRoundTrip(t *testing.T) {
	var gid lockstep.GameID
	gid[0], gid[31] = 7, 9
	reqs := []watchRequest{
		{Game: gid, Name: "zoe"},
		{Game: gid, From: 513, ChatFrom: 4, Name: "李雷", Say: "nice move"},
	}
	for _, r := range reqs {
		got, err := decodeWatchRequest(encodeWatchRequest(r))
		if err != nil || got != r {
			t.Errorf("request %+v: got %+v, %v", r, got, err)
		}
	}
	recs := []lockstep.Record{{Type: lockstep.RecordSetup, Data: []byte{1, 2}}, {Type: lockstep.RecordMessage, Data: []byte{3}}}
	answers := []watchAnswer{
		{Status: watchOK, Total: 2, From: 0, ChatNext: 1, Chat: []watchChat{{From: "ann", Text: "hi"}}, Records: recs},
		{Status: watchOK, Total: 9, From: 9},
		{Status: watchFull},
		{Status: watchRefused},
		{Status: watchNoGame},
	}
	for _, a := range answers {
		got, err := decodeWatchAnswer(encodeWatchAnswer(a))
		for i := range got.Records {
			got.Records[i].Offset = 0
		}
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Errorf("answer %+v: got %+v, %v", a, got, err)
		}
	}
}

func TestWatchWireRejects(t *testing.T) {
	var gid lockstep.GameID
	good := encodeWatchRequest(watchRequest{Game: gid, Name: "zoe"})
	long := make([]byte, maxSay+1)
	for i := range long {
		long[i] = 'a'
	}
	recs := lockstep.EncodeRecords(lockstep.Record{Type: lockstep.RecordMessage, Data: []byte{3}})
	ok := encodeWatchAnswer(watchAnswer{Status: watchOK, Total: 1})
	reqs := map[string][]byte{
		"empty":       {},
		"magic":       append([]byte{'X'}, good[1:]...),
		"version":     append([]byte{'W', 2}, good[2:]...),
		"cut short":   good[:len(good)-2],
		"trailing":    append(append([]byte(nil), good...), 0),
		"no name":     encodeWatchRequest(watchRequest{Game: gid}),
		"bad name":    encodeWatchRequest(watchRequest{Game: gid, Name: "a\x07b"}),
		"long say":    encodeWatchRequest(watchRequest{Game: gid, Name: "zoe", Say: string(long)}),
		"not utf8":    encodeWatchRequest(watchRequest{Game: gid, Name: "zoe", Say: "\xff\xfe"}),
		"answer kind": ok,
	}
	for name, b := range reqs {
		if _, err := decodeWatchRequest(b); !errors.Is(err, errWatchWire) {
			t.Errorf("request %s: %v", name, err)
		}
	}
	badCRC := append(append([]byte(nil), ok...), recs...)
	badCRC[len(badCRC)-1] ^= 1
	answers := map[string][]byte{
		"empty":            {},
		"status":           {'w', 1, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		"records past all": append(append([]byte(nil), ok[:3]...), append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, recs...)...),
		"bad crc":          badCRC,
		"cut record":       append(append([]byte(nil), ok...), recs[:len(recs)-1]...),
		"records refused":  append(encodeWatchAnswer(watchAnswer{Status: watchRefused, Total: 5}), recs...),
		"too many chats":   append(append([]byte(nil), ok[:15]...), maxWatchChat+1),
		"request kind":     good,
	}
	for name, b := range answers {
		if _, err := decodeWatchAnswer(b); !errors.Is(err, errWatchWire) {
			t.Errorf("answer %s: %v", name, err)
		}
	}
}

func FuzzDecodeWatchRequest(f *testing.F) {
	var gid lockstep.GameID
	f.Add(encodeWatchRequest(watchRequest{Game: gid, Name: "zoe"}))
	f.Add(encodeWatchRequest(watchRequest{Game: gid, From: 40, ChatFrom: 2, Name: "zoe", Say: "hello"}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeWatchRequest(b)
		if err != nil {
			return
		}
		again, err := decodeWatchRequest(encodeWatchRequest(r))
		if err != nil || again != r {
			t.Fatalf("re-decode of %+v: %+v %v", r, again, err)
		}
	})
}

func FuzzDecodeWatchAnswer(f *testing.F) {
	f.Add(encodeWatchAnswer(watchAnswer{Status: watchOK, Total: 2, ChatNext: 1, Chat: []watchChat{{From: "ann", Text: "hi"}},
		Records: []lockstep.Record{{Type: lockstep.RecordSetup, Data: []byte{1}}, {Type: lockstep.RecordMessage, Data: []byte{2}}}}))
	f.Add(encodeWatchAnswer(watchAnswer{Status: watchFull}))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := decodeWatchAnswer(b)
		if err != nil {
			return
		}
		if len(a.Records) > watchBatch || uint64(a.From)+uint64(len(a.Records)) > uint64(a.Total) {
			t.Fatalf("accepted %d records from %d of %d", len(a.Records), a.From, a.Total)
		}
		if _, err := decodeWatchAnswer(encodeWatchAnswer(a)); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
