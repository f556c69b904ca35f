package parserfix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/interop/digest"
)

// Build builds the command pkg of the interop module (an import path)
// with module mod replaced by a copy of its source, as the module cache
// holds the release go.mod requires, with every fix line inserted into
// the table it names, right after the line that opens it, in folder dir
// (the copy, the go.mod and the binary). It returns the binary's path and
// the lines inserted.
//
// The build takes interop's go.mod and go.sum as they are, with one more
// replace (go build -modfile), and -trimpath so that a later run's copy,
// in another folder, finds the parser's packages in the build cache.
func Build(tb testing.TB, dir, mod, pkg string, fixes []parsers.Fix) (string, []string) {
	tb.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		tb.Skip("building a parser with fix lines needs Go on the PATH")
	}
	gomod := goOutput(tb, "", "env", "GOMOD")
	interop := filepath.Dir(gomod)
	var m struct{ Dir, Version string }
	if err := json.Unmarshal([]byte(goOutput(tb, interop, "list", "-m", "-json", mod)), &m); err != nil || m.Dir == "" {
		tb.Fatalf("go list -m %s: %v (no source folder)", mod, err)
	}
	src := filepath.Join(dir, "src")
	if err := copyTree(m.Dir, src); err != nil {
		tb.Fatal(err)
	}
	inserted, err := Insert(src, fixes)
	if err != nil {
		tb.Fatal(err)
	}

	// interop's go.mod, its relative replaces made absolute, and the copy.
	b, err := os.ReadFile(gomod)
	if err != nil {
		tb.Fatal(err)
	}
	rel := regexp.MustCompile(`(?m)^(replace \S+ => )(\.\.?/?\S*)\s*$`)
	text := rel.ReplaceAllStringFunc(string(b), func(line string) string {
		s := rel.FindStringSubmatch(line)
		return s[1] + filepath.Join(interop, s[2])
	})
	text += fmt.Sprintf("\nreplace %s => %s\n", mod, src)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(interop, "go.sum"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		tb.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-trimpath", "-modfile="+filepath.Join(dir, "go.mod"), "-o", bin, pkg)
	cmd.Dir = interop
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s with %s %s and the lines\n\t%s\n%v\n%s", pkg, mod, m.Version, strings.Join(inserted, "\n\t"), err, out)
	}
	return bin, inserted
}

// Insert puts each fix's entry into its table in the source tree at dir,
// right after the line that opens it (`var Symbol = map[...]...{`),
// each line once. It returns the lines inserted, as "file: symbol: entry".
func Insert(dir string, fixes []parsers.Fix) ([]string, error) {
	var done []string
	seen := map[parsers.Fix]bool{}
	for _, f := range fixes {
		if seen[f] {
			continue
		}
		seen[f] = true
		path := filepath.Join(dir, filepath.FromSlash(f.File))
		b, err := os.ReadFile(path)
		if err != nil {
			return done, err
		}
		open := regexp.MustCompile(`(?m)^\s*(?:var\s+)?` + regexp.QuoteMeta(f.Symbol) + `\s*=\s*map\[[^\n]*\{(\})?[ \t]*$`)
		loc := open.FindSubmatchIndex(b)
		if loc == nil {
			return done, fmt.Errorf("%s: no line opens the map %s", f.File, f.Symbol)
		}
		var out []byte
		if loc[2] >= 0 { // an empty literal, {} on one line
			out = append(out, b[:loc[2]]...)
			out = append(out, "\n\t"+f.Entry+"\n}"...)
			out = append(out, b[loc[3]:]...)
		} else {
			out = append(out, b[:loc[1]]...)
			out = append(out, "\n\t"+f.Entry...)
			out = append(out, b[loc[1]:]...)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			return done, err
		}
		done = append(done, fmt.Sprintf("%s: %s: %s", f.File, f.Symbol, f.Entry))
	}
	return done, nil
}

// copyTree copies the files under from to to, writable (the module cache
// is read-only).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

func goOutput(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if e, ok := err.(*exec.ExitError); ok {
			msg = string(e.Stderr)
		}
		tb.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return strings.TrimSpace(string(out))
}

// Read runs bin, a command that prints a digest (cmd/manta-digest,
// cmd/demoinfocs-digest or the test binary, Serve), on the file at path
// with more arguments, and returns the digest. A run that ends without
// its end line ends the stream with its error: the Go runtime's fatal
// errors (out of memory, where a misread length asks for gigabytes) are
// how a parser ends too, and no test binary outlives one in itself.
func Read(tb testing.TB, cmd *exec.Cmd) digest.Stream {
	tb.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	s, rerr := digest.Read(bytes.NewReader(out))
	if err == nil && rerr == nil {
		return s
	}
	if _, ok := err.(*exec.ExitError); !ok && err != nil {
		tb.Fatalf("%s: %v", cmd, err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	s.Err = fmt.Sprintf("exits (%v): %s", err, first)
	return s
}

// Digest runs the built command bin on the file at path.
func Digest(tb testing.TB, bin, path string, args ...string) digest.Stream {
	tb.Helper()
	return Read(tb, exec.Command(bin, append([]string{path}, args...)...))
}

const (
	serveFile   = "DEMBUG_PARSERFIX_FILE"
	serveFields = "DEMBUG_PARSERFIX_FIELDS"
)

// Serve makes the test binary its parser's digest command when Published
// runs it: it reads the file Published names with read, prints the
// digest and exits. Call it first in TestMain; otherwise it returns.
func Serve(read func(data []byte, fields ...string) digest.Stream) {
	path := os.Getenv(serveFile)
	if path == "" {
		return
	}
	digest.LimitMemory()
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var fields []string
	if f := os.Getenv(serveFields); f != "" {
		fields = strings.Split(f, ",")
	}
	if err := read(data, fields...).Write(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}

// Published is the parser's digest of the file at path as published: the
// test binary, which links it, run again as the command (Serve).
func Published(tb testing.TB, path string, fields ...string) digest.Stream {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveFile+"="+path, serveFields+"="+strings.Join(fields, ","))
	return Read(tb, cmd)
}
