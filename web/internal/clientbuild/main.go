// Command clientbuild builds the web client that the binary embeds
// (`go generate ./web` runs it): web/wasm compiled to WebAssembly with
// pinned flags, gzipped with a fixed header, beside the toolchain's
// wasm_exec.js (which must match the Go that built the wasm) and a
// manifest of what it was built from (client.sources). The client is
// committed, so that a plain `go run .` serves phones; the manifest lets
// a test see, without building, that the sources have not moved on
// since (web's TestClientIsUpToDate), and .ci/run rebuilds it and
// compares the bytes (the build is reproducible for one Go release).
//
//	go run ./web/internal/clientbuild -o web/static          # build
//	go run ./web/internal/clientbuild -o DIR -raw            # and keep client.wasm
//	go run ./web/internal/clientbuild -check web/static      # sources unchanged?
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// buildFlags are the client's build flags: no paths of the machine that
// built it (-trimpath), no VCS stamp (it would change the bytes with
// every commit), no symbol table or DWARF (-s -w: a third smaller).
var buildFlags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

const (
	wasmGz   = "client.wasm.gz"
	wasmExec = "wasm_exec.js"
	manifest = "client.sources"
	wasmPkg  = "aeroplane/web/wasm"
)

func main() {
	out := flag.String("o", "", "build the client into `DIR`")
	raw := flag.Bool("raw", false, "with -o, keep the uncompressed client.wasm too")
	check := flag.String("check", "", "check that `DIR`'s client was built from the sources as they are")
	flag.Parse()
	var err error
	switch {
	case *out != "" && *check == "":
		err = build(*out, *raw)
	case *check != "" && *out == "":
		err = checkDir(*check)
	default:
		err = errors.New("want -o DIR or -check DIR")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "clientbuild:", err)
		os.Exit(1)
	}
}

func goCmd() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); exists(p) {
			return p
		}
	}
	return "go"
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func wasmEnv() []string { return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0") }

func build(dir string, keepRaw bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "clientbuild-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, "client.wasm")
	args := append(append([]string{"build"}, buildFlags...), "-o", wasm, wasmPkg)
	cmd := exec.Command(goCmd(), args...)
	cmd.Env = wasmEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the wasm client: %w\n%s", err, out)
	}
	data, err := os.ReadFile(wasm)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // a valid level: no error
	// The header stays empty (no name, no time): the bytes are the wasm's alone.
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, wasmGz), gz.Bytes(), 0o644); err != nil {
		return err
	}
	if keepRaw {
		if err := os.WriteFile(filepath.Join(dir, "client.wasm"), data, 0o644); err != nil {
			return err
		}
	}
	root, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	js, err := os.ReadFile(filepath.Join(root, "lib", "wasm", wasmExec))
	if err != nil {
		return fmt.Errorf("the toolchain's %s: %w", wasmExec, err)
	}
	if err := os.WriteFile(filepath.Join(dir, wasmExec), js, 0o644); err != nil {
		return err
	}
	m, err := describe()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, manifest), []byte(m.String()), 0o644)
}

func goEnv(name string) (string, error) {
	out, err := exec.Command(goCmd(), "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// sources is what a client is built from: the Go release, the flags,
// and a digest of every file of the module's packages it compiles and
// of every other module's path and version.
type sources struct {
	Go, Flags, Digest string
}

func (s sources) String() string {
	return fmt.Sprintf("# web/static's client was built from these by web/internal/clientbuild (go generate ./web)\ngo %s\nflags %s\nsources %s\n", s.Go, s.Flags, s.Digest)
}

func parseSources(data []byte) (sources, error) {
	var s sources
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		switch k {
		case "go":
			s.Go = v
		case "flags":
			s.Flags = v
		case "sources":
			s.Digest = v
		}
	}
	if s.Go == "" || s.Digest == "" {
		return s, fmt.Errorf("%s: no go or sources line", manifest)
	}
	return s, nil
}

type listed struct {
	ImportPath, Dir string
	Standard        bool
	GoFiles         []string
	EmbedFiles      []string
	Module          *struct {
		Path, Version string
		Main          bool
	}
}

func describe() (sources, error) {
	ver, err := goEnv("GOVERSION")
	if err != nil {
		return sources{}, err
	}
	cmd := exec.Command(goCmd(), "list", "-deps", "-json=ImportPath,Dir,Standard,GoFiles,EmbedFiles,Module", wasmPkg)
	cmd.Env = wasmEnv()
	out, err := cmd.Output()
	if err != nil {
		return sources{}, fmt.Errorf("go list: %w", err)
	}
	var lines []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return sources{}, fmt.Errorf("go list: %w", err)
		}
		switch {
		case p.Standard:
			continue // the Go release names it
		case p.Module != nil && !p.Module.Main:
			lines = append(lines, p.ImportPath+" "+p.Module.Path+"@"+p.Module.Version)
			continue
		}
		for _, f := range append(append([]string{}, p.GoFiles...), p.EmbedFiles...) {
			data, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return sources{}, err
			}
			sum := sha256.Sum256(data)
			lines = append(lines, p.ImportPath+"/"+f+" "+hex.EncodeToString(sum[:]))
		}
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return sources{Go: ver, Flags: strings.Join(buildFlags, " "), Digest: hex.EncodeToString(sum[:])}, nil
}

func checkDir(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, manifest))
	if err != nil {
		return fmt.Errorf("%w: build the client with go generate ./web", err)
	}
	built, err := parseSources(data)
	if err != nil {
		return err
	}
	now, err := describe()
	if err != nil {
		return err
	}
	if built.Digest != now.Digest || built.Flags != now.Flags {
		return fmt.Errorf("%s's client was built from other sources than these (the engine, lockstep or web/client changed since): run go generate ./web and commit web/static", dir)
	}
	return nil
}
