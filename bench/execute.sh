#!/usr/bin/env bash
# Load-tests POST /execute of a saved hello-world script with wrk over
# loopback, next to GET /healthz (the server's floor) in the same run, at
# each number of connections given, then a run that writes 1 KiB into a
# conversation; prints throughput and p50/p99 latency for each. Needs wrk
# (Debian: wrk).
# Usage: bench/execute.sh [seconds] [connections...]   (default 10 s; 1 8 32)
# CONVFILES_BIN=path runs that binary instead of building this tree (to
# compare two builds in interleaved rounds).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-10}"
shift || true
conns=("${@:-1 8 32}")
read -r -a conns <<< "${conns[*]}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
if [ -n "${CONVFILES_BIN:-}" ]; then
	cp "$CONVFILES_BIN" "$work/convfiles"
else
	go build -o "$work/convfiles" ./cmd/convfiles
fi
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# The rate limits of seed 002 (100 requests a minute per client) would
# measure the policy, not the server: this run turns them off.
cat > "$work/config.toml" <<TOML
[server]
address = "127.0.0.1:$port"
[ratelimit]
per_client = 0
per_code_id = 0
global = 0
TOML
XDG_DATA_HOME="$work/data" "$work/convfiles" serve --config "$work/config.toml" 2> "$work/serve.log" &
pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 50); do curl -fs "$base/healthz" >/dev/null && break; sleep 0.1; done

curl -fs -X PUT "$base/workspace" -H 'Content-Type: application/json' \
	-d '{"codeId":"hello-world","code":"const message = \"Hello, World!\";\nconsole.log(JSON.stringify({ message }));"}' >/dev/null
curl -fs -X POST "$base/execute" -H 'Content-Type: application/json' -d '{"codeId":"hello-world"}' | grep -q '"success":true'

cat > "$work/execute.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"codeId":"hello-world"}'
wrk.headers["Content-Type"] = "application/json"
LUA

report() { # label, wrk output file
	awk -v label="$1" '
		/Requests\/sec/ { rps = $2 }
		/^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
		/Non-2xx/ { bad = $NF }
		END { printf "%-36s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n", label, rps, p50, p99, (bad == "" ? 0 : bad) }' "$2"
}

write_body='{"code": "write_file(\"out.txt\", \"x\".repeat(1024))", "language": "javascript", "conversationId": "bench"}'
curl -fs -X POST "$base/execute" -H 'Content-Type: application/json' -d "$write_body" | grep -q '"success":true'
printf 'wrk.method = "POST"\nwrk.body = [[%s]]\nwrk.headers["Content-Type"] = "application/json"\n' "$write_body" > "$work/write.lua"
wrk -t1 -c8 -d2s -s "$work/execute.lua" "$base/execute" > /dev/null # warm the workers

echo "wrk -t1 -d${secs}s --latency, $(nproc) cores shared by server and wrk"
for c in "${conns[@]}"; do
	wrk -t1 -c"$c" -d"${secs}s" --latency "$base/healthz" > "$work/healthz.txt"
	wrk -t1 -c"$c" -d"${secs}s" --latency -s "$work/execute.lua" "$base/execute" > "$work/execute.txt"
	report "GET /healthz, $c conn (baseline)" "$work/healthz.txt"
	report "POST /execute hello, $c conn" "$work/execute.txt"
done
wrk -t1 -c8 -d"${secs}s" --latency -s "$work/write.lua" "$base/execute" > "$work/write.txt"
report "POST /execute 1 KiB write, 8 conn" "$work/write.txt"
# A script that never ends, with a 1000 ms timeout: how long until the 408.
curl -fs -X PUT "$base/workspace" -H 'Content-Type: application/json' -d '{"codeId":"spin","code":"for (;;) {}"}' >/dev/null
worst=0
for _ in 1 2 3 4 5; do
	t=$(curl -s -o /dev/null -w '%{time_total}' -X POST "$base/execute" -H 'Content-Type: application/json' -d '{"codeId":"spin","timeout":1000}')
	worst=$(awk -v a="$worst" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
done

echo "timeout 1000 ms answered with 408 after at most $(awk -v t="$worst" 'BEGIN { printf "%.1f", t * 1000 }') ms (5 requests)"
