package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// An --as name the file lacks is an error naming what the file has near
// it; check, which may be given files of many builds, warns per file.
func TestAsNameTheFileLacks(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	_, _, err := runDembug("trace", path, "--tick", "100", "--as", "CHandl=int32")
	if err == nil || !strings.Contains(err.Error(), "no field of this file has the type CHandl") || !strings.Contains(err.Error(), "did you mean CHandle?") {
		t.Fatalf("trace --as CHandl=int32: %v", err)
	}
	if _, _, err := runDembug("entities", path, "--tick", "100", "--as", "NoSuchType_t=int32"); err == nil || !strings.Contains(err.Error(), "without a decoder rule: ") {
		t.Fatalf("entities --as NoSuchType_t=int32: %v", err)
	}
	for _, cmd := range []string{"strings", "stats"} {
		if _, _, err := runDembug(cmd, path, "--as", "NoSuchType_t=int32"); err == nil || !strings.Contains(err.Error(), "no field of this file has the type NoSuchType_t") {
			t.Fatalf("%s --as NoSuchType_t=int32: %v", cmd, err)
		}
	}
	out, stderr, _ := runDembug("check", path, "--as", "NoSuchType_t=int32")
	if !strings.Contains(out, "0 misaligned") || !strings.Contains(stderr, "warning: --as NoSuchType_t=int32: no field") {
		t.Fatalf("check --as NoSuchType_t=int32: stdout %q stderr %q", out, stderr)
	}
	// A name the file has is accepted quietly.
	if _, stderr, err := runDembug("trace", path, "--tick", "100", "--as", "CEntityIndex=int32"); err != nil || stderr != "" {
		t.Fatalf("trace --as CEntityIndex=int32: %v %q", err, stderr)
	}
}

// --mute takes a rule or a field; anything else is an error listing the
// rules.
func TestMuteUnknownIsAnError(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	_, _, err := runDembug("check", path, "--anomalies", "--mute", "bogus")
	if err == nil || !strings.Contains(err.Error(), `--mute "bogus"`) || !strings.Contains(err.Error(), "varint-overflow") || !strings.Contains(err.Error(), "dangling-handle") {
		t.Fatalf("--mute bogus: %v", err)
	}
	out, _, _ := runDembug("check", path, "--anomalies", "--mute", "m_hGoalEntity", "--mute", "varint-overflow")
	if !strings.Contains(out, "muted") {
		t.Fatalf("--mute of a field and a rule: %q", out)
	}
}

// schema --diff --json prints JSON lines, the last a summary; two files
// of one build say so.
func TestSchemaDiffJSONAndSameBuild(t *testing.T) {
	dir := testreplays.Require(t)
	a, b := filepath.Join(dir, "cs2/14011.dem"), filepath.Join(dir, "cs2/14065.dem")
	out, _, _ := runDembug("schema", "--diff", a, b, "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum SchemaDiffSummary
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d is not JSON: %q", i, l)
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || !sum.Summary || sum.Changes != len(lines)-1 || sum.SameBuild || sum.OldBuild == sum.NewBuild {
		t.Fatalf("summary %+v (%v), %d lines", sum, err, len(lines))
	}
	out, _, _ = runDembug("schema", "--diff", a, a)
	if !strings.Contains(out, "both files are build") {
		t.Fatalf("diff of one build: %q", out)
	}
}

// check --since counts the fields carrying each new name, and its text
// output has the since-section.
func TestCheckSinceCountsFields(t *testing.T) {
	dir := testreplays.Require(t)
	a, b := filepath.Join(dir, "cs2/14011.dem"), filepath.Join(dir, "cs2/14065.dem")
	out, _, _ := runDembug("check", "--json", "--since", a, b)
	var res CheckResult
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.NewSince) == 0 {
		t.Fatal("no new_since names")
	}
	for _, n := range res.NewSince {
		if n.Fields == 0 {
			t.Errorf("%s %s: 0 fields", n.Kind, n.Name)
		}
	}
	text, _, _ := runDembug("check", "--since", a, b)
	plain, _, _ := runDembug("check", b)
	if !strings.Contains(text, "since "+a+", new and without a decoder rule: type "+res.NewSince[0].Name) || text == plain {
		t.Fatalf("check --since text: %q", text)
	}
}

// A file that is no demo gets its error, not a summary of zeros; a
// negative --entity is an error, not every entity.
func TestCheckNoDemoAndNegativeEntity(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.txt")
	if err := os.WriteFile(p, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ := runDembug("check", p)
	if out != "" || !strings.Contains(stderr, "header") {
		t.Fatalf("check t.txt: stdout %q stderr %q", out, stderr)
	}
	path, _ := testreplays.Read(t, "dota2")
	if out, _, err := runDembug("trace", path, "--tick", "100", "--entity", "-4"); err == nil || out != "" || !strings.Contains(err.Error(), "--entity -4") {
		t.Fatalf("trace --entity -4: %v, %d bytes", err, len(out))
	}
}

// schema --help says what --diff exits with and what --diff --json prints.
func TestSchemaDiffHelpSaysExitAndJSON(t *testing.T) {
	out, _, err := runDembug("schema", "--help")
	help := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"exits 0 when the schemas are the same, 1 when they differ",
		`one object per change, {"kind", "serializer", "field", "details"}`, `summary object, {"summary": true,`} {
		if err != nil || !strings.Contains(help, want) {
			t.Errorf("schema --help lacks %q (%v):\n%s", want, err, out)
		}
	}
}
