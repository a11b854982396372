#!/usr/bin/env bash
# GET of a 4 KiB file by its link, with wrk over loopback, against nginx,
# Go's http.FileServer, a bare net/http handler answering from memory and
# the same handler sending the nine headers of a convfiles link
# ("headers"), in interleaved rounds. For each server: requests a second, and the
# server's own CPU per request (user + system time of its processes, read
# from /proc, over the requests it answered). Prints min / median / max
# over the rounds, then the ratios the issue asks for. Needs wrk and nginx
# (Debian: wrk nginx-light).
# Usage: bench/links.sh [rounds] [seconds] [connections]   (default 4 5 32)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-4}" secs="${2:-5}" conns="${3:-32}"
for c in wrk nginx; do
	command -v "$c" >/dev/null || [ -x "/usr/sbin/$c" ] || { echo "$c is not installed (apt-get install wrk nginx-light)" >&2; exit 1; }
done
nginx="$(command -v nginx || echo /usr/sbin/nginx)"

work="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/convfiles" ./cmd/convfiles
go build -o "$work/linkanchors" ./bench/linkanchors
freeport() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pc="$(freeport)" pn="$(freeport)" pf="$(freeport)" pb="$(freeport)" ph="$(freeport)"

mkdir -p "$work/www"
chmod 755 "$work" "$work/www" # nginx's workers run as its own user
head -c 4096 /dev/zero | tr '\0' z > "$work/www/small.txt"
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
"$work/convfiles" call --conversation bench write_text id=small.txt "content=$(cat "$work/www/small.txt")" > /dev/null
cat > "$work/config.toml" <<TOML
[server]
address = "127.0.0.1:$pc"
[ratelimit]
per_client = 0
per_code_id = 0
global = 0
TOML
"$work/convfiles" serve --config "$work/config.toml" 2> "$work/serve.log" &
pids+=($!)
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
	access_log off;
	sendfile on;
	client_body_temp_path $work/nginx-body;
	proxy_temp_path $work/nginx-proxy;
	fastcgi_temp_path $work/nginx-fastcgi;
	uwsgi_temp_path $work/nginx-uwsgi;
	scgi_temp_path $work/nginx-scgi;
	server { listen 127.0.0.1:$pn; root $work/www; }
}
CONF
"$nginx" -c "$work/nginx.conf" -g 'daemon off;' 2> "$work/nginx.log" &
pids+=($!)
"$work/linkanchors" -dir "$work/www" -file small.txt -fileserver "127.0.0.1:$pf" -bare "127.0.0.1:$pb" -headers "127.0.0.1:$ph" &
pids+=($!)
declare -A url=(
	[nginx]="http://127.0.0.1:$pn/small.txt"
	[fileserver]="http://127.0.0.1:$pf/small.txt"
	[bare]="http://127.0.0.1:$pb/small.txt"
	[headers]="http://127.0.0.1:$ph/small.txt"
	[convfiles]="http://127.0.0.1:$pc/files/bench/small.txt"
)
declare -A pid=([nginx]="${pids[1]}" [fileserver]="${pids[2]}" [bare]="${pids[2]}" [headers]="${pids[2]}" [convfiles]="${pids[0]}")
for s in "${!url[@]}"; do
	for _ in $(seq 100); do curl -fs -o /dev/null "${url[$s]}" && break; sleep 0.1; done
	n="$(curl -fs "${url[$s]}" | wc -c)" || true
	[ "$n" = 4096 ] || { echo "$s did not answer the 4 KiB file (got $n bytes; see its log in $work)" >&2; tail -n 3 "$work"/*.log >&2; exit 1; }
done

# cputicks PID: user + system clock ticks of PID and its children.
cputicks() {
	local t=0 p
	for p in "$1" $(pgrep -P "$1" || true); do
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
	done
	echo "$t"
}
hz="$(getconf CLK_TCK)"
: > "$work/results"
for r in $(seq "$rounds"); do
	echo "round $r, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	for s in nginx fileserver bare headers convfiles; do
		before="$(cputicks "${pid[$s]}")"
		wrk -t1 -c"$conns" -d"${secs}s" "${url[$s]}" > "$work/wrk.txt"
		after="$(cputicks "${pid[$s]}")"
		awk -v s="$s" -v ticks=$((after - before)) -v hz="$hz" '
			/requests in/ { n = $1 } /Requests\/sec/ { rps = $2 } /Non-2xx/ { bad = $NF }
			END { if (bad) { print s " answered " bad " errors" > "/dev/stderr"; exit 1 }
			      printf "%s %.0f %.2f\n", s, rps, ticks / hz * 1e6 / n }' "$work/wrk.txt" >> "$work/results"
	done
done

echo "wrk -t1 -c$conns -d${secs}s, $rounds interleaved rounds; $(nproc) cores shared by wrk and the server"
sort -k1,1 -k2,2n "$work/results" | awk '
	function flush() { if (n) printf "%-11s req/s  min %7d  median %7d  max %7d\n", key, a[1], a[int((n + 1) / 2)], a[n] }
	$1 != key { flush(); key = $1; n = 0 } { a[++n] = $2 } END { flush() }'
sort -k1,1 -k3,3g "$work/results" | awk '
	function flush() { if (n) printf "%-11s CPU µs per request  min %6.1f  median %6.1f  max %6.1f\n", key, a[1], a[int((n + 1) / 2)], a[n] }
	$1 != key { flush(); key = $1; n = 0 } { a[++n] = $3 } END { flush() }'
# The ratios of the medians.
med() { # server, column
	awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$work/results" | sort -g | awk '{ a[++n] = $1 } END { print a[int((n + 1) / 2)] }'
}
awk -v cr="$(med convfiles 2)" -v nr="$(med nginx 2)" -v br="$(med bare 2)" -v cc="$(med convfiles 3)" -v fc="$(med fileserver 3)" \
	-v bc="$(med bare 3)" -v hc="$(med headers 3)" 'BEGIN {
	printf "convfiles / nginx throughput: %.2f×   bare / nginx throughput: %.2f×\n", cr / nr, br / nr
	printf "CPU per request against http.FileServer: convfiles %.2f×   bare %.2f×   bare with a link'"'"'s headers %.2f×\n", cc / fc, bc / fc, hc / fc
}'
