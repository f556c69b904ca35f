package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/writer"
)

// A signed type renamed breaks no bit, yet every value is wrong: check
// exits 1, says what the renamed type's values show, and offers the --as;
// --json carries it in "inferred" with basis "values" and in "rerun";
// schema --diff says the rename in one line.
func TestCheckReportsASilentRename(t *testing.T) {
	patched, orig := patchedFile(t, writer.Rename{From: "int32", To: "NetworkedInt32"})
	out, errw, err := runDembug("check", patched)
	if code := exitCode(err); code != 1 {
		t.Fatalf("check of a silently patched file: exit %d (%v), want 1\n%s", code, err, errw)
	}
	if !strings.Contains(out, patched+": values: type NetworkedInt32 reads like a signed varint read unsigned (") ||
		!strings.Contains(out, "--as NetworkedInt32=int32") || !strings.Contains(out, "rerun with: dembug check") {
		t.Fatalf("check output:\n%s", out)
	}
	js, _, err := runDembug("check", "--json", patched)
	if exitCode(err) != 1 {
		t.Fatal(err)
	}
	var res CheckResult
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	var found *Inferred
	for i, f := range res.Inferred {
		if f.Unknown == "NetworkedInt32" {
			found = &res.Inferred[i]
		}
		if f.Basis != "values" {
			t.Errorf("finding %+v: basis %q in an aligned file", f, f.Basis)
		}
	}
	if found == nil || found.As != "int32" || found.Values == 0 || found.Fields == 0 || found.Evidence == "" {
		t.Fatalf("inferred %+v", res.Inferred)
	}
	if !strings.Contains(strings.Join(res.Rerun, " "), "--as NetworkedInt32=int32") {
		t.Fatalf("rerun %v", res.Rerun)
	}
	// Read as inferred, the renamed type is no longer judged.
	out, _, err = runDembug("check", "--as", "NetworkedInt32=int32", patched)
	if err != nil || strings.Contains(out, "type NetworkedInt32") {
		t.Fatalf("check --as: %v\n%s", err, out)
	}
	if st, _, err := runDembug("stats", patched); err != nil || !strings.Contains(st, "  type NetworkedInt32 → int32 (--as NetworkedInt32=int32): ") {
		t.Fatalf("stats does not single the rename out of the unknown names: %v\n%s", err, st)
	}
	diff, _, _ := runDembug("schema", "--diff", orig, patched)
	lines := strings.Split(strings.TrimSpace(diff), "\n")
	if !strings.HasPrefix(lines[0], "type int32 → NetworkedInt32: ") || !strings.Contains(lines[0], "signed varint → default (unsigned varint): the same bits, other values") ||
		!strings.HasSuffix(lines[0], "rerun with --as NetworkedInt32=int32") || len(lines) > 8 {
		t.Fatalf("schema --diff:\n%s", diff)
	}
}

// A rename that breaks alignment is inferred from alignment, and says so.
func TestCheckAlignmentFindingsSayTheirBasis(t *testing.T) {
	patched, _ := patchedFile(t, writer.Rename{From: "GameTime_t", To: "PatchedGameTime_t"})
	js, _, _ := runDembug("check", "--json", patched)
	var res CheckResult
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	if res.Misaligned == 0 || len(res.Inferred) == 0 || res.Inferred[0].Unknown != "PatchedGameTime_t" || res.Inferred[0].Basis != "alignment" {
		t.Fatalf("misaligned %d, inferred %+v", res.Misaligned, res.Inferred)
	}
}

// exitCode is the exit status an error of runDembug stands for.
func exitCode(err error) int {
	var ee *ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	}
	return -1
}
