#!/usr/bin/env bash
# Measures the debugger on a replay in a real terminal (tmux): time to the
# first frame, to the end of the index pass, the latency of steps and
# seeks, a search, and the process's peak resident memory. See
# docs/memory.md for the figures it gave.
#
#   docs/measure-tui.sh ./dembug /tmp/long/long100.dem [tries]
#
# INDEX_ONLY=1 stops after the index pass; MAX_TICK bounds the random ticks.
#
# A key's latency is the time from sending it to the first screen that
# differs from the one before and shows no "decoding…" or "searching"
# (the screen is polled every few milliseconds, so figures are a few ms
# high). Needs tmux, GNU date and /proc.
set -euo pipefail
bin=$1 file=$2 tries=${3:-20}
s=measure$$
now() { date +%s%N; }
shot() { tmux capture-pane -p -t "$s"; }
busy() { grep -qE 'decoding…|searching|filtering|indexing' <<<"$1"; }
fail() { echo "measure-tui: $*" >&2; tmux kill-session -t "$s" 2>/dev/null; exit 1; }

# wait_change PREV: waits until the screen differs from PREV and is idle;
# prints the screen.
wait_change() {
	local prev=$1 cur deadline=$(($(now) + 20000000000))
	while :; do
		cur=$(shot)
		if [[ $cur != "$prev" ]] && ! busy "$cur"; then
			printf '%s' "$cur"
			return
		fi
		(($(now) < deadline)) || fail "no answer in 20 s"
		sleep 0.002
	done
}

# key NAME...: sends keys (tmux names) and prints the latency in ms.
key() {
	local prev t0
	prev=$(shot)
	t0=$(now)
	tmux send-keys -t "$s" "$@"
	wait_change "$prev" >/dev/null
	echo $((($(now) - t0) / 1000000))
}

# stats LABEL: reads latencies (ms), prints median, 95th percentile, max.
stats() {
	sort -n | awk -v l="$1" '{v[NR]=$1} END {i=int(NR*0.95+0.999); if (i>NR) i=NR; printf "%-22s n=%d  p50 %d ms  p95 %d ms  max %d ms\n", l, NR, v[int((NR+1)/2)], v[i], v[NR]}'
}

# prompt KEY TEXT: opens a prompt with KEY and types TEXT, waiting until the
# screen shows it (keys typed into a terminal arrive asynchronously).
prompt() {
	local deadline=$(($(now) + 20000000000))
	tmux send-keys -t "$s" "$1"
	until shot | grep -q ': █\|: .*█'; do
		(($(now) < deadline)) || fail "no prompt"
		sleep 0.005
	done
	tmux send-keys -t "$s" C-u
	tmux send-keys -t "$s" -l "$2"
	until shot | grep -qF ": $2█"; do
		(($(now) < deadline)) || fail "prompt does not show $2"
		sleep 0.005
	done
}

rss() { awk '/^VmRSS/ {r=int($2/1024)} /^RssAnon/ {a=int($2/1024)} /^RssFile/ {f=int($2/1024)} END {printf "%d (anon %d, file %d)", r, a, f}' "/proc/$pid/status"; }
# cpu: the process's CPU seconds so far (user and system).
cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$pid/stat"; }
hwm() { awk '/^VmHWM/ {print int($2/1024)}' "/proc/$pid/status"; }

# pstart: when the process started, on now's clock: its start time in
# /proc/PID/stat (clock ticks after boot) against /proc/uptime (10 ms
# steps, both). check's time by /usr/bin/time runs from there too; the
# times from t0 add tmux's start and the poll.
pstart() {
	local hz st up wall
	hz=$(getconf CLK_TCK)
	st=$(awk '{print $22}' "/proc/$pid/stat")
	read -r up _ </proc/uptime
	wall=$(now)
	echo $((wall - 10#${up/./} * 10000000 + st * 1000000000 / hz))
}

t0=$(now)
tmux new-session -d -s "$s" -x 200 -y 50 "exec $bin $file"
pid=$(tmux display -p -t "$s" '#{pane_pid}')
p0=$(pstart)
until shot | grep -q 'Timeline'; do
	(($(now) - t0 < 10000000000)) || fail "no first frame in 10 s"
	sleep 0.002
done
t1=$(now)
echo "first frame            $(((t1 - t0) / 1000000)) ms, $(((t1 - p0) / 1000000)) ms from the process's start"
until ! shot | grep -q 'indexing'; do
	(($(now) - t0 < 300000000000)) || fail "index not done in 300 s"
	sleep 0.01
done
t1=$(now)
echo "index done             $(((t1 - t0) / 1000000)) ms, $(((t1 - p0) / 1000000)) ms from the process's start  (cpu $(cpu) s, rss $(rss) MiB, peak $(hwm) MiB)"
if [[ -n ${INDEX_ONLY:-} ]]; then # only the first frame and the index
	tmux kill-session -t "$s"
	exit 0
fi
sleep 0.5

echo "end                    $(key End) ms"
for _ in $(seq "$tries"); do key N; done | stats "N (previous update)"
for _ in $(seq "$tries"); do key '['; done | stats "[ (previous packet)"
for _ in $(seq "$tries"); do key n; done | stats "n (next update)"
max=${MAX_TICK:-400000} # the 100 MB replay ends at tick 407,996
for i in $(seq "$tries"); do
	t=$(( (RANDOM * 32768 + RANDOM) % max ))
	prompt g "$t"
	key Enter
done | stats "g (random tick)"
key End >/dev/null
prompt g "$((max / 2))"
echo "g to mid-file from end $(key Enter) ms"
prompt / m_iHealth
echo "search /m_iHealth      $(key Enter) ms: $(shot | tail -1 | cut -c1-60)"
echo "after the run          rss $(rss) MiB, peak $(hwm) MiB"
tmux send-keys -t "$s" q
sleep 0.3
tmux kill-session -t "$s" 2>/dev/null || true
