package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/brokendemo"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// The broken demos of internal/brokendemo: m_flSpeed sent as a raw float
// but declared a 13-bit quantized float, so the message at tick 0 reads
// past its end.
const wrongName = "wrong-decoder.dem"

// selField is the selected field of the loaded message, or nil.
func selField(hs *harness) *provenance.Field {
	fs := hs.m.curFields()
	if hs.m.sel.Field < 0 || hs.m.sel.Field >= len(fs) {
		return nil
	}
	return &fs[hs.m.sel.Field]
}

// pick moves the open decoder picker to the item labelled label.
func pick(t *testing.T, hs *harness, label string) {
	t.Helper()
	p := hs.m.picker
	if p == nil {
		t.Fatal("no picker open")
	}
	for range len(p.items) + 1 {
		if p.items[p.cursor].Label == label {
			return
		}
		hs.keys("j")
	}
	var have []string
	for _, it := range p.items {
		have = append(have, it.Label)
	}
	t.Fatalf("picker has no %q: %q", label, have)
}

// toSpeed opens the broken demo's misaligned message and selects m_flSpeed.
func toSpeed(t *testing.T, hs *harness) {
	t.Helper()
	hs.keys("n", "tab", "j", "j")
	if f := selField(hs); f == nil || f.Name != brokendemo.Speed {
		t.Fatalf("selected %+v, want %s", f, brokendemo.Speed)
	}
}

// lineWith finds the first screen line holding s outside a pane title.
func lineWith(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) && !strings.Contains(l, "─ ") && !strings.Contains(l, "━ ") {
			return l
		}
	}
	return ""
}

// markedField reports whether the fields pane marks the field name with
// mark ('!' or '?'), with or without its path column.
func markedField(screen, name, mark string) bool {
	return regexp.MustCompile(regexp.QuoteMeta(mark) + `(\[[0-9 ]+\]\s+)?` + regexp.QuoteMeta(name)).MatchString(screen)
}

// The misaligned message's anomalous fields are marked in the fields pane
// and the timeline; a selects the first suspect and the inspector explains
// its anomalies and the message's problem.
func TestScreenAnomalies(t *testing.T) {
	screenTestOn(t, wrongName, brokendemo.WrongDecoder(), func(hs *harness) {
		hs.keys("n", "tab", "a")
	}, func(t *testing.T, hs *harness, s string) {
		// The suspect dembug check names on this file: the read whose
		// other decoder makes the message align (m_flMana is only the
		// first field with a strong anomaly, after the shift).
		f := selField(hs)
		if f == nil || f.Name != brokendemo.Speed {
			t.Fatalf("a selected %+v, want %s (check's suspect)", f, brokendemo.Speed)
		}
		for _, name := range []string{"m_flMana", "m_szName"} {
			if !markedField(s, name, "!") {
				t.Errorf("%s not marked '!' in the fields pane:\n%s", name, s)
			}
		}
		if markedField(s, "m_iHealth", "!") || markedField(s, "m_iHealth", "?") {
			t.Errorf("m_iHealth marked:\n%s", s)
		}
		if hs.m.layout().visible[paneTimeline] && !strings.Contains(s, "!✗") {
			t.Error("the misaligned message is not marked in the timeline")
		}
		text := inspectorText(hs)
		for _, want := range []string{"Message misaligned", "read past the end", "suspect", "the message aligns when this read changes", "raw 32-bit float"} {
			if !strings.Contains(text, want) {
				t.Errorf("inspector lacks %q:\n%s", want, text)
			}
		}
	})
}

func TestScreenDecoderPicker(t *testing.T) {
	screenTestOn(t, wrongName, brokendemo.WrongDecoder(), func(hs *harness) {
		toSpeed(t, hs)
		hs.keys("d")
	}, func(t *testing.T, hs *harness, s string) {
		p := hs.m.picker
		if p == nil {
			t.Fatal("d opened no picker")
		}
		// It starts on the decoder in use, the first entry.
		if !p.items[p.cursor].Current || p.cursor != 1 {
			t.Errorf("the picker starts on %q (#%d)", p.items[p.cursor].Label, p.cursor)
		}
		var labels []string
		for _, it := range p.items {
			labels = append(labels, it.Label)
		}
		all := strings.Join(labels, "\n")
		for _, want := range []string{"raw 32-bit float", "unsigned varint", "quantized float: 12 bits, 0 … 255.9375", "insert a 0 bit before the value", "drop the value's first bit", "search for the fix"} {
			if !strings.Contains(all, want) {
				t.Errorf("picker lacks %q", want)
			}
		}
		// The message is misaligned: each choice was tried on this read,
		// and the one that aligns says so.
		aligned := 0
		for _, it := range p.items {
			if strings.HasPrefix(it.Detail, "✓ aligns") {
				aligned++
			}
			if it.Label == "raw 32-bit float" && it.Detail != "✓ aligns · 32 bits → 69.1875" {
				t.Errorf("raw float preview %q", it.Detail)
			}
		}
		if aligned == 0 || aligned > 3 || !strings.Contains(hs.m.note, "make the message align (✓)") {
			t.Errorf("%d choices marked as aligning; note %q", aligned, hs.m.note)
		}
		if !strings.Contains(s, "Decode m_flSpeed differently") {
			t.Error("picker not on screen")
		}
	})
}

// d on m_flSpeed, raw 32-bit float: the message aligns with the values
// that were written, shown as a diff against the original decode.
func TestScreenWhatIf(t *testing.T) {
	screenTestOn(t, wrongName, brokendemo.WrongDecoder(), func(hs *harness) {
		toSpeed(t, hs)
		hs.keys("d")
		pick(t, hs, "raw 32-bit float")
		hs.keys("enter")
	}, func(t *testing.T, hs *harness, s string) {
		wi := hs.m.wiHere()
		if wi == nil {
			t.Fatalf("no what-if: %s", hs.m.note)
		}
		if !wi.Aligns() || wi.Rep.Count != 0 || wi.OrigRep.Count == 0 {
			t.Fatalf("aligns %v, anomalies %d (were %d)", wi.Aligns(), wi.Rep.Count, wi.OrigRep.Count)
		}
		if wi.Change.Decoder == nil || wi.Change.Decoder.Family != decoder.FamNoScale || wi.Matched != 1 {
			t.Fatalf("what-if %+v applied to %d fields", wi.Change, wi.Matched)
		}
		got := map[string]string{}
		for _, f := range wi.Rec.Fields {
			got[f.Name] = f.Value.String()
		}
		if got[brokendemo.Speed] != "69.1875" || got["m_szName"] != `"axe"` {
			t.Fatalf("what-if values %v", got)
		}
		speed := regexp.MustCompile(`>\*(\[2\]\s+)?m_flSpeed.*`).FindString(s)
		if !strings.Contains(speed, " 0 ") || !strings.Contains(speed, "69.1875") {
			t.Errorf("m_flSpeed row is not a changed diff row of 0 and 69.1875: %q", speed)
		}
		if name := lineWith(s, "m_szName"); !strings.Contains(name, `"axe"`) || !strings.Contains(name, `!"\x88`) {
			t.Errorf("m_szName row lacks the original (marked) and what-if values: %q", name)
		}
		if !strings.Contains(s, "the message aligns") {
			t.Error("screen does not say the message aligns")
		}
		if !strings.Contains(inspectorText(hs), "0 strong, 0 weak in the what-if; the original had 3 strong, 0 weak") {
			t.Error("inspector does not count the anomalies left")
		}
	})
}

func TestWhatIfToggleAndLeave(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 160, 48)
	toSpeed(t, hs)
	hs.keys("d")
	pick(t, hs, "raw 32-bit float")
	hs.keys("enter")
	if hs.m.wiHere() == nil {
		t.Fatal("no what-if")
	}
	s := hs.screen()
	if !strings.Contains(s, "Bitstream · what-if decode") || !strings.Contains(s, "Inspector · what-if · m_flSpeed") {
		t.Fatal("panes do not show the what-if decode")
	}
	// The bitstream and inspector follow the what-if's 32-bit read.
	if !strings.Contains(s, "value 0x9.3 +4 bytes") || !strings.Contains(inspectorText(hs), "raw 32-bit float") {
		t.Errorf("what-if field not explained as a raw float:\n%s", s)
	}
	// The entity pane shows the state the what-if leaves: the speed and
	// every field after it read right again.
	entityRow := func(s, name, value string) bool {
		return regexp.MustCompile(`│[>* ]` + name + `\s+` + regexp.QuoteMeta(value) + `\s`).MatchString(s)
	}
	if !strings.Contains(s, "Entity · what-if, after") || !entityRow(s, "m_flSpeed", "69.1875") || !entityRow(s, "m_szName", `"axe"`) {
		t.Errorf("entity pane does not show the what-if state:\n%s", s)
	}
	hs.keys("x")
	s = hs.screen()
	if strings.Contains(s, "Entity · what-if") || !entityRow(s, "m_flSpeed", "0") {
		t.Errorf("x leaves the entity pane on the what-if state:\n%s", s)
	}
	if !hs.m.wi.showOrig || !strings.Contains(s, "Bitstream · entity data") || !strings.Contains(s, "Inspector · original · m_flSpeed") || !strings.Contains(s, "value 0x9.3 +1 byte 5 bits") {
		t.Fatalf("x does not show the original decode:\n%s", s)
	}
	if !strings.Contains(s, "[original]") {
		t.Error("the diff does not say the original is shown")
	}
	hs.keys("x")
	if hs.m.wi.showOrig {
		t.Fatal("x does not toggle back")
	}
	// Moving in the diff moves the original field too.
	hs.keys("j")
	if f := selField(hs); f == nil || f.Name != "m_iTeamNum" {
		t.Fatalf("j in the diff selected %+v", f)
	}
	hs.keys("esc")
	if hs.m.wi != nil || strings.Contains(hs.screen(), "What-if") {
		t.Fatal("esc did not leave the what-if")
	}
	// Selecting another message leaves it too.
	hs.keys("k", "d")
	pick(t, hs, "raw 32-bit float")
	hs.keys("enter")
	if hs.m.wiHere() == nil {
		t.Fatal("no what-if the second time")
	}
	hs.keys("n")
	if hs.m.wi != nil {
		t.Fatal("the what-if survived a move to another message")
	}
	if hs.m.fatal != "" {
		t.Fatal(hs.m.fatal)
	}
}

// s in the picker: every float32 field read as a raw float.
func TestWhatIfEveryFieldOfType(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 120, 40)
	toSpeed(t, hs)
	hs.keys("d", "s")
	if !strings.Contains(hs.screen(), "[x] every m_flSpeed read") {
		t.Fatal("s did not switch to every read of the field")
	}
	hs.keys("s")
	if !strings.Contains(hs.screen(), "[x] every float32 field") {
		t.Fatal("scope not switched on screen")
	}
	pick(t, hs, "raw 32-bit float")
	hs.keys("enter")
	wi := hs.m.wiHere()
	if wi == nil || wi.Change.Type != "float32" || wi.Change.Occurrence != -1 {
		t.Fatalf("what-if %+v", wi)
	}
	if wi.Matched != 2 || !wi.Aligns() {
		t.Fatalf("matched %d fields (want m_flSpeed and m_flMana), aligns %v", wi.Matched, wi.Aligns())
	}
}

// The picker's search runs diagnose's Locate and shows its fix.
func TestWhatIfSearch(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 160, 48)
	toSpeed(t, hs)
	hs.keys("d", "end", "enter")
	wi := hs.m.wiHere()
	if wi == nil {
		t.Fatalf("no what-if: %s", hs.m.note)
	}
	if !wi.Aligns() || wi.Change.Decoder == nil || wi.Change.Decoder.Family != decoder.FamNoScale || !strings.Contains(wi.Fix, "aligns the message") {
		t.Fatalf("search found %+v (%s)", wi.Change, wi.Fix)
	}
	if !strings.Contains(inspectorText(hs), "search: ") {
		t.Error("inspector does not say the what-if came from the search")
	}
}

// A bit edit on a dropped path bit: inserting the bit back aligns the
// message.
func TestWhatIfBitEdits(t *testing.T) {
	data, bit := brokendemo.DroppedPathBit()
	hs := newHarness(t, "dropped.dem", data, 160, 48)
	// Find the misaligned message and the field whose path op starts at
	// the dropped bit.
	hs.keys("a")
	d := hs.m.cur()
	if d == nil || !d.Report.Misaligned {
		t.Fatalf("a did not reach the misaligned message (%s)", hs.m.note)
	}
	u := hs.m.sel.Upd
	at := -1
	for i, f := range d.Rec.UpdateFields(u) {
		if f.Op.Start == bit {
			at = i
		}
	}
	if at < 0 {
		t.Skipf("no field's path op starts at the dropped bit %d", bit)
	}
	hs.m.sel.Field = at
	for _, label := range []string{"insert a 0 bit before the field-path op", "drop the value's first bit", "insert a 1 bit before the value"} {
		hs.keys("d")
		pick(t, hs, label)
		hs.keys("enter")
		wi := hs.m.wiHere()
		if wi == nil {
			t.Fatalf("%s: no what-if (%s)", label, hs.m.note)
		}
		if (wi.Change.Insert == 0 && wi.Change.Skip == 0) || wi.Change.Decoder != nil {
			t.Fatalf("%s ran %+v", label, wi.Change)
		}
		if label == "insert a 0 bit before the field-path op" && (!wi.Aligns() || wi.Change.Bit != bit) {
			t.Errorf("inserting the dropped bit back: aligns %v at %d (%s)", wi.Aligns(), wi.Change.Bit, wi.Rec.Err)
		}
		hs.keys("esc")
	}
	if hs.m.fatal != "" {
		t.Fatal(hs.m.fatal)
	}
}

// A what-if that finishes after the user left it is dropped.
func TestStaleWhatIfIsDropped(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 120, 40)
	toSpeed(t, hs)
	hs.keys("d")
	pick(t, hs, "raw 32-bit float")
	_, cmd := hs.m.Update(keyMsg("enter"))
	if cmd == nil || !hs.m.wiPending {
		t.Fatal("enter started no what-if")
	}
	msg := cmd()
	hs.keys("esc")
	hs.m.Update(msg)
	if hs.m.wi != nil {
		t.Fatal("a what-if left before it finished was shown")
	}
}

// a and A walk every anomaly stop of the file in order, each a field with
// a strong anomaly or a misaligned message's first suspect, as the loaded
// message's own diagnosis says.
func TestAnomalyKeysMoveToAnomalousFields(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 120, 40)
	stops := hs.m.ix.Anoms
	if len(stops) < 3 {
		t.Fatalf("%d anomaly stops", len(stops))
	}
	var seen []session.Ref
	for range len(stops) + 1 {
		before := hs.m.sel
		hs.keys("a")
		if hs.m.sel == before {
			break
		}
		seen = append(seen, hs.m.sel)
		d := hs.m.cur()
		if d == nil {
			t.Fatal("a did not load the message")
		}
		u := &d.Rec.Updates[hs.m.sel.Upd]
		i := u.FirstField + hs.m.sel.Field
		rep := hs.m.withSuspect(d.Cmd, d.Msg, d.Rec, &d.Report)
		suspect := rep.First != nil && rep.First.Field == i
		if severity(d.Report.Anomalies[i]) != views.SevStrong && !suspect {
			t.Fatalf("a selected %s, which has no strong anomaly and is no suspect", d.Rec.Fields[i].Name)
		}
	}
	if len(seen) != len(stops) || !strings.Contains(hs.m.note, "no strong anomaly after here") {
		t.Fatalf("a visited %d of %d stops; note %q", len(seen), len(stops), hs.m.note)
	}
	if seen[0] != stops[0].At {
		t.Fatalf("first stop %+v, want %+v", seen[0], stops[0].At)
	}
	for i := len(seen) - 2; i >= 0; i-- {
		hs.keys("A")
		if hs.m.sel != seen[i] {
			t.Fatalf("A went to %+v, want %+v", hs.m.sel, seen[i])
		}
	}
	hs.keys("A")
	if hs.m.sel != seen[0] || !strings.Contains(hs.m.note, "no strong anomaly before here") {
		t.Fatalf("A before the first stop: %+v %q", hs.m.sel, hs.m.note)
	}
}

// On the Dota 2 replay m_iItemID (itemid_t, 64-bit ids) is a 5-byte varint
// read into 32 bits: a weak varint-overflow, and no strong anomaly is left
// for a to stop at. Its message (the first full frame) also decodes
// instance baselines, which must not shift the what-if's field numbering:
// the override lands on this one read, and read as the plain unsigned
// varint it is, nothing changes.
func TestAnomalyKeyOnDota(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	// The seed's reading cuts item ids to 32 bits: the overflow to find.
	hs := newHarnessWith(t, "dota", data, 160, 48, Options{NoColor: true, Aliases: schema.Aliases{Seed: true}})
	hs.keys("a")
	if f := selField(hs); f != nil {
		t.Fatalf("a stopped at %s, but the replay has no strong anomaly", f.Name)
	}
	// a passes weak anomalies by: the note says there are some and where.
	if !strings.Contains(hs.m.note, "no strong anomaly after here") || !strings.Contains(hs.m.note, " weak: L lists them") {
		t.Fatalf("note after a on a file with only weak anomalies: %q", hs.m.note)
	}
	// The search stops at each update writing m_iItemID; on to one whose
	// id needs more than 32 bits.
	hs.keys("/")
	hs.typ("m_iItemID")
	hs.keys("enter")
	for i := 0; i < 60 && !strings.Contains(hs.screen(), "varint holding more than 32 bits"); i++ {
		hs.keys("/", "enter")
	}
	f := selField(hs)
	if f == nil || f.Name != "m_iItemID" {
		t.Fatalf("selected %+v (%s)", f, hs.m.note)
	}
	if s := hs.screen(); !markedField(s, "m_iItemID", "!") || !strings.Contains(s, "varint holding more than 32 bits") { // (! for itemid_t's values verdict)
		t.Fatalf("overflow not shown:\n%s", s)
	}
	hs.keys("d")
	pick(t, hs, "unsigned varint")
	hs.keys("enter")
	wi := hs.m.wiHere()
	if wi == nil {
		t.Fatalf("no what-if: %s", hs.m.note)
	}
	if wi.Change.Field != nil || wi.Matched != 1 {
		t.Fatalf("what-if %+v (note %q) applied to %d fields", wi.Change, wi.Note, wi.Matched)
	}
	if !wi.Aligns() || len(wi.Rec.Updates) != len(wi.Orig.Updates) {
		t.Fatalf("the same reading misaligned the message: %s", wi.Rec.Err)
	}
	for _, r := range wi.diffRows(hs.m.sel.Upd, wi.Pairs(hs.m.sel.Upd)) {
		if r.Changed {
			t.Fatalf("%s changed", r.Name)
		}
	}
}

// The picker lists sensible choices on every kind of field of a real
// replay, and picking the decoder in use changes nothing.
func TestPickerOnRealFields(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	hs.keys("n", "n")
	d := hs.m.cur()
	families := map[decoder.Family]bool{}
	for u := range d.Rec.Updates {
		for fi, f := range d.Rec.UpdateFields(u) {
			if families[f.Decoder.Family] {
				continue
			}
			families[f.Decoder.Family] = true
			p := newPicker(d, u, fi)
			n := 0
			for _, it := range p.items {
				if !it.Header {
					n++
				}
				if it.Current && it.dec == nil {
					t.Errorf("%s: current item is no decoder", f.Name)
				}
			}
			if n < len(diagnose.Candidates)-1+5 || p.items[p.cursor].Header {
				t.Errorf("%s (%s): %d choices, cursor on %q", f.Name, f.Decoder.Family, n, p.items[p.cursor].Label)
			}
		}
	}
	if len(families) < 8 {
		t.Fatalf("only %d decoder families in the first message", len(families))
	}
	// The decoder in use: the what-if equals the original.
	hs.keys("tab", "j", "d", "home")
	if !hs.m.picker.items[hs.m.picker.cursor].Current {
		t.Fatal("home is not the decoder in use")
	}
	hs.keys("enter")
	wi := hs.m.wiHere()
	if wi == nil || !wi.Aligns() || wi.Rep.Count != wi.OrigRep.Count {
		t.Fatalf("the same decoder changed the decode: %+v", wi)
	}
	for _, r := range wi.diffRows(hs.m.sel.Upd, wi.Pairs(hs.m.sel.Upd)) {
		if r.Changed {
			t.Fatalf("%s changed under its own decoder", r.Name)
		}
	}
}
