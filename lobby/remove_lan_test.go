package lobby

import (
	"context"
	"errors"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

// The creator takes back the seat of a guest who never says ready: the
// seat is open again for everyone, the guest is told, and its join is
// refused, so its lobby ends with ErrFull. A ready guest cannot be
// removed, and only the creator removes.
func TestLobbyCreatorRemovesGuest(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := newSeatedLobby(t, ctx, 3)
	if err := s.ctl[1].SetReady(true); err != nil {
		t.Fatal(err)
	}
	s.wait(0, "Arno ready", func(v View) bool { return s.ready(v, 1) })
	tests := []struct {
		name string
		by   int
		who  int
		want error
	}{
		{"a guest removes", 1, 2, ErrNotCreator},
		{"a ready guest", 0, 1, nil}, // refused, by the table's reason
	}
	for _, tc := range tests {
		err := s.ctl[tc.by].Remove(s.id(tc.who))
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want a refusal (%v)", tc.name, err, tc.want)
		}
	}
	bea := s.colourOf(s.full, 2)
	if err := s.ctl[0].Remove(s.id(2)); err != nil {
		t.Fatal(err)
	}
	v := s.wait(1, "Bea's seat open", func(v View) bool { return len(v.Players) == 2 })
	if _, seated := player(v, s.id(2)); seated || v.Free != 1 || len(v.Open) != 1 || v.Open[0] != bea {
		t.Errorf("after the removal: %+v; want Bea gone and her colour %s open", v, bea)
	}
	// Bea looks for the table again (she dialled the creator by hand),
	// and is refused.
	select {
	case <-s.done[2]:
	case <-ctx.Done():
		t.Fatal("the removed guest's lobby never ended")
	}
	if !errors.Is(s.errs[2], ErrFull) {
		t.Errorf("the removed guest's lobby ended with %v, want ErrFull", s.errs[2])
	}
	cancel()
	s.wg.Wait()
}
