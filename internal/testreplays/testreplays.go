package testreplays

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// EnvVar overrides where the replays are.
const EnvVar = "DEMBUG_REPLAYS"

// Dir returns the replay folder, or "" when it cannot be found.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		cand := filepath.Join(d, "shared", "replays")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Require returns the replay folder or skips the test with a clear message.
func Require(tb testing.TB) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skipf("shared replays not found: put them in ../shared/replays beside the repository or set %s", EnvVar)
	}
	return d
}

// Files lists the .dem files of one game folder ("dota2", "cs2", "deadlock"),
// skipping the test when there are none.
func Files(tb testing.TB, game string) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(Require(tb), game, "*.dem"))
	if len(files) == 0 {
		tb.Skipf("no %s replays in %s", game, Dir())
	}
	sort.Strings(files)
	return files
}

// Games are the shared replays' game folders.
var Games = []string{"dota2", "cs2", "deadlock"}

// EachFile calls fn with the path and bytes of every shared replay of every
// game, skipping the test when a game has none.
func EachFile(tb testing.TB, fn func(path string, data []byte)) {
	tb.Helper()
	each(tb, func(_, path string, data []byte) { fn(path, data) })
}

// Subtests runs fn as a subtest (or sub-benchmark) of tb for every shared
// replay of every game, named game/file, with the file's bytes.
func Subtests[T interface {
	testing.TB
	Run(string, func(T)) bool
}](tb T, fn func(tb T, data []byte)) {
	tb.Helper()
	each(tb, func(game, path string, data []byte) {
		tb.Run(game+"/"+filepath.Base(path), func(tb T) { fn(tb, data) })
	})
}

// each reads every shared replay of every game in turn.
func each(tb testing.TB, fn func(game, path string, data []byte)) {
	tb.Helper()
	for _, g := range Games {
		for _, path := range Files(tb, g) {
			data, err := os.ReadFile(path)
			if err != nil {
				tb.Fatalf("reading %s: %v", path, err)
			}
			fn(g, path, data)
		}
	}
}

// Read returns the bytes of the first replay of a game.
func Read(tb testing.TB, game string) (string, []byte) {
	tb.Helper()
	path := Files(tb, game)[0]
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("reading %s: %v", path, err)
	}
	return path, data
}
