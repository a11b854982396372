#!/usr/bin/env bash
# Installs the npm packages release/npm.sh packed (no registry upload)
# into a throwaway folder with npm, as a user's npx would, and runs them:
# `npx convfiles --version`, then an MCP initialize and tools/list
# through `npx convfiles mcp`.
# Usage: release/npm-check.sh DIST   (DIST holds release/build.sh's output)
set -euo pipefail
dist="$(cd "$1" && pwd)"
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) platform=linux-x64 ;;
Linux-aarch64) platform=linux-arm64 ;;
Darwin-x86_64) platform=darwin-x64 ;;
Darwin-arm64) platform=darwin-arm64 ;;
*) echo "no convfiles npm package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
main="$(ls "$dist"/npm/convfiles-[0-9]*.tgz)"
native="$(ls "$dist"/npm/convfiles-$platform-*.tgz)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
echo '{"name": "npm-check", "private": true}' > package.json
: > none.toml # no configuration: the defaults
# The platform package from its tarball satisfies the main package's
# optional dependency on it; the other platforms' are skipped (os, cpu).
npm install --no-audit --no-fund --loglevel=error "$native" "$main"
want="convfiles $(ls "$dist" | sed -n 's/^convfiles-\(.*\)-linux-amd64$/\1/p')"
got="$(npx --no-install convfiles --version)"
[ "$got" = "$want" ] || { echo "npx convfiles --version said '$got', want '$want'" >&2; exit 1; }
echo "$got"
# A client's order: initialize, its answer, then the rest.
coproc MCP { exec npx --no-install convfiles mcp --data-dir "$work/data" --config "$work/none.toml" 2>"$work/mcp.log"; }
out="${MCP[1]}" in="${MCP[0]}"
ask() { # ask REQUEST WANT...: send a line, read the answer, check it
	local request="$1" answer
	shift
	printf '%s\n' "$request" >&"$out"
	if ! IFS= read -r -t 60 answer <&"$in"; then
		echo "npx convfiles mcp did not answer $request" >&2
		cat "$work/mcp.log" >&2
		exit 1
	fi
	for want in "$@"; do
		grep -q "$want" <<<"$answer" || { echo "npx convfiles mcp answered without $want: ${answer:0:2000}" >&2; exit 1; }
	done
	echo "$answer"
}
ask '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"npm-check","version":"1"}}}' \
	'"id":1' '"serverInfo"' >/dev/null
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' >&"$out"
tools="$(ask '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' '"id":2' '"name":"file_read_text"' '"name":"execute_script"')"
exec {out}>&- # stdin closed: the server ends
wait "$MCP_PID"
echo "npx convfiles mcp: initialize and tools/list answered ($(grep -o '"name":"[a-z_]*"' <<<"$tools" | sort -u | wc -l) tools)"
