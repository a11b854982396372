#!/usr/bin/env bash
# Runs every benchmark BENCHMARKS.md reports, each next to its baseline in
# the same run, and prints the medians and ratios that go into the table.
# Usage: bench/run.sh [count]   (default 6 runs of each benchmark)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-6}"
out=bench/out
mkdir -p "$out"

run() { # file, package, pattern, extra args...
	local file=$1 pkg=$2 pat=$3
	shift 3
	go test "$pkg" -run '^$' -bench "$pat" -count "$count" "$@" | tee "$out/$file" >&2
}

# SUMMARY_ONLY=1 bench/run.sh reprints the table from the last run's output.
if [ -z "${SUMMARY_ONLY:-}" ] && [ -z "${FORMATS:-}" ] && [ -z "${CORE:-}" ] && [ -z "${SANDBOX:-}" ]; then
	run hello.txt ./runtime 'HelloWorld|TypeScript' -benchtime 2s
	run writeread-disk.txt ./runtime 'WriteReadMiB' -benchtime 500x
	CONVFILES_BENCH_DIR=/dev/shm run writeread-tmpfs.txt ./runtime 'WriteReadMiB' -benchtime 500x
	run link.txt ./routes 'Link' -benchtime 2s
	go test ./runtime/js -run '^$' -bench 'RunawayOvershoot' -benchtime 1x -count 1 | tee "$out/runaway.txt" >&2
	# The file workspace (issue 4).
	run list.txt ./sqlite 'List100k' -benchtime 10x
	run readlines.txt ./files 'ReadLinesGiB' -benchtime 20x
	run upload.txt ./routes 'UploadVsCp' -benchtime 2x
	run events.txt ./routes 'EventLatency' -benchtime 1x
fi
# One core for every door (issue 14); CORE=1 runs only these.
if [ -n "${CORE:-}" ]; then
	run core-list.txt ./sqlite 'List100k' -benchtime 10x
	run core-reconcile.txt ./sqlite 'Reconcile100k' -benchtime 1x
	run core-writeread.txt ./runtime 'WriteReadMiB' -benchtime 300x
	run core-write.txt ./files 'Write1KiB' -benchtime 3000x
	run core-upload.txt ./routes 'UploadVsCp' -benchtime 2x
	echo
	echo "## issue 14 ($count runs each, medians)"
	ms() { awk -v m="$1" 'BEGIN { printf "%.1f", m / 1e6 }'; }
	for v in ops-list-page index-glob-page index-glob-all disk-walk-glob; do
		echo "listing 100k, $v: $(ms "$(awk -v n="List100k/$v" '$1 ~ "^Benchmark" n "(-[0-9]+)?$" { print $3 }' bench/out/core-list.txt | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR+1)/2)] }')") ms"
	done
	awk '/Reconcile100k/ { print }' bench/out/core-reconcile.txt
	awk '/WriteReadMiB(Indexed|GoDurable)-/ { print $1, $3 }' bench/out/core-writeread.txt
	awk '/Write1KiB/ { print $1, $3 }' bench/out/core-write.txt
	awk '/UploadVsCp/ { print }' bench/out/core-upload.txt
	exit 0
fi
# Scripts in worker processes (issue 13); SANDBOX=1 runs only these.
if [ -n "${SANDBOX:-}" ]; then
	run sandbox.txt ./sandbox 'Execute|HelperCall' -benchtime 3000x
	exit 0
fi
# Format-aware files (issue 6); FORMATS=1 runs only these.
if [ -z "${SUMMARY_ONLY:-}" ] || [ -n "${FORMATS:-}" ]; then
	run formats.txt ./formats 'Summary200k|ExtractText100|Resize4000' -benchtime 2x
	run imageinfo.txt ./formats 'ImageInfo' -benchmem
	run readfile.txt ./files 'ReadFile40MiB' -benchmem
fi

# median VALUE of metric UNIT for benchmark NAME in FILE
median() {
	awk -v name="$2" -v unit="$3" '
		$1 ~ "^Benchmark" name "(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == unit) print $i }' "$out/$1" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "NaN"; else print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo
echo "## results ($count runs each, medians)"
h=$(median hello.txt HelloWorld p50-µs); hb=$(median hello.txt HelloWorldBareGoja p50-µs)
echo "hello-world run: p50 ${h} µs (bare goja ${hb} µs), p99 $(median hello.txt HelloWorld p99-µs) µs"
echo "TypeScript hello-world: new source p50 $(median hello.txt TypeScriptCold p50-µs) µs, cached p50 $(median hello.txt TypeScriptCached p50-µs) µs"
for fs in disk tmpfs; do
	c=$(median writeread-$fs.txt WriteReadMiB ns/op)
	g=$(median writeread-$fs.txt WriteReadMiBGoBaseline ns/op)
	d=$(median writeread-$fs.txt WriteReadMiBGoDurable ns/op)
	ix=$(median writeread-$fs.txt WriteReadMiBIndexed ns/op)
	echo "write+read 1 MiB ($fs), indexed with versions as the server runs: ${ix} ns (ratio to os.WriteFile $(ratio "$ix" "$g"))"
	echo "write+read 1 MiB ($fs): convfiles ${c} ns, os.WriteFile+ReadFile ${g} ns (ratio $(ratio "$c" "$g")), durable Go ${d} ns (ratio $(ratio "$c" "$d"))"
done
for f in small.bin big.bin; do
	echo "link $f: convfiles $(median link.txt "Link/$f" convfiles-ns/req) ns/req, http.FileServer $(median link.txt "Link/$f" fileserver-ns/req) ns/req, throughput ratio $(median link.txt "Link/$f" ratio)"
done
echo "runaway scripts (ms past the timeout, or in all when a limit stopped them early):"
awk '/^BenchmarkRunawayOvershoot\// { sub(/^BenchmarkRunawayOvershoot\//, "", $1); sub(/-[0-9]+$/, "", $1); print "  " $1 ": " $(NF-1) }' "$out/runaway.txt"
echo "listing 100,000 files with the glob *.csv (10,000 match):"
for v in index-glob-page index-glob-all index-glob-all-sorted-by-size disk-walk-glob; do
	echo "  $v: $(awk -v m="$(median list.txt "List100k/$v" ns/op)" 'BEGIN { printf "%.1f", m / 1e6 }') ms"
done
echo "readText lines 500,000-500,010 of 1 GiB: $(median readlines.txt ReadLinesGiB/convfiles ns/op) ns (bufio.Scanner baseline $(median readlines.txt ReadLinesGiB/scan-baseline ns/op) ns)"
up=$(median upload.txt UploadVsCp/upload MB/s); cp=$(median upload.txt UploadVsCp/cp MB/s); cps=$(median upload.txt "UploadVsCp/cp[+]sync" MB/s)
echo "upload 256 MiB: ${up} MB/s; cp ${cp} MB/s (ratio $(ratio "$up" "$cp")); cp+sync ${cps} MB/s (ratio $(ratio "$up" "$cps"))"
for c in browser go-client; do
	echo "event latency, write to $c: p50 $(median events.txt "EventLatency/$c" p50-ms) ms, p99 $(median events.txt "EventLatency/$c" p99-ms) ms"
done
echo "format operations (medians; peak-MiB is the rise of peak resident memory over rest):"
for pair in Summary200k/excelize ExtractText100/ledongthuc Resize4000/imaging; do
	op=${pair%%/*} lib=${pair#*/}
	c=$(median formats.txt "$op/convfiles" ns/op); l=$(median formats.txt "$op/$lib" ns/op)
	echo "  $op: convfiles $(ratio "$c" 1e6) ms, peak +$(median formats.txt "$op/convfiles" peak-MiB) MiB; $lib alone $(ratio "$l" 1e6) ms, peak +$(median formats.txt "$op/$lib" peak-MiB) MiB; ratio $(ratio "$c" "$l")"
done
echo "image.info of a 4.6 MB JPEG: convfiles $(median imageinfo.txt ImageInfo/convfiles ns/op) ns, $(median imageinfo.txt ImageInfo/convfiles B/op) B/op; image.DecodeConfig $(median imageinfo.txt ImageInfo/DecodeConfig ns/op) ns"
echo "ReadFile of 40 MiB: convfiles $(median readfile.txt ReadFile40MiB/convfiles ns/op) ns, $(median readfile.txt ReadFile40MiB/convfiles B/op) B/op; os.ReadFile $(median readfile.txt ReadFile40MiB/os.ReadFile ns/op) ns, $(median readfile.txt ReadFile40MiB/os.ReadFile B/op) B/op"
