#!/usr/bin/env bash
# Measures the CPU of a whole parse in-process, for commits side by side:
# each REV is checked out in a temporary worktree, a harness test is
# written into its engine/replay (replay.Open + Run per parse, Release when
# the commit has it), and rounds of N parses run interleaved, REV by REV.
# It prints each REV's rounds (process user+sys time per parse, ms) and its
# median ratio to the first REV, round by round. The machine is shared:
# compare within one run, never across runs. docs/development.md
# ("Decoding without garbage") has the figures it gave.
#
#   docs/measure-parse.sh FILE ROUNDS N REV [REV...]
#   docs/measure-parse.sh ../shared/replays/dota2/auto-20240102-2233.dem 8 100 21aab74 HEAD
set -euo pipefail
file=$(realpath "$1") rounds=$2 n=$3
shift 3
repo=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'for d in "$tmp"/wt*; do git -C "$repo" worktree remove --force "$d" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT

harness='package replay_test

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/dembug/dembug/engine/replay"
)

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func TestMeasureParse(t *testing.T) {
	data, err := os.ReadFile(os.Getenv("MEASURE_FILE"))
	if err != nil {
		t.Skip(err)
	}
	n, _ := strconv.Atoi(os.Getenv("MEASURE_N"))
	parse := func() {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		if rel, ok := any(r).(interface{ Release() }); ok {
			rel.Release()
		}
	}
	parse()
	start := cpuSeconds()
	for range n {
		parse()
	}
	fmt.Printf("MEASURE %.3f\n", (cpuSeconds()-start)/float64(n)*1000)
}
'
revs=("$@")
for i in "${!revs[@]}"; do
	wt=$tmp/wt$i
	git -C "$repo" worktree add --detach --quiet "$wt" "${revs[$i]}"
	printf '%s' "$harness" >"$wt/engine/replay/zz_measure_parse_test.go"
	(cd "$wt/engine/replay" && go test -c -o "$tmp/bin$i" .)
done
declare -a times
for _ in $(seq "$rounds"); do
	for i in "${!revs[@]}"; do
		t=$(MEASURE_FILE=$file MEASURE_N=$n "$tmp/bin$i" -test.run '^TestMeasureParse$' | awk '/^MEASURE/{print $2}')
		times[$i]="${times[$i]:-} $t"
	done
done
for i in "${!revs[@]}"; do
	python3 - "${revs[$i]}" "${times[0]}" "${times[$i]}" <<'PY'
import statistics, sys
rev, base, mine = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ratios = [m / b for m, b in zip(mine, base)]
print(f"{rev:>12}: median {statistics.median(mine):.3f} ms/parse, ratio to the first {statistics.median(ratios):.3f} "
      f"({min(ratios):.3f}-{max(ratios):.3f}); rounds {' '.join(f'{x:.3f}' for x in mine)}")
PY
done
