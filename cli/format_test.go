package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// checkJSON runs check --json on data written to a temporary file.
func checkJSON(t *testing.T, name string, data []byte, extra ...string) (CheckResult, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errw, _ := runDembug(append([]string{"check", "--json", path}, extra...)...)
	var res CheckResult
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &res); err != nil {
		t.Fatalf("not JSON: %v: %s %s", err, out, errw)
	}
	return res, path
}

// No shared replay carries anything dembug does not know.
func TestSharedReplaysHaveNoUnknownFormat(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		res, _ := checkJSON(t, filepath.Base(path), data)
		if res.UnknownFormat == nil || len(res.UnknownFormat) != 0 {
			t.Errorf("%s: unknown_format %+v, want []", path, res.UnknownFormat)
		}
		if res.GameFrom != "file header" {
			t.Errorf("%s: game from %q", path, res.GameFrom)
		}
	})
}

// A field, a demo command and an inner message no definition names are
// each reported once with their count and first place, on a replay of
// every game, and decoding goes on with nothing misaligned.
func TestUnknownFormatNamedOnEveryGame(t *testing.T) {
	for _, g := range testreplays.Games {
		t.Run(g, func(t *testing.T) {
			_, data := testreplays.Read(t, g)
			base, _ := checkJSON(t, "base.dem", data)

			edited, n, err := writer.AddField(data, messages.SvcPacketEntities, 99, 1)
			if err != nil || n == 0 {
				t.Fatalf("add field: %d messages, %v", n, err)
			}
			edited, err = writer.InsertCommand(edited, 3, container.Kind(25), []byte{0x08, 0x01})
			if err != nil {
				t.Fatal(err)
			}
			edited, err = writer.InsertInner(edited, 4, writer.Inner{Type: 2999, Body: []byte{0x08, 0x07}})
			if err != nil {
				t.Fatal(err)
			}
			res, path := checkJSON(t, "edited.dem", edited)
			if res.Misaligned != 0 || res.Error != "" || res.LastTick != base.LastTick || res.EntityUpdates != base.EntityUpdates {
				t.Fatalf("decode changed: misaligned %d, error %q, last tick %d (was %d), updates %d (was %d)",
					res.Misaligned, res.Error, res.LastTick, base.LastTick, res.EntityUpdates, base.EntityUpdates)
			}
			got := map[string]UnknownFormat{}
			for _, u := range res.UnknownFormat {
				got[u.Kind] = u
			}
			if len(res.UnknownFormat) != 3 {
				t.Fatalf("unknown_format %+v, want 3 items", res.UnknownFormat)
			}
			if f := got["field"]; f.In != "svc_PacketEntities" || f.ID != 99 || f.Wire != "varint" || f.Value != "1" || int64(f.Count) != res.PacketEntities {
				t.Errorf("field %+v, want #99 in all %d svc_PacketEntities", f, res.PacketEntities)
			}
			if c := got["command"]; c.ID != 25 || c.Count != 1 || c.First.Command != 3 {
				t.Errorf("command %+v, want 25 once at command #3", c)
			}
			if m := got["message"]; m.ID != 2999 || m.Count != 1 || m.First.Message != 0 {
				t.Errorf("message %+v, want 2999 once, first in its packet", m)
			}
			// The text report: one line per item, with its first place.
			out, _, err := runDembug("check", path)
			if err != nil {
				t.Fatalf("check exited %v", err)
			}
			for _, want := range []string{
				"format: svc_PacketEntities carries field #99 (varint, value 1) that dembug does not know — ",
				"format: demo command id 25 that dembug does not know — 1 command from ",
				"format: inner message type 2999 that dembug does not know — 1 message from ",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("check output lacks %q:\n%s", want, out)
				}
			}
			// --since names what the old file lacks: everything here.
			out, _, _ = runDembug("check", "--since", testreplays.Files(t, g)[0], path)
			if strings.Count(out, "format new since --since:") != 3 {
				t.Errorf("--since output:\n%s", out)
			}
		})
	}
}

// A stream without a file header takes its game from svc_ServerInfo and
// decodes as it does with one.
func TestHeaderlessStreamTakesGameFromServerInfo(t *testing.T) {
	for _, g := range testreplays.Games {
		t.Run(g, func(t *testing.T) {
			_, data := testreplays.Read(t, g)
			base, _ := checkJSON(t, "base.dem", data)
			stripped, err := writer.StripHeader(data)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := checkJSON(t, "headerless.dem", stripped)
			if res.Game != base.Game || res.GameFrom != "svc_ServerInfo" || res.Misaligned != 0 || res.EntityUpdates != base.EntityUpdates {
				t.Fatalf("headerless: game %s from %q, misaligned %d, updates %d; with the header: %s, %d updates",
					res.Game, res.GameFrom, res.Misaligned, res.EntityUpdates, base.Game, base.EntityUpdates)
			}
		})
	}
}

// The broadcast capture opens as a replay: Deadlock from svc_ServerInfo,
// last tick 15772 with nothing misaligned, 1,556 live entities at the
// end (as deadem reads it), and check says where it stops.
func TestBroadcastCapture(t *testing.T) {
	dir := filepath.Join(testreplays.Require(t), "deadlock", "broadcast-2025-02-27")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no capture: %v", err)
	}
	out, errw, err := runDembug("check", dir)
	if err != nil {
		t.Fatalf("check: %v\n%s%s", err, out, errw)
	}
	for _, want := range []string{": deadlock build unknown, ", "last tick 15772,", " 0 misaligned,",
		"game from svc_ServerInfo", "the capture stops at 40/delta.bin byte 474499"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "format:") {
		t.Errorf("the capture reports unknown format:\n%s", out)
	}
	out, _, err = runDembug("entities", dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\n"); n != 1556 {
		t.Errorf("%d live entities at the end, want 1556", n)
	}
	// Its start.bin names the capture too.
	out2, _, err := runDembug("entities", filepath.Join(dir, "0", "start.bin"))
	if err != nil || out2 != out {
		t.Errorf("entities of start.bin differ from the folder's (%v)", err)
	}
}

// A message that breaks in an update header is named with the assumption
// the bits contradict, and the alternative that aligns it: two PVS bits a
// message does not send, class ids wider than the classes need.
func TestHeaderAssumptions(t *testing.T) {
	for _, g := range testreplays.Games {
		t.Run(g, func(t *testing.T) {
			_, data := testreplays.Read(t, g)
			pvs, n, err := writer.AddField(data, messages.SvcPacketEntities, 16, 1)
			if err != nil || n == 0 {
				t.Fatal(n, err)
			}
			res, _ := checkJSON(t, "pvs.dem", pvs)
			h := res.HeaderAssumption
			if res.Misaligned == 0 || h == nil || len(h.Aligns) != 1 || !strings.HasPrefix(h.Aligns[0], "no PVS bits") {
				t.Fatalf("misaligned %d, header %+v", res.Misaligned, h)
			}
			wide, _, err := writer.AddField(data, messages.SvcServerInfo, 11, 5000) // max_classes: 13 bits
			if err != nil {
				t.Fatal(err)
			}
			res, _ = checkJSON(t, "wide.dem", wide)
			h = res.HeaderAssumption
			if h == nil || !strings.Contains(h.Broken, "class ids are 13 bits wide") || len(h.Aligns) != 1 || !strings.Contains(h.Aligns[0], "as the") {
				t.Fatalf("header %+v", h)
			}
		})
	}
}

// Under a game dembug cannot name (no header, a server game directory it
// does not know) check says so and why before any suspect, and the header
// check finds the deletion list the Deadlock stream does not have.
func TestUnknownGameIsSaid(t *testing.T) {
	_, data := testreplays.Read(t, "deadlock")
	stripped, err := writer.StripHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	odd, _, err := writer.RewriteInner(stripped, func(_ int, msgs []writer.Inner) ([]writer.Inner, bool) {
		ok := false
		for i := range msgs {
			if msgs[i].Type == messages.SvcServerInfo {
				b := protowire.AppendTag(msgs[i].Body, 14, protowire.BytesType)
				msgs[i].Body, ok = protowire.AppendString(b, "/srv/mystery"), true
			}
		}
		return msgs, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	res, path := checkJSON(t, "odd.dem", odd)
	if res.Game != "unknown" || !strings.Contains(res.GameUnknown, `"/srv/mystery"`) || res.Misaligned == 0 {
		t.Fatalf("game %s (%q), misaligned %d", res.Game, res.GameUnknown, res.Misaligned)
	}
	if h := res.HeaderAssumption; h == nil || len(h.Aligns) == 0 || h.Aligns[0] != "no deletion list after the updates" {
		t.Fatalf("header %+v", res.HeaderAssumption)
	}
	_, errw, _ := runDembug("check", path)
	game := strings.Index(errw, "game unknown: no file header")
	suspect := strings.Index(errw, "first suspicious")
	if game < 0 || (suspect >= 0 && suspect < game) {
		t.Fatalf("stderr does not say the game is unknown before the suspect:\n%s", errw)
	}
}
