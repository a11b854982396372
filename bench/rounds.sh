#!/usr/bin/env bash
# Runs benchmarks and their anchors in interleaved rounds and prints each
# figure's min / median / max over the rounds, with the machine's load
# before each round: a shared machine drifts, and interleaving spreads the
# drift over every side alike. The figures of issue 39's rows are what it
# runs by default.
# Usage: bench/rounds.sh [rounds]   (default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-4}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# package, pattern, go test flags: each a row and its anchors.
suites=(
	"./routes|LinkHandler|-benchtime 2s"
	"./runtime/lua|LuaVsJS/hello|-benchtime 5000x"
	"./formats|Resize4000|-benchtime 5x"
	"./ops|Search100kContent\$|Grep100k|Ripgrep100k|List100kGlob\$|Find100kGlob\$|-benchtime 3x"
)
for r in $(seq "$rounds"); do
	echo "round $r, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	for s in "${suites[@]}"; do
		pkg="${s%%|*}"
		rest="${s#*|}"
		flags="${rest##*|}"
		pat="${rest%|*}"
		# shellcheck disable=SC2086
		go test "$pkg" -run '^$' -bench "$pat" -count 1 $flags 2>/dev/null | grep '^Benchmark' >> "$out/all.txt" || true
	done
done

# Every "value unit" pair of every line, by benchmark and unit.
awk '{
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i += 2) print name, $(i+1), $i
}' "$out/all.txt" | sort -k1,1 -k2,2 -k3,3g | awk '
	function flush() {
		if (n == 0) return
		printf "%-44s %-14s min %12s  median %12s  max %12s  (%d rounds)\n", key, unit, v[1], v[int((n + 1) / 2)], v[n], n
	}
	{ k = $1 " " $2
	  if (k != prev) { flush(); n = 0; prev = k; key = $1; unit = $2 }
	  v[++n] = $3 }
	END { flush() }'
