package testreplays

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// LongEnvVar names a full-length replay (../shared/tools/long-replay/
// make.sh writes one); without it, Long builds one.
const LongEnvVar = "DEMBUG_LONG"

var longBuilt sync.Map // size in MB -> path, built once per test binary

// Long returns the path of a full-length Dota 2 replay of about mb
// megabytes: DEMBUG_LONG when set, else one make.sh builds beside the
// shared replays' tools (a few seconds) into the temp folder, where later
// test binaries find it again. It skips the test only where the shared
// folder or Go is missing.
func Long(tb testing.TB, mb int) string {
	tb.Helper()
	if p := os.Getenv(LongEnvVar); p != "" {
		return p
	}
	if p, ok := longBuilt.Load(mb); ok {
		return p.(string)
	}
	dir := Require(tb)
	script := filepath.Join(dir, "..", "tools", "long-replay", "make.sh")
	if _, err := os.Stat(script); err != nil {
		tb.Skipf("no %s to build a full-length replay with; set %s", script, LongEnvVar)
	}
	if _, err := exec.LookPath("go"); err != nil {
		tb.Skipf("building a full-length replay needs Go on the PATH; set %s instead", LongEnvVar)
	}
	out := filepath.Join(os.TempDir(), "dembug-long", "long"+strconv.Itoa(mb)+".dem")
	if st, err := os.Stat(out); err == nil && st.Size() > int64(mb)*900_000 {
		longBuilt.Store(mb, out)
		return out
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		tb.Fatal(err)
	}
	// Written beside and renamed: test binaries of other packages may
	// build it at the same time.
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	cmd := exec.Command("bash", script, tmp, strconv.Itoa(mb))
	cmd.Env = append(os.Environ(), EnvVar+"="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		tb.Fatalf("%s: %v\n%s", script, err, b)
	}
	if err := os.Rename(tmp, out); err != nil {
		tb.Fatal(err)
	}
	longBuilt.Store(mb, out)
	return out
}
