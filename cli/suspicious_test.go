package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/brokendemo"
)

func TestCheckNamesFirstSuspiciousField(t *testing.T) {
	data, _ := brokendemo.DroppedPathBit()
	cases := map[string][]byte{"wrong-decoder.dem": brokendemo.WrongDecoder(), "dropped-bit.dem": data}
	want := map[string][]string{"wrong-decoder.dem": {brokendemo.Speed, "m_iTeamNum"}, "dropped-bit.dem": {brokendemo.Mana, "m_nLevel"}}
	dir := t.TempDir()
	for name, data := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errw bytes.Buffer
		cmd := Root(&out, &errw)
		cmd.SetArgs([]string{"check", "--json", path})
		err := cmd.Execute()
		if ee, ok := err.(*ExitError); !ok || ee.Code != 1 {
			t.Fatalf("%s: want exit 1, got %v", name, err)
		}
		var res CheckResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%s: %v: %s", name, err, out.String())
		}
		s := res.FirstSuspicious
		if s == nil || res.Misaligned == 0 {
			t.Fatalf("%s: no first_suspicious in %s", name, out.String())
		}
		if !strings.HasPrefix(s.At, "0x") || s.Family == "" || strings.Contains(s.Family, " ") {
			t.Errorf("%s: first_suspicious at %q, family %q", name, s.At, s.Family)
		}
		if s.Field != want[name][0] && s.Field != want[name][1] {
			t.Errorf("%s: first suspicious field %q, want %v", name, s.Field, want[name])
		}
		if s.Decoder == "" || s.Reason == "" || s.Class != "CTestUnit" {
			t.Errorf("%s: incomplete first_suspicious %+v", name, s)
		}
		if !strings.Contains(errw.String(), "first suspicious") {
			t.Errorf("%s: stderr does not name the suspect: %s", name, errw.String())
		}
	}
}
