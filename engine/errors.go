package engine

import (
	"errors"
	"fmt"
)

// ErrIllegal is wrapped by every error that rejects a move, a position or a
// rule string, so callers can tell bad input from their own faults.
var ErrIllegal = errors.New("illegal")

type illegalError struct{ msg string }

func (e *illegalError) Error() string { return e.msg }
func (e *illegalError) Unwrap() error { return ErrIllegal }

func errorf(format string, args ...any) error {
	return &illegalError{msg: fmt.Sprintf(format, args...)}
}
