package manta

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/writer"
)

// serverBuild is how a dedicated server's game directory names the build
// (…/dota_v5657/dota); Manta takes the build from it and nowhere else.
var serverBuild = regexp.MustCompile(`/dota_v\d+/`)

// withServerGameDir returns data with the build written into
// svc_ServerInfo's game directory as a server writes it, when the
// directory lacks it: a replay the client records (tv_autorecord) names the
// client's local install, and Manta refuses such a file, original or cut,
// at its first packet ("unable to determine game build from …"). The build
// is the file header's. Every other command is copied as it is.
func withServerGameDir(t testing.TB, data []byte) []byte {
	t.Helper()
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	out := writer.NewFile()
	build := int32(-1)
	changed := false
	for {
		c, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raw := data[c.BodyOffset:c.End()]
		switch c.Kind {
		case container.FileHeader:
			h, err := messages.ParseFileHeader(c.Body)
			if err != nil {
				t.Fatal(err)
			}
			build = h.BuildNum
		case container.SignonPacket, container.Packet:
			if body, ok := rewriteGameDir(t, c.Body, build); ok {
				out.Command(c.Kind, c.Tick, body, false)
				changed = true
				continue
			}
		}
		out.Raw(c.Kind, c.Tick, c.Compressed, raw)
	}
	if !changed {
		return data
	}
	return out.Bytes()
}

// rewriteGameDir rewrites a packet's svc_ServerInfo game directory to name
// the build, keeping every other message and field.
func rewriteGameDir(t testing.TB, body []byte, build int32) ([]byte, bool) {
	pd, err := messages.PacketData(body)
	if err != nil {
		t.Fatal(err)
	}
	inner, _, err := messages.SplitInner(pd, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := false
	msgs := make([]writer.Inner, len(inner))
	for i, m := range inner {
		msgs[i] = writer.Inner{Type: m.Type, Body: m.Body}
		if m.Type != messages.SvcServerInfo {
			continue
		}
		si, err := messages.ParseServerInfo(m.Body)
		if err != nil {
			t.Fatal(err)
		}
		if serverBuild.MatchString(si.GameDir) {
			continue
		}
		if build <= 0 {
			t.Fatalf("game directory %q names no build, and neither does the file header", si.GameDir)
		}
		dir := fmt.Sprintf("%s/dota_v%d/%s", path.Dir(si.GameDir), build, path.Base(si.GameDir))
		msgs[i].Body = setBytes(m.Body, 14, []byte(dir)) // CSVCMsg_ServerInfo.game_dir
		changed = true
	}
	if !changed {
		return nil, false
	}
	return setBytes(body, 3, writer.Packet(msgs...)), true // CDemoPacket.data
}

// setBytes is msg with its bytes field num set to v in place of the old.
func setBytes(msg []byte, num protowire.Number, v []byte) []byte {
	var out []byte
	for b := msg; len(b) > 0; {
		n, _, l := protowire.ConsumeField(b)
		if l < 0 {
			panic("setBytes: a broken protobuf message")
		}
		if n == num {
			out = protowire.AppendTag(out, num, protowire.BytesType)
			out = protowire.AppendBytes(out, v)
		} else {
			out = append(out, b[:l]...)
		}
		b = b[l:]
	}
	return out
}
