// Package testout holds what the end-to-end tests share to watch child
// processes: a buffer the child's output goroutine and the test can use at
// once. It is for tests only and must never hold product logic.
package testout

import (
	"bytes"
	"sync"
)

// Buffer collects a process's output while the test reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
