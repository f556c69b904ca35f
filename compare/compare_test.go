package compare

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

func TestSameValue(t *testing.T) {
	f32 := func(f float64) string { return strconv.FormatFloat(float64(float32(f)), 'g', -1, 32) }
	next := func(f float64) string {
		return strconv.FormatFloat(float64(math.Nextafter32(float32(f), float32(math.Inf(1)))), 'g', -1, 32)
	}
	cases := []struct {
		kind         decoder.Kind
		ours, theirs string
		same         bool
	}{
		{decoder.KindUint, "7", "7", true},
		{decoder.KindUint, "7", "8", false},
		{decoder.KindUint, "7", "7.0", true},
		{decoder.KindUint, "18446744073709551615", "18446744073709551614", false},
		{decoder.KindInt, "-3", "-3", true},
		{decoder.KindInt, "-3", "3", false},
		{decoder.KindBool, "true", "1", true},
		{decoder.KindBool, "false", "true", false},
		{decoder.KindFloat, "0.9062512516975403", f32(0.9062512516975403), true},
		{decoder.KindFloat, "0.9062512516975403", next(0.9062512516975403), true},
		{decoder.KindFloat, "0.9062512516975403", "0.9063", false},
		{decoder.KindFloat, "16777217", "16777216", true},
		{decoder.KindFloat, `"NaN"`, `"NaN"`, true},
		{decoder.KindFloat, `"NaN"`, "0", false},
		{decoder.KindFloat, `"+Inf"`, "3.4e38", false},
		{decoder.KindVector, "[1.1,2.2,3.3]", "[" + f32(1.1) + "," + f32(2.2) + "," + f32(3.3) + "]", true},
		{decoder.KindVector, "[1.1,2.2,3.3]", `{"x":1.1,"y":2.2,"z":3.3}`, true},
		{decoder.KindVector, "[1.1,2.2,3.3]", "[1.1,2.2]", false},
		{decoder.KindVector, "[1.1,2.2,3.3]", "[1.1,2.2,3.4]", false},
		{decoder.KindString, `"a\u0041"`, `"aA"`, true},
		{decoder.KindString, `"a"`, `"b"`, false},
	}
	for _, c := range cases {
		if got := SameValue(c.kind, json.RawMessage(c.ours), json.RawMessage(c.theirs)); got != c.same {
			t.Errorf("SameValue(%d, %s, %s) = %v", c.kind, c.ours, c.theirs, got)
		}
	}
}

func TestParseTraceErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"{\"tick\":1,\"entity\":2,\"name\":\"a\",\"value\":1}\nnope\n", "line 2: not a JSON object"},
		{"{\"tick\":1,\"entity\":2,\"name\":\"a\",\"value\":1}\n\n{\"tick\":1,\"name\":\"a\",\"value\":1}\n", `line 3: no ["entity"]`},
		{"{\"tick\":1,\"entity\":2,\"name\":\"a\"}\n", `line 1: no ["value"]`},
		{"{\"tick\":1,\"entity\":2,\"name\":\"a\",\"value\":1\n", "line 1: not JSON"},
		{"{\"tick\":\"x\",\"entity\":2,\"name\":\"a\",\"value\":1}\n", "line 1: not JSON"},
		{"{\"tick\":1,\"entity\":2,\"name\":\"a\",\"value\":1,\"bits\":-1}\n", "line 1: bits is negative"},
	}
	for _, c := range cases {
		_, err := ParseTrace(strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// The fast line reader and encoding/json read the same.
func TestParseTraceFastAndSlow(t *testing.T) {
	lines := []string{
		`{"tick":3,"command":5,"message":2,"entity":11,"class":"C","path":[1,2],"name":"m_a","type":"x","decoder":"d","bit_offset":14,"bits":16,"value":[1.5,-2e3,{"k":[true,null,"s\"q"]}],"in":"baseline"}`,
		`{"name":"m\u0041","tick":3,"entity":11,"value":"x\\y"}`,
		` { "tick" : 4 , "entity" : 1 , "name" : "n" , "value" : null , "path" : [ ] } `,
	}
	for _, l := range lines {
		fast, err := ParseTrace(strings.NewReader(l))
		if err != nil {
			t.Fatal(err)
		}
		var tl traceLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatal(err)
		}
		f := fast[0]
		if f.Tick != *tl.Tick || f.Entity != int32(*tl.Entity) || f.Name != *tl.Name || string(f.Value) != string(tl.Value) ||
			f.Class != tl.Class || f.Decoder != tl.Decoder || f.Baseline != (tl.In == "baseline") ||
			len(f.Path) != len(tl.Path) || (f.Path == nil) != (tl.Path == nil) {
			t.Errorf("%s:\nfast %+v\njson %+v", l, f, tl)
		}
	}
}

func read(tick int64, entity int32, name string, off, bits int64, value string) Read {
	return Read{Tick: tick, Entity: entity, Name: name, Offset: off, Bits: bits, Value: json.RawMessage(value),
		Kind: decoder.KindUint, Command: -1, Message: -1}
}

// A trace of some ticks and entities compares only those; every kind of
// difference is found where it is, in decode order.
func TestCompareHandMade(t *testing.T) {
	ours := []Read{
		read(1, 5, "a", 0, 8, "1"), read(1, 5, "b", 8, 8, "2"), read(1, 6, "a", 16, 8, "3"),
		read(2, 5, "a", 0, 8, "4"), read(2, 5, "b", 8, 8, "5"), read(2, 5, "c", 16, 8, "6"), read(2, 5, "d", 24, 8, "7"),
		read(3, 5, "a", 0, 8, "8"),
	}
	theirs := []Read{
		read(1, 5, "a", 0, 8, "1"), read(1, 5, "b", 8, 8, "2"), // entity 6 not in their trace
		read(2, 5, "b", 8, 8, "5"), read(2, 5, "a", 0, 8, "4"), read(2, 5, "c", 16, 9, "6"), read(2, 5, "x", 25, 1, "1"),
		// tick 3 not in their trace; tick 4 we never read
		read(4, 5, "a", 0, 8, "9"),
	}
	for i := range theirs {
		theirs[i].Line = i + 1
	}
	// Narrowed to entity 5 (compare --entities 5): entity 6 is left out.
	res := Compare(ours, theirs, Options{All: true, Entities: map[int32]bool{5: true}})
	var got []string
	for _, d := range res.All {
		got = append(got, strconv.Itoa(int(d.Tick))+" "+d.Field+" "+string(d.What))
	}
	want := "2 a order, 2 c bits, 2 x extra, 2 d missing, 4 a extra"
	if strings.Join(got, ", ") != want || res.First.What != Order || res.Compared != 5 || res.Equal != 3 ||
		res.Missing != 1 || res.Extra != 2 || res.Ticks != 3 {
		t.Fatalf("got %s (compared %d equal %d missing %d extra %d ticks %d)\nwant %s",
			strings.Join(got, ", "), res.Compared, res.Equal, res.Missing, res.Extra, res.Ticks, want)
	}
	if same := Compare(ours, theirs[:2], Options{Entities: map[int32]bool{5: true}}); !same.Same() || same.Compared != 2 {
		t.Fatalf("a trace of part of a tick, narrowed to its entity: %+v", same.First)
	}
	// Not narrowed: within the ticks their trace covers, the update of
	// entity 6 at tick 1 it has no read of is reported, once for its read.
	all := Compare(ours, theirs, Options{All: true})
	if d := all.First; d == nil || d.What != MissingUpdate || d.Tick != 1 || d.Entity != 6 || d.Reads != 1 || all.MissingUpdates != 1 || all.Missing != 2 {
		t.Fatalf("first %+v, %d missing updates, %d missing reads", d, all.MissingUpdates, all.Missing)
	}
	if s := all.First.Sentence(); !strings.Contains(s, "reads nothing of entity 6") {
		t.Fatalf("sentence %q", s)
	}
	if part := Compare(ours, theirs[:2], Options{}); part.Same() || part.First.What != MissingUpdate {
		t.Fatalf("a trace skipping entity 6 at tick 1 compares equal")
	}
}

func TestBitString(t *testing.T) {
	data := []byte{0b10110001, 0xff}
	if s := BitString(data, 0, 10, 64); s != "1000110111" {
		t.Fatalf("got %s", s)
	}
	if s := BitString(data, 4, 20, 3); s != "110…" {
		t.Fatalf("got %s", s)
	}
	if s := BitString(data, 14, 8, 64); s != "11" {
		t.Fatalf("past the end: %s", s)
	}
}

// A field read more often on one side is aligned by value when their trace
// gives no offsets: the read only they made is the extra one.
func TestCompareRealignsRepeatedNames(t *testing.T) {
	ours := []Read{read(1, 5, "v", 0, 8, "1"), read(1, 5, "v", 8, 8, "2"), read(1, 5, "v", 16, 8, "3")}
	theirs := []Read{read(1, 5, "v", -1, -1, "1"), read(1, 5, "v", -1, -1, "9"), read(1, 5, "v", -1, -1, "2"), read(1, 5, "v", -1, -1, "3")}
	for i := range theirs {
		theirs[i].Line = i + 1
	}
	res := Compare(ours, theirs, Options{All: true})
	if res.First == nil || res.First.What != Extra || res.First.Theirs.Line != 2 || len(res.All) != 1 || res.Equal != 3 {
		t.Fatalf("first %+v, %d differences, %d equal", res.First, len(res.All), res.Equal)
	}
}
