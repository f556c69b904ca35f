package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// runDembug runs the command line and returns stdout, stderr and the error.
func runDembug(args ...string) (string, string, error) {
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), errw.String(), err
}

// patchedFile writes the Dota 2 replay with a type renamed, as a patch
// would leave it, and returns its path and the original's.
func patchedFile(t *testing.T, rn writer.Rename) (string, string) {
	orig, data := testreplays.Read(t, "dota2")
	patched, n, err := writer.RenameInSchema(data, rn)
	if err != nil || n == 0 {
		t.Fatalf("patch: %d symbols, %v", n, err)
	}
	path := filepath.Join(t.TempDir(), "patched.dem")
	if err := os.WriteFile(path, patched, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, orig
}

// The user's path after a patch: check names the breaking read and the
// --as to rerun with; entities under it equals the original's output.
func TestCheckInfersAPatchedType(t *testing.T) {
	path, orig := patchedFile(t, writer.Rename{From: "QAngle", To: "DecalAngle_t"})
	out, _, err := runDembug("check", "--json", path)
	if err == nil {
		t.Fatal("check of a misaligned file exited 0")
	}
	var res CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out)
	}
	if len(res.Inferred) == 0 || res.Inferred[0].Unknown != "DecalAngle_t" || res.Inferred[0].As != "QAngle" || res.Inferred[0].Kind != "type" {
		t.Fatalf("inferred %+v", res.Inferred)
	}
	if f := res.Inferred[0]; f.MessagesAligned != f.Messages || f.Messages == 0 || f.Fields == 0 {
		t.Fatalf("evidence %+v", f)
	}
	if s := res.FirstSuspicious; s == nil || s.In != "baseline" || !strings.Contains(s.Field, "m_angRotation") || !strings.Contains(s.Reason, "DecalAngle_t") {
		t.Fatalf("first suspicious %+v, want the first read of DecalAngle_t, inside a baseline", s)
	}
	if strings.Join(res.Rerun, " ") != "--as DecalAngle_t=QAngle" {
		t.Fatalf("rerun %v", res.Rerun)
	}
	found := false
	for _, u := range res.Unknown {
		found = found || u.Name == "DecalAngle_t" && u.Kind == "type"
	}
	if !found {
		t.Fatalf("unknown names lack DecalAngle_t: %+v", res.Unknown)
	}
	_, stderr, _ := runDembug("check", path)
	if !strings.Contains(stderr, "rerun with: dembug check --as DecalAngle_t=QAngle") {
		t.Errorf("text output lacks the rerun line:\n%s", stderr)
	}
	if _, stderr, err := runDembug("check", "--as", "DecalAngle_t=QAngle", path); err != nil {
		t.Fatalf("check --as: %v\n%s", err, stderr)
	}
	want, _, err := runDembug("entities", orig)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := runDembug("entities", "--as", "DecalAngle_t=QAngle", path)
	if err != nil || got != want {
		t.Fatalf("entities --as differs from the original's (err %v, %d vs %d bytes)", err, len(got), len(want))
	}
}

// --since: the names the older build lacks are reported and tried first.
func TestCheckSince(t *testing.T) {
	path, orig := patchedFile(t, writer.Rename{Encoder: true, From: "coord", To: "coord_v2"})
	out, stderr, _ := runDembug("check", "--json", "--since", orig, path)
	var res CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v: %s %s", err, out, stderr)
	}
	if len(res.NewSince) != 1 || res.NewSince[0].Name != "coord_v2" || res.NewSince[0].Kind != "encoder" {
		t.Fatalf("new since %+v", res.NewSince)
	}
	if len(res.Inferred) == 0 || res.Inferred[0].As != "coord" {
		t.Fatalf("inferred %+v", res.Inferred)
	}
}

func TestAsRejectsNamesItDoesNotKnow(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	for _, as := range []string{"X=nosuchtype", "X", "=int32"} {
		if _, _, err := runDembug("entities", "--as", as, path); err == nil {
			t.Errorf("--as %q accepted", as)
		}
	}
}

// --confirm decodes the rest of the file under what was inferred and says
// how many messages still misalign: none, for one renamed type.
func TestCheckConfirm(t *testing.T) {
	path, _ := patchedFile(t, writer.Rename{From: "float32", To: "Float32_v2"})
	out, stderr, _ := runDembug("check", "--json", "--confirm", path)
	var res CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v: %s %s", err, out, stderr)
	}
	if res.ConfirmedMisaligned == nil || *res.ConfirmedMisaligned != 0 || res.Misaligned == 0 {
		t.Fatalf("misaligned %d, confirmed %v (inferred %+v)", res.Misaligned, res.ConfirmedMisaligned, res.Inferred)
	}
}
