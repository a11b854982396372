#!/usr/bin/env bash
# Packs convfiles for npm, as esbuild ships its binaries: one package per
# platform (@convfiles/linux-x64, …) holding that platform's static
# binary, and the convfiles package, whose command runs the binary of the
# platform npm installed (its optional dependencies, one per platform).
# Tarballs only: nothing is published.
# Usage: release/npm.sh DIST VERSION   (DIST holds release/build.sh's binaries)
set -euo pipefail
cd "$(dirname "$0")/.."
dist="$1" version="$2"
# npm versions are semver: a tag v1.2.3 is 1.2.3; any other build is a
# pre-release of 0.0.0 named after its commit.
if [[ "$version" =~ ^v([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)$ ]]; then
	npm_version="${BASH_REMATCH[1]}"
else
	npm_version="0.0.0-g$(printf '%s' "$version" | tr -c '0-9A-Za-z' '-' | sed 's/^-*//; s/-*$//')"
fi
out="$dist/npm"
rm -rf "$out"
mkdir -p "$out"
optional=""
for target in linux/amd64:linux-x64 linux/arm64:linux-arm64 darwin/amd64:darwin-x64 darwin/arm64:darwin-arm64; do
	goos_arch="${target%%:*}" platform="${target#*:}"
	os="${goos_arch%/*}" cpu="${platform#*-}"
	stage="$(mktemp -d)/package"
	mkdir -p "$stage/bin"
	cp "$dist/convfiles-$version-$os-${goos_arch#*/}" "$stage/bin/convfiles"
	chmod 755 "$stage/bin/convfiles"
	cp LICENSE "$stage/"
	cat > "$stage/package.json" <<JSON
{
  "name": "@convfiles/$platform",
  "version": "$npm_version",
  "description": "The convfiles binary for $os on $cpu (installed by the convfiles package)",
  "license": "Apache-2.0",
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/convfiles", "LICENSE"],
  "preferUnplugged": true
}
JSON
	tar -czf "$out/convfiles-$platform-$npm_version.tgz" -C "$(dirname "$stage")" package
	rm -rf "$(dirname "$stage")"
	optional="$optional${optional:+,}
    \"@convfiles/$platform\": \"$npm_version\""
done
stage="$(mktemp -d)/package"
mkdir -p "$stage/bin"
cp release/npm/convfiles.js "$stage/bin/convfiles.js"
chmod 755 "$stage/bin/convfiles.js"
cp release/npm/README.md LICENSE "$stage/"
cat > "$stage/package.json" <<JSON
{
  "name": "convfiles",
  "version": "$npm_version",
  "description": "A safe, conversation-scoped place for the files of LLM agents: scripts, links, REST, MCP, a web page and a CLI",
  "license": "Apache-2.0",
  "bin": { "convfiles": "bin/convfiles.js" },
  "files": ["bin/convfiles.js", "README.md", "LICENSE"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {$optional
  }
}
JSON
tar -czf "$out/convfiles-$npm_version.tgz" -C "$(dirname "$stage")" package
rm -rf "$(dirname "$stage")"
ls -l "$out"
