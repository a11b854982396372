#!/usr/bin/env bash
# Runs the distributed-mode measurements of BENCHMARKS.md in one run, each
# next to its baseline, against real PostgreSQL and Versity S3 Gateway
# servers the benchmarks start on 127.0.0.1 and stop:
#   links from S3 through a replica (relayed, and for 64 MiB also by a redirect
#   to the store) against GETs straight from S3,
#   uploads per second through 1, 2 and 3 replicas (and where the CPU went),
#   a 1 GiB upload to S3 against the same upload to the data folder (peak RSS).
# Usage: bench/distributed.sh [count]   (default 6 runs of the link benchmark)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-6}"
out=bench/out
mkdir -p "$out"
export PATH="$PATH:$HOME/go/bin"

go test ./cmd/convfiles -run '^$' -bench S3Links -benchtime 3s -count "$count" | tee "$out/s3links.txt" >&2
go test ./cmd/convfiles -run '^$' -bench ReplicaWrites -benchtime 3000x -count 3 | tee "$out/replicawrites.txt" >&2
CONVFILES_BIG_TESTS=1 go test ./cmd/convfiles -run 'TestGiBUpload' -count 1 -v | tee "$out/gibupload.txt" >&2

# median of metric UNIT for benchmark NAME in FILE
median() {
	awk -v name="$2" -v unit="$3" '
		$1 ~ "^Benchmark" name "(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == unit) print $i }' "$out/$1" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "NaN"; else print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }'
}
range() {
	awk -v name="$2" -v unit="$3" '
		$1 ~ "^Benchmark" name "(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == unit) print $i }' "$out/$1" |
		sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "–" hi }'
}

echo
echo "## distributed mode ($count runs of the links, 3 of the writes; medians)"
for size in 4KiB 4KiB-uncached 64MiB 64MiB-redirect; do
	echo "link $size: convfiles $(median s3links.txt "S3Links/$size" convfiles-µs/get) µs, S3 direct $(median s3links.txt "S3Links/$size" s3-µs/get) µs, ratio $(median s3links.txt "S3Links/$size" ratio) ($(range s3links.txt "S3Links/$size" ratio))"
done
for n in 1 2 3; do
	b="ReplicaWrites/replicas=$n"
	echo "writes with $n replica(s): $(median replicawrites.txt "$b" writes/s) writes/s ($(range replicawrites.txt "$b" writes/s)); CPU ms per write: replicas $(median replicawrites.txt "$b" cpu-ms/write-replicas), postgres $(median replicawrites.txt "$b" cpu-ms/write-postgres), s3 $(median replicawrites.txt "$b" cpu-ms/write-s3), clients $(median replicawrites.txt "$b" cpu-ms/write-client)"
done
grep -E 'peak memory' "$out/gibupload.txt" | sed 's/^ *//'
