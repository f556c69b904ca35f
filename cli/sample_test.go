package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/sample"
)

func TestSampleCommandWritesTheSample(t *testing.T) {
	SetSample(sample.Replay)
	path := filepath.Join(t.TempDir(), "s.dem")
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs([]string{"sample", "-o", path})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(data, sample.Replay) {
		t.Fatalf("written file differs from the sample (%v)", err)
	}
	res, _ := Check(path, data)
	if res.Error != "" || res.Misaligned != 0 || res.EntityUpdates == 0 {
		t.Fatalf("sample does not check clean: %+v", res)
	}
}
