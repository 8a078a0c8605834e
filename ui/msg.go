package ui

import (
	"errors"
	"fmt"

	"aeroplane/engine"
	"aeroplane/ui/i18n"
)

// Msg is a text for the player as a catalogue key and its arguments, so
// that the screen says it in the player's language: sessions never send
// sentences, only Msgs. An argument that is itself a Msg, an error (see
// Error) or an engine.Colour is translated too; any other argument (a
// name, a number, a path) is shown as it is.
type Msg struct {
	Key  string
	Args []any
}

// M is the message of key with args.
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// In is the message in the catalogue's language.
func (m Msg) In(c *i18n.Catalog) string {
	if m.Key == "" {
		return ""
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		args[i] = argIn(c, a)
	}
	return c.T(m.Key, args...)
}

// String is the message in English, for logs and tests.
func (m Msg) String() string { return m.In(english) }

var english = i18n.New("en")

func argIn(c *i18n.Catalog, a any) any {
	switch a := a.(type) {
	case Msg:
		return a.In(c)
	case engine.Colour:
		if a < engine.NumColours {
			return c.T(fmt.Sprintf("colour.%d", a))
		}
		return "-"
	case error:
		var e *Error
		if errors.As(a, &e) {
			return e.Msg.In(c)
		}
		return a.Error() // the system's own words: nothing to translate
	}
	return a
}

// Error is a refusal or failure a session reports to the player: its Msg
// is what the screen says, translated; Error() is the English of it, for
// logs. It wraps Cause, else the first error among its arguments, for
// errors.Is.
type Error struct {
	Msg   Msg
	Cause error
}

// Errorf is the error saying key with args.
func Errorf(key string, args ...any) error { return &Error{Msg: M(key, args...)} }

// Wrap is the error saying key with args about cause, which errors.Is
// and errors.As still see.
func Wrap(cause error, key string, args ...any) error {
	return &Error{Msg: M(key, args...), Cause: cause}
}

func (e *Error) Error() string { return e.Msg.String() }

func (e *Error) Unwrap() error {
	if e.Cause != nil {
		return e.Cause
	}
	for _, a := range e.Msg.Args {
		if err, ok := a.(error); ok {
			return err
		}
	}
	return nil
}

// ErrorMsg is what the screen says for err: the Msg of the outermost
// Error in its chain, or, for an error no session explained (a system
// or network failure), a translated frame around its own text.
func ErrorMsg(err error) Msg {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return M("note.failed", rawText(err.Error()))
}

// rawText is text from below the session (the system, the network): not
// translatable, shown as it is inside a translated frame.
type rawText string

// NoticeOf is the notice telling the player err.
func NoticeOf(err error) Notice { return Notice{Msg: ErrorMsg(err)} }
