package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dembug/dembug/engine/bitio"
)

// The screen-test harness: it drives the root model the way a tea.Program
// does — a WindowSizeMsg, then scripted tea.KeyPressMsg values — but runs
// every returned tea.Cmd synchronously and feeds its message back, so each
// screen is deterministic. (teatest/v2 runs the same model in a real
// program; see TestProgramSmoke.)

const dotaReplay = "dota2/auto-20240102-2233.dem"

// replaysDir finds the shared replays: $DEMBUG_REPLAYS, or a
// "shared/replays" folder beside the repository, found by walking up from
// the working directory.
func replaysDir() (string, []string) {
	var tried []string
	if d := os.Getenv("DEMBUG_REPLAYS"); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", nil
	}
	for {
		cand := filepath.Join(dir, "shared", "replays")
		tried = append(tried, cand)
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, tried
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", tried
		}
		dir = parent
	}
}

// loadReplay reads a shared replay or skips the test saying where it looked.
func loadReplay(tb testing.TB, name string) (string, []byte) {
	tb.Helper()
	dir, tried := replaysDir()
	if dir == "" {
		tb.Skipf("replay %s not found: set DEMBUG_REPLAYS to the shared replays folder (looked in %s)", name, strings.Join(tried, ", "))
	}
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("replay %s not readable (%v): set DEMBUG_REPLAYS to the shared replays folder", path, err)
	}
	return path, data
}

type harness struct {
	tb   testing.TB
	m    *Model
	quit bool
}

// newHarness opens data at a fixed window size and runs the index pass to
// the end.
func newHarness(tb testing.TB, path string, data []byte, w, h int) *harness {
	tb.Helper()
	return newHarnessWith(tb, path, data, w, h, Options{NoColor: true})
}

// newHarnessWith is newHarness with the model's options.
func newHarnessWith(tb testing.TB, path string, data []byte, w, h int, opts Options) *harness {
	tb.Helper()
	hs := &harness{tb: tb, m: New(path, data, opts)}
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(hs.m.Init())
	return hs
}

// send delivers one message and runs whatever it starts.
func (hs *harness) send(msg tea.Msg) {
	_, cmd := hs.m.Update(msg)
	hs.run(cmd)
}

// run executes commands (and the commands their messages start) until
// none is left, then derives what the panes show, as Update does after
// each message: a test that called a model method itself (jump, say)
// sees the screen the program would.
func (hs *harness) run(cmd tea.Cmd) {
	defer func() {
		if c := hs.m.derive(); c != nil {
			hs.run(c)
		}
	}()
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			hs.quit = true
		default:
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// keyMsg builds the key press a terminal sends for a key name.
func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "tab": {Code: tea.KeyTab}, "shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"esc": {Code: tea.KeyEscape}, "backspace": {Code: tea.KeyBackspace},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
		"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd},
		"ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
	}
	if key, ok := special[k]; ok {
		return tea.KeyPressMsg(key)
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg(tea.Key{Code: r, Text: string(r)})
}

// keys presses each key in turn.
func (hs *harness) keys(ks ...string) {
	for _, k := range ks {
		hs.send(keyMsg(k))
	}
}

// typ types text, one key per rune.
func (hs *harness) typ(s string) {
	for _, r := range s {
		hs.send(keyMsg(string(r)))
	}
}

// screen is the view's content, derived again first for a test that set
// the model's state itself.
func (hs *harness) screen() string {
	hs.run(nil)
	v := hs.m.View()
	return v.Content
}

// goldenTB stores golden files under the repository's testdata/golden/ui/.
type goldenTB struct{ testing.TB }

func (g goldenTB) Name() string {
	return filepath.Join("..", "..", "testdata", "golden", "ui", g.TB.Name())
}

func requireGolden(t *testing.T, out string) {
	t.Helper()
	golden.RequireEqual(goldenTB{t}, []byte(out))
}

func offsetOf(bit uint) string { return bitio.Offset(bit) }

// inspectorText is the inspector's text laid out without wrapping.
func inspectorText(hs *harness) string {
	hs.run(nil)
	_, body := hs.m.inspectorPane(400, 400)
	return body
}
