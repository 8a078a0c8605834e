package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestHandlerServesOnlyThePage(t *testing.T) {
	wasm := []byte("\x00asm fake client")
	assets := fstest.MapFS{
		"index.html":     {Data: []byte("<html>page</html>")},
		"app.js":         {Data: []byte("app()")},
		"style.css":      {Data: []byte("body{}")},
		"wasm_exec.js":   {Data: []byte("go()")},
		"client.wasm.gz": {Data: gz(t, wasm)},
		"secret.txt":     {Data: []byte("not for the page")},
	}
	h := newHandler(assets, nil, nil)
	for _, tc := range []struct {
		name, method, host, path, acceptEnc string
		code                                int
		typ, encoding, body                 string
	}{
		{"page", "GET", "192.168.1.5:8080", "/", "", 200, "text/html; charset=utf-8", "", "<html>page</html>"},
		{"script", "GET", "127.0.0.1:8080", "/app.js", "", 200, "text/javascript; charset=utf-8", "", "app()"},
		{"go runtime", "GET", "[::1]:8080", "/wasm_exec.js", "", 200, "text/javascript; charset=utf-8", "", "go()"},
		{"wasm gzipped", "GET", "10.0.0.2:80", "/client.wasm", "gzip, deflate, br", 200, "application/wasm", "gzip", ""},
		{"wasm unpacked", "GET", "10.0.0.2:80", "/client.wasm", "identity", 200, "application/wasm", "", string(wasm)},
		{"wasm gzip refused", "GET", "10.0.0.2:80", "/client.wasm", "gzip;q=0", 200, "application/wasm", "", string(wasm)},
		{"head", "HEAD", "10.0.0.2:80", "/", "", 200, "text/html; charset=utf-8", "", ""},
		{"other file", "GET", "10.0.0.2:80", "/secret.txt", "", 404, "", "", ""},
		{"index by name", "GET", "10.0.0.2:80", "/index.html", "", 404, "", "", ""},
		{"traversal", "GET", "10.0.0.2:80", "/../go.mod", "", 404, "", "", ""},
		{"a name as host (rebinding)", "GET", "evil.example:8080", "/", "", 421, "", "", ""},
		{"localhost by name", "GET", "localhost:8080", "/", "", 421, "", "", ""},
		{"post", "POST", "10.0.0.2:80", "/", "", 405, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "http://x"+tc.path, nil)
			r.Host = tc.host
			r.URL.Path = tc.path
			if tc.acceptEnc != "" {
				r.Header.Set("Accept-Encoding", tc.acceptEnc)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			res := w.Result()
			if res.StatusCode != tc.code {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.code)
			}
			if got := res.Header.Get("Content-Security-Policy"); got != csp {
				t.Errorf("CSP %q", got)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no nosniff")
			}
			if tc.code != 200 {
				return
			}
			if got := res.Header.Get("Content-Type"); got != tc.typ {
				t.Errorf("type %q, want %q", got, tc.typ)
			}
			if got := res.Header.Get("Content-Encoding"); got != tc.encoding {
				t.Errorf("encoding %q, want %q", got, tc.encoding)
			}
			body, _ := io.ReadAll(res.Body)
			if tc.encoding == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, _ = io.ReadAll(zr); !bytes.Equal(body, wasm) {
					t.Fatalf("gzipped body unpacks to %q", body)
				}
				return
			}
			if string(body) != tc.body {
				t.Errorf("body %q, want %q", body, tc.body)
			}
		})
	}
}

// A binary built without go generate serves the page, which says so,
// and a 404 for the client.
func TestHandlerWithoutClient(t *testing.T) {
	assets := fstest.MapFS{"index.html": {Data: []byte("<html>page</html>")}}
	if HasClient(assets) {
		t.Fatal("HasClient without the client")
	}
	h := newHandler(assets, nil, nil)
	for path, want := range map[string]int{"/": 200, "/client.wasm": 404, "/wasm_exec.js": 404} {
		r := httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("%s: %d, want %d", path, w.Code, want)
		}
		if want == 404 && !strings.Contains(w.Body.String(), "go generate ./web") {
			t.Errorf("%s: %q does not say how to build the client", path, w.Body.String())
		}
	}
}

func TestListenOnlyOnTheLAN(t *testing.T) {
	for _, addr := range []string{"8.8.8.8:0", "0.0.0.0:0", "[::]:0", "localhost:0", "example.com:80", "1.1.1.1:8080", "127.0.0.1", "127.0.0.1:http", "127.0.0.1:70000"} {
		if s, err := Listen(Options{Addr: addr}); err == nil {
			s.Close()
			t.Errorf("Listen(%q): no error", addr)
		}
	}
	s, err := Listen(Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	urls := s.URLs()
	if len(urls) != 1 || !strings.HasPrefix(urls[0], "http://127.0.0.1:") {
		t.Fatalf("URLs %v", urls)
	}
	res, err := http.Get(urls[0])
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET / %d", res.StatusCode)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(urls[0]); err == nil {
		t.Fatal("still serving after Close")
	}
}

func TestAcceptsGzip(t *testing.T) {
	for ae, want := range map[string]bool{"": false, "gzip": true, "GZIP": true, "br, gzip;q=0.5": true, "gzip;q=0": false, "gzip; q=0": false, "deflate": false, "x-gzip": false} {
		if got := acceptsGzip(ae); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", ae, got, want)
		}
	}
}
