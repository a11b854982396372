#!/usr/bin/env bash
# Cross-builds convfiles' release binaries: static (no cgo), for linux and
# darwin on amd64 and arm64, into dist/ with a SHA256SUMS file. The
# version is `git describe` (a tag, else the commit), also shown by
# `convfiles --version`. Each binary must be static; the one for this
# machine must run and say its version.
# It also packs the npm packages (release/npm.sh) into out-dir/npm.
# Usage: release/build.sh [out-dir]   (default dist)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
version="$(git describe --tags --always --dirty 2>/dev/null || echo dev)"
rm -rf "$out"
mkdir -p "$out"
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
	os="${target%/*}" arch="${target#*/}"
	bin="$out/convfiles-$version-$os-$arch"
	echo "building $bin"
	# nodynamic: the WebP codec's pure-Go build, not one that loads
	# libwebp through libc (which would make the binary dynamic).
	CGO_ENABLED=0 GOOS="$os" GOARCH="$arch" go build -trimpath -tags nodynamic \
		-ldflags "-s -w -X main.version=$version" -o "$bin" ./cmd/convfiles
	# A dynamically linked Linux binary names its loader (ld-linux…).
	if [ "$os" = linux ] && grep -qa 'ld-linux' "$bin"; then
		echo "$bin is not static: it names a dynamic loader" >&2
		exit 1
	fi
done
(cd "$out" && sha256sum convfiles-* > SHA256SUMS)
native="$out/convfiles-$version-$(go env GOOS)-$(go env GOARCH)"
if [ -x "$native" ]; then
	got="$("$native" --version)"
	[ "$got" = "convfiles $version" ] || { echo "$native --version said '$got', not 'convfiles $version'" >&2; exit 1; }
	echo "$got"
fi
ls -l "$out"
release/npm.sh "$out" "$version"
