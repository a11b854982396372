#!/usr/bin/env bash
# What a restart of convfiles serve costs on a data folder of 100,000
# files (100 folders of 1,000 in one conversation, and a small second
# conversation), in one run:
#   first start   the index is new: every file is walked and described
#   restart       after a clean shutdown with nothing changed since
#   changed       after a clean shutdown and one file written in the small
#                 conversation: only that conversation is walked
#   empty store   the baseline: a data folder with no files
#   no mark       the same restart with the clean mark removed, as after a
#                 crash: every file is walked again (the baseline)
# For each: the time from exec to the first answer of /healthz, the peak
# resident memory of the process up to then (VmHWM) and its resident memory
# once started (VmRSS). Usage: bench/restart.sh [files] (default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100000}"
work="$(mktemp -d)"
trap 'kill "${pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/convfiles" ./cmd/convfiles

data="$work/data/convfiles"
mkdir -p "$data/files/big" "$data/files/small"
python3 - "$data/files/big" "$n" <<'EOF'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for d in range(100):
    os.makedirs(os.path.join(root, "d%02d" % d), exist_ok=True)
for i in range(n):
    with open(os.path.join(root, "d%02d" % (i % 100), "file%06d.txt" % i), "w") as f:
        f.write("x")
EOF
echo "hello" > "$data/files/small/hello.txt"
sleep 1.2 # folders modified within a second of a start-up count as changed

port=$((20000 + RANDOM % 20000))
empty="$work/empty"
start() {
	local what="$1" t0 t1
	t0=$(date +%s%N)
	XDG_DATA_HOME="${home:-$work/data}" XDG_CONFIG_HOME="$work/config" "$work/convfiles" serve --addr "127.0.0.1:$port" 2>"$work/log" &
	pid=$!
	until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do
		if ! kill -0 "$pid" 2>/dev/null; then cat "$work/log" >&2; exit 1; fi
		sleep 0.01
	done
	t1=$(date +%s%N)
	sleep 0.5
	local hwm rss anon
	hwm=$(awk '/VmHWM/ {print int($2/1024)}' "/proc/$pid/status")
	rss=$(awk '/VmRSS/ {print int($2/1024)}' "/proc/$pid/status")
	anon=$(awk '/RssAnon/ {print int($2/1024)}' "/proc/$pid/status")
	printf '%-12s /healthz after %6d ms   peak RSS %4d MiB   RSS %4d MiB (anonymous %3d)   %s\n' "$what" $(((t1 - t0) / 1000000)) "$hwm" "$rss" "$anon" \
		"$(grep -o 'conversations=.*' "$work/log" | head -1)"
}
stop() {
	kill -TERM "$pid"
	wait "$pid" 2>/dev/null || true
}

home="$empty" start "empty store"
stop
start "first start"
stop
sleep 1.2
start "restart"
stop
start "restart"
curl -sf -X POST -H 'Content-Type: application/json' -d '{"id":"new.txt","content":"new"}' \
	"http://127.0.0.1:$port/api/conversations/small/ops/write_text" >/dev/null
stop
sleep 1.2
start "changed"
stop
rm -f "$data/files/.convfiles-clean"
start "no mark"
stop
