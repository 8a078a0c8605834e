package ui

import (
	"context"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// screenView is what the one tview primitive shows: the game's UI or a
// replay. It draws the whole window and takes every key; one that also
// takes clicks (mouseView) gets them.
type screenView interface {
	Draw(scr tcell.Screen, w, h int)
	HandleKey(ev *tcell.EventKey)
}

type mouseView interface {
	HandleMouse(a tview.MouseAction, ev *tcell.EventMouse) bool
}

// root is the one tview primitive: it draws its view and hands it every
// key and click.
type root struct {
	*tview.Box
	v screenView
}

func (r *root) Draw(scr tcell.Screen) {
	r.Box.DrawForSubclass(scr, r)
	_, _, w, h := r.GetRect()
	r.v.Draw(scr, w, h)
}

func (r *root) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return r.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) { r.v.HandleKey(ev) })
}

func (r *root) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return r.WrapMouseHandler(func(a tview.MouseAction, ev *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		if m, ok := r.v.(mouseView); ok {
			return m.HandleMouse(a, ev), nil
		}
		return false, nil
	})
}

// Run shows the interface for a session on the terminal (or on screen,
// when not nil: tests pass a simulation screen) until the player quits,
// ctx ends or the session closes its events. It restores the terminal
// and closes the session before it returns.
func Run(ctx context.Context, s Session, opts Options, screen tcell.Screen) error {
	return newApp(s, opts, screen).run(ctx)
}

type app struct {
	u   *UI
	tv  *tview.Application
	ses Session
}

// newApp wires the interface to tview; a given screen is initialised here,
// before run, so that tests may inject input as soon as newApp returns.
func newApp(s Session, opts Options, screen tcell.Screen) *app {
	u := New(s, opts)
	tv := tview.NewApplication().EnableMouse(true)
	if screen != nil {
		tv.SetScreen(screen)
	}
	r := &root{Box: tview.NewBox(), v: u}
	tv.SetRoot(r, true).SetFocus(r)
	// Ctrl-C is a key of the table (quit), not tview's own stop.
	tv.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		if ev.Key() == tcell.KeyCtrlC {
			u.HandleKey(ev)
			return nil
		}
		return ev
	})
	u.stop = tv.Stop
	u.after = func(d time.Duration, f func()) {
		time.AfterFunc(d, func() { tv.QueueUpdateDraw(f) })
	}
	return &app{u: u, tv: tv, ses: s}
}

func (a *app) run(ctx context.Context) error {
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case e, ok := <-a.ses.Events():
				if !ok {
					a.tv.Stop()
					return
				}
				a.tv.QueueUpdateDraw(func() { a.u.Apply(e) })
			case <-ctx.Done():
				a.tv.Stop()
				return
			case <-done:
				return
			}
		}
	}()
	a.u.log.Info("interface started", "lang", a.u.cat.Lang())
	err := a.tv.Run()
	a.ses.Close()
	a.u.log.Info("interface stopped", "err", err)
	return err
}
