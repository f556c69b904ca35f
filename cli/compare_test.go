package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// traceLines is dembug's own whole-file trace of a replay, one object per
// line (kept once per replay: the tests change their own copies of it).
func traceLines(t testing.TB, data []byte, baselines bool) [][]byte {
	t.Helper()
	key := traceKey{&data[0], baselines}
	if lines, ok := traces[key]; ok {
		return slices.Clone(lines)
	}
	var b bytes.Buffer
	if err := TraceWith(&b, data, 0, -1, TraceOptions{AllTicks: true, Baselines: baselines}); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n"))
	traces[key] = lines
	return slices.Clone(lines)
}

type traceKey struct {
	data      *byte
	baselines bool
}

var traces = map[traceKey][][]byte{}

// obj is one trace line as an object, numbers kept as written.
func obj(t testing.TB, line []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func line(t testing.TB, m map[string]any) []byte {
	t.Helper()
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func num(t testing.TB, l map[string]any, key string) int64 {
	t.Helper()
	n, err := l[key].(json.Number).Int64()
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return n
}

func compareLines(t testing.TB, data []byte, lines [][]byte) compare.Result {
	t.Helper()
	res, err := CompareFiles(data, "replay", bytes.NewReader(append(bytes.Join(lines, []byte("\n")), '\n')), "trace", schema.Aliases{}, true)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameMessage reports whether two trace lines read from one message (and
// both outside baselines).
func sameMessage(t testing.TB, a, b map[string]any) bool {
	return num(t, a, "tick") == num(t, b, "tick") && num(t, a, "command") == num(t, b, "command") &&
		num(t, a, "message") == num(t, b, "message") && a["in"] == nil && b["in"] == nil
}

// pick is the index of a read in the middle of the trace, outside
// baselines, with an integer value read by a varint, followed by at least
// five more reads in its message.
func pick(t testing.TB, lines [][]byte) int {
	t.Helper()
	for k := len(lines) / 2; k+5 < len(lines); k++ {
		l := obj(t, lines[k])
		if l["in"] != nil || l["decoder"] != "unsigned varint" || !sameMessage(t, l, obj(t, lines[k+5])) {
			continue
		}
		if _, ok := l["value"].(json.Number); ok {
			return k
		}
	}
	t.Fatal("no read to change")
	return 0
}

func wantFirst(t *testing.T, res compare.Result, what compare.What, line map[string]any) *compare.Difference {
	t.Helper()
	d := res.First
	if d == nil {
		t.Fatalf("no difference found, want %s", what)
	}
	if d.What != what || d.Tick != num(t, line, "tick") || int64(d.Entity) != num(t, line, "entity") || d.Field != line["name"] {
		t.Fatalf("first difference %s at tick %d entity %d %s, want %s at tick %v entity %v %v",
			d.What, d.Tick, d.Entity, d.Field, what, line["tick"], line["entity"], line["name"])
	}
	return d
}

// Each shared game's untouched trace (with baselines) compares equal.
func TestCompareUntouchedTraceIsEqual(t *testing.T) {
	for _, g := range testreplays.Games {
		_, data := testreplays.Read(t, g)
		lines := traceLines(t, data, true)
		res := compareLines(t, data, lines)
		if !res.Same() || res.Compared != len(lines) || res.Equal != len(lines) || res.Missing+res.Extra != 0 {
			t.Fatalf("%s: untouched trace: %s (first %+v)", g, CompareSummary(&res), res.First)
		}
	}
}

func TestCompareFindsBitCountOffByOne(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	lines := traceLines(t, data, true)
	k := pick(t, lines)
	// Their parser reads one bit too many here, so every later read of the
	// message starts a bit later.
	changed := obj(t, lines[k])
	changed["bits"] = json.Number(strconv.FormatInt(num(t, changed, "bits")+1, 10))
	lines[k] = line(t, changed)
	shifted := 0
	for j := k + 1; j < len(lines); j++ {
		l := obj(t, lines[j])
		if !sameMessage(t, changed, l) {
			break
		}
		l["bit_offset"] = json.Number(strconv.FormatInt(num(t, l, "bit_offset")+1, 10))
		lines[j] = line(t, l)
		shifted++
	}
	res := compareLines(t, data, lines)
	d := wantFirst(t, res, compare.Bits, changed)
	if d.Theirs.Line != k+1 || d.Theirs.Bits != d.Ours.Bits+1 {
		t.Fatalf("line %d bits %d, ours %d; want line %d", d.Theirs.Line, d.Theirs.Bits, d.Ours.Bits, k+1)
	}
	if shifted < 5 || res.Counts[compare.Bits] != 1 || res.Counts[compare.Offset] != shifted || len(res.All) != shifted+1 {
		t.Fatalf("counts %v, want bits 1 offset %d", res.Counts, shifted)
	}
	ours, theirs := d.ReadBits(64)
	if len(theirs) != len(ours)+1 || !strings.HasPrefix(theirs, ours) {
		t.Fatalf("read bits ours %q theirs %q", ours, theirs)
	}
}

// wrongValue is the trace with read k's integer value one more.
func wrongValue(t testing.TB, lines [][]byte, k int) map[string]any {
	l := obj(t, lines[k])
	l["value"] = json.Number(strconv.FormatInt(num(t, l, "value")+1, 10))
	lines[k] = line(t, l)
	return l
}

func TestCompareFindsWrongValue(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	lines := traceLines(t, data, true)
	k := pick(t, lines)
	changed := wrongValue(t, lines, k)
	res := compareLines(t, data, lines)
	d := wantFirst(t, res, compare.Value, changed)
	if d.Theirs.Line != k+1 || len(res.All) != 1 {
		t.Fatalf("line %d, %d differences; want line %d alone", d.Theirs.Line, len(res.All), k+1)
	}
}

func TestCompareFindsMissingRead(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	lines := traceLines(t, data, false)
	k := pick(t, lines)
	// A read whose entity has another at the tick (else their trace
	// skipped the whole update: TestCompareFindsSkippedUpdate).
	for k+1 < len(lines) && num(t, obj(t, lines[k]), "entity") != num(t, obj(t, lines[k+1]), "entity") {
		k++
	}
	gone := obj(t, lines[k])
	lines = slices.Delete(lines, k, k+1)
	res := compareLines(t, data, lines)
	d := wantFirst(t, res, compare.Missing, gone)
	if d.Theirs != nil || d.Ours.Offset != num(t, gone, "bit_offset") || res.Missing != 1 || len(res.All) != 1 {
		t.Fatalf("missing %+v, %d differences", d.Ours, len(res.All))
	}
}

func TestCompareFindsExtraRead(t *testing.T) {
	_, data := testreplays.Read(t, "deadlock")
	lines := traceLines(t, data, true)
	k := pick(t, lines)
	extra := obj(t, lines[k])
	extra["name"], extra["path"] = "m_nNotAField", []any{json.Number("999")}
	lines = slices.Insert(lines, k+1, line(t, extra))
	res := compareLines(t, data, lines)
	d := wantFirst(t, res, compare.Extra, extra)
	if d.Ours != nil || d.Theirs.Line != k+2 || res.Extra != 1 || len(res.All) != 1 {
		t.Fatalf("extra at line %d, %d differences; want line %d alone", d.Theirs.Line, len(res.All), k+2)
	}
}

func TestCompareFindsReadsOutOfOrder(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	lines := traceLines(t, data, false)
	k := pick(t, lines)
	first := obj(t, lines[k])
	lines[k], lines[k+1] = lines[k+1], lines[k]
	res := compareLines(t, data, lines)
	wantFirst(t, res, compare.Order, first)
	if len(res.All) != 1 {
		t.Fatalf("%d differences, want 1", len(res.All))
	}
}

// A parser that computes floats in float32 is not wrong: every float and
// vector written at float32 precision still compares equal; a value off by
// more does not.
func TestCompareToleratesFloat32Rounding(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	lines := traceLines(t, data, true)
	round := func(v any) (any, bool) {
		n, ok := v.(json.Number)
		if !ok || !strings.ContainsAny(string(n), ".e") {
			return v, false
		}
		f, _ := n.Float64()
		r := json.Number(strconv.FormatFloat(float64(float32(f)), 'g', -1, 32))
		return r, r != n
	}
	changed, firstFloat := 0, -1
	for k := range lines {
		if !bytes.Contains(lines[k], []byte(".")) {
			continue
		}
		l := obj(t, lines[k])
		n := changed
		switch v := l["value"].(type) {
		case json.Number:
			if r, ok := round(v); ok {
				l["value"] = r
				changed++
				if firstFloat < 0 && l["in"] == nil {
					firstFloat = k
				}
			}
		case []any:
			for i := range v {
				if r, ok := round(v[i]); ok {
					v[i] = r
					changed++
				}
			}
		}
		if changed > n {
			lines[k] = line(t, l)
		}
	}
	if changed < 100 || firstFloat < 0 {
		t.Fatalf("only %d values changed by float32 rounding", changed)
	}
	if res := compareLines(t, data, lines); !res.Same() {
		t.Fatalf("float32 rounding counted: %s, first %+v", CompareSummary(&res), res.First)
	}
	l := obj(t, lines[firstFloat])
	f, _ := l["value"].(json.Number).Float64()
	l["value"] = json.Number(strconv.FormatFloat(f*1.001+0.01, 'g', -1, 64))
	lines[firstFloat] = line(t, l)
	res := compareLines(t, data, lines)
	wantFirst(t, res, compare.Value, l)
	if math.IsNaN(f) || len(res.All) != 1 {
		t.Fatalf("%d differences, want 1", len(res.All))
	}
}

func TestCompareCommand(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	dir := t.TempDir()
	write := func(name string, lines [][]byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dem := filepath.Join(dir, "r.dem")
	if err := os.WriteFile(dem, data, 0o644); err != nil {
		t.Fatal(err)
	}
	lines := traceLines(t, data, false)
	good := write("good.jsonl", lines)
	k := pick(t, lines)
	changed := wrongValue(t, lines, k)
	bad := write("bad.jsonl", lines)
	broken := write("broken.jsonl", [][]byte{[]byte(`{"tick":1,"entity":2,"name":"a","value":1}`), []byte(`{"tick":1,"entity":2,"value":1}`)})
	notJSON := write("notjson.jsonl", [][]byte{[]byte(`{"tick":1,"entity":2,"name":"a","value":1}`), nil, []byte("hello")})

	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		cmd := Root(&out, &errb)
		cmd.SetArgs(append([]string{"compare"}, args...))
		code := 0
		if err := cmd.Execute(); err != nil {
			ee, ok := err.(*ExitError)
			if !ok {
				t.Fatalf("%v: error %v is no exit code", args, err)
			}
			code = ee.Code
		}
		return out.String(), errb.String(), code
	}
	if out, _, code := run(dem, good); code != 0 || !strings.HasPrefix(out, "no difference") {
		t.Fatalf("good trace: exit %d\n%s", code, out)
	}
	out, _, code := run(dem, bad)
	if code != 1 || !strings.Contains(out, "first difference: tick "+changed["tick"].(json.Number).String()) ||
		!strings.Contains(out, ": value") || !strings.Contains(out, "our decoder unsigned varint") {
		t.Fatalf("bad trace: exit %d\n%s", code, out)
	}
	out, _, code = run(dem, bad, "--json")
	var j CompareResult
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 1 || j.FirstDifference == nil ||
		j.FirstDifference.What != "value" || j.FirstDifference.Theirs.Line != k+1 || j.Compared != len(lines) || j.Equal != len(lines)-1 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if out, _, _ := run(dem, good, "--json"); !strings.Contains(out, `"first_difference":null`) {
		t.Fatalf("--json of an equal trace: %s", out)
	}
	if _, errs, code := run(dem, broken); code != 2 || !strings.Contains(errs, "line 2") || !strings.Contains(errs, "name") {
		t.Fatalf("missing key: exit %d, %q", code, errs)
	}
	if _, errs, code := run(dem, notJSON); code != 2 || !strings.Contains(errs, "line 3") {
		t.Fatalf("not JSON: exit %d, %q", code, errs)
	}
	if _, _, code := run(dem); code != 2 {
		t.Fatalf("one argument: exit %d", code)
	}
}

func BenchmarkCompareWholeTrace(b *testing.B) {
	_, data := testreplays.Read(b, "cs2")
	lines := traceLines(b, data, true)
	trace := append(bytes.Join(lines, []byte("\n")), '\n')
	b.ResetTimer()
	for b.Loop() {
		res, err := CompareFiles(data, "replay", bytes.NewReader(trace), "trace", schema.Aliases{}, false)
		if err != nil || !res.Same() {
			b.Fatal(err, res.First)
		}
	}
	b.ReportMetric(float64(len(lines)), "reads")
}

// dembug FILE --compare THEIRS.jsonl hands the comparison to the debugger;
// a trace it cannot read stops before the debugger opens, with exit 2.
func TestRootCompareFlag(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	dir := t.TempDir()
	dem, bad, broken := filepath.Join(dir, "r.dem"), filepath.Join(dir, "bad.jsonl"), filepath.Join(dir, "broken.jsonl")
	lines := traceLines(t, data, false)
	changed := wrongValue(t, lines, pick(t, lines))
	for p, b := range map[string][]byte{dem: data, bad: append(bytes.Join(lines, []byte("\n")), '\n'), broken: []byte("{\"tick\":1}\n")} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(a, b any) {
		OpenTUI = a.(func(string, []byte, schema.Aliases) error)
		OpenTUICompare = b.(func(string, []byte, schema.Aliases, *compare.Result) error)
	}(OpenTUI, OpenTUICompare)
	var got *compare.Result
	OpenTUI = func(string, []byte, schema.Aliases) error { t.Fatal("opened without the comparison"); return nil }
	OpenTUICompare = func(_ string, _ []byte, _ schema.Aliases, res *compare.Result) error { got = res; return nil }
	run := func(args ...string) (string, int) {
		var out, errb bytes.Buffer
		cmd := Root(&out, &errb)
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			if ee, ok := err.(*ExitError); ok {
				return errb.String(), ee.Code
			}
			t.Fatal(err)
		}
		return errb.String(), 0
	}
	if _, code := run(dem, "--compare", bad); code != 0 || got == nil || got.First == nil || got.First.What != compare.Value ||
		got.First.Field != changed["name"] {
		t.Fatalf("exit %d, comparison %+v", code, got)
	}
	got = nil
	if errs, code := run(dem, "--compare", broken); code != 2 || got != nil || !strings.Contains(errs, "line 1") {
		t.Fatalf("broken trace: exit %d, %q", code, errs)
	}
}

// A trace without paths is matched by name. A read missing from a name the
// entity reads several times in the tick (CS2 econ items repeat
// m_iItemDefinitionIndex) is the missing one, not a shift of every later
// read of the name.
func TestCompareFindsMissingReadOfRepeatedName(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	lines := traceLines(t, data, false)
	l0 := obj(t, lines[0])
	delete(l0, "path")
	lines[0] = line(t, l0)
	k := -1
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(`{"tick":1,`)) && bytes.Contains(l, []byte(`"entity":570,`)) && bytes.Contains(l, []byte(`"name":"m_iItemDefinitionIndex"`)) {
			k = i
			break
		}
	}
	if k < 0 {
		t.Skip("no repeated name in this replay")
	}
	gone := obj(t, lines[k])
	lines = slices.Delete(lines, k, k+1)
	res := compareLines(t, data, lines)
	d := wantFirst(t, res, compare.Missing, gone)
	if d.Ours.Offset != num(t, gone, "bit_offset") || len(res.All) != 1 {
		t.Fatalf("missing read at %d, want %v; %d differences", d.Ours.Offset, gone["bit_offset"], len(res.All))
	}
}

// A trace whose ticks are ours plus a constant is told apart from a
// parser that misreads: compare says how its ticks are shifted, as text,
// as JSON, and the untouched trace says nothing of ticks.
func TestCompareNamesShiftedTicks(t *testing.T) {
	path := cs2Replay(t, "14065.dem")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := traceLines(t, data, false)
	for i, l := range lines {
		m := obj(t, l)
		m["tick"] = num(t, m, "tick") + 3
		lines[i], _ = json.Marshal(m)
	}
	shifted := filepath.Join(t.TempDir(), "shifted.jsonl")
	if err := os.WriteFile(shifted, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runDembug("compare", path, shifted)
	if err == nil || !strings.Contains(out, "their ticks look shifted by +3: ") {
		t.Errorf("compare of a shifted trace: %v\n%s", err, out)
	}
	out, _, _ = runDembug("compare", path, shifted, "--json")
	var j CompareResult
	if err := json.Unmarshal([]byte(out), &j); err != nil || !strings.HasPrefix(j.TickHint, "their ticks look shifted by +3") {
		t.Errorf("compare --json of a shifted trace: %v, tick_hint %q", err, j.TickHint)
	}
	if res := compareLines(t, data, traceLines(t, data, false)); res.TickHint() != "" {
		t.Errorf("the untouched trace: %q", res.TickHint())
	}
}

// Element indexes written as name[3] or name.3 match ours (name.0003) in
// a trace matched by name.
func TestCompareReadsOtherElementNames(t *testing.T) {
	for i, g := range []string{"dota2", "cs2"} {
		_, data := testreplays.Read(t, g)
		lines := traceLines(t, data, false)
		changed := 0
		for k, l := range lines {
			m := obj(t, l)
			delete(m, "path") // matched by name, as a trace without paths is
			lines[k], _ = json.Marshal(m)
			name, _ := m["name"].(string)
			parts := strings.Split(name, ".")
			for j, p := range parts {
				if len(p) == 4 && strings.Trim(p, "0123456789") == "" && j > 0 {
					n := strings.TrimLeft(p, "0")
					if n == "" {
						n = "0"
					}
					if (k+i)%2 == 0 {
						parts[j-1] += "[" + n + "]"
						parts[j] = ""
					} else {
						parts[j] = n
					}
				}
			}
			if renamed := strings.ReplaceAll(strings.Join(parts, "."), "..", "."); renamed != name {
				m["name"] = strings.TrimSuffix(renamed, ".")
				lines[k], _ = json.Marshal(m)
				changed++
			}
		}
		if changed == 0 {
			t.Fatalf("%s: no element name to rewrite", g)
		}
		if res := compareLines(t, data, lines); !res.Same() || res.Equal != len(lines) {
			t.Errorf("%s: %d names rewritten: %s (first %+v)", g, changed, CompareSummary(&res), res.First)
		}
	}
}
