package testkit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// TestKeyIsTheSeedDerivation: Key(i) is the key the tests used to derive
// by hand from the byte i repeated (32 or 64 times: Ed25519 reads 32), so
// switching a test to it changes no golden byte.
func TestKeyIsTheSeedDerivation(t *testing.T) {
	for _, i := range []int{0, 1, 3, 7, 20, 41, 255} {
		for _, n := range []int{32, 64} {
			k, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{byte(i)}, n)))
			if err != nil {
				t.Fatal(err)
			}
			if !k.Equals(Key(i)) {
				t.Fatalf("Key(%d) differs from the key of %d bytes %d", i, n, i)
			}
			id, _ := peer.IDFromPrivateKey(k)
			if ID(i) != id {
				t.Fatalf("ID(%d) = %s, want %s", i, ID(i), id)
			}
		}
	}
	if ID(1) == ID(2) {
		t.Fatal("two indexes gave one ID")
	}
	// Pinned: a golden holding this ID must not change under us.
	if got, want := ID(1).String(), "12D3KooWK99VoVxNE7XzyBwXEzW7xhK7Gpv85r9F3V3fyKSUKPH5"; got != want {
		t.Fatalf("ID(1) = %s, want %s", got, want)
	}
}

// TestGolden: without -update a match passes and a difference or a
// missing file fails; with -update the file is (re)written.
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "x.golden")
	cases := []struct {
		name     string
		update   bool
		file     string // "" means no file
		got      string
		wantFail bool
		wantFile string
	}{
		{"missing", false, "", "a", true, ""},
		{"match", false, "a\n", "a\n", false, "a\n"},
		{"differs", false, "a\n", "b\n", true, "a\n"},
		{"update writes", true, "a\n", "b\n", false, "b\n"},
		{"update creates", true, "", "c", false, "c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(dir, "sub"))
			if c.file != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			old := *update
			*update = c.update
			defer func() { *update = old }()
			r := &recorder{}
			func() {
				defer func() { recover() }() // Fatal in the recorder stops here
				Golden(r, path, []byte(c.got))
			}()
			if r.failed != c.wantFail {
				t.Fatalf("failed = %v, want %v (%s)", r.failed, c.wantFail, r.msg)
			}
			b, _ := os.ReadFile(path)
			if string(b) != c.wantFile {
				t.Fatalf("file holds %q, want %q", b, c.wantFile)
			}
		})
	}
}

// recorder is a testing.TB that records failure instead of ending the test.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, a ...any) {
	r.failed, r.msg = true, f
}
func (r *recorder) Fatalf(f string, a ...any) {
	r.failed, r.msg = true, f
	panic("fatal")
}
func (r *recorder) Fatal(a ...any) {
	r.failed = true
	panic("fatal")
}

// TestBinaryOnce: the first call builds, the second returns the same file
// without building again, and RemoveBinaries deletes it.
func TestBinaryOnce(t *testing.T) {
	defer RemoveBinaries()
	p := Binary(t, "./testdata/hello")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(p).Output()
	if err != nil || string(out) != "hello from testkit\n" {
		t.Fatalf("built binary ran: %q, %v", out, err)
	}
	if q := Binary(t, "./testdata/hello"); q != p {
		t.Fatalf("second call built %s, first %s", q, p)
	}
	if fi2, _ := os.Stat(p); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Fatal("second call rebuilt the binary")
	}
	if _, err := BuildOnce("./testdata/nosuchpkg"); err == nil {
		t.Fatal("a missing package built")
	}
	RemoveBinaries()
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("after RemoveBinaries: %v", err)
	}
}
