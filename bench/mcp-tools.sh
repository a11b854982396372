#!/usr/bin/env bash
# Measures what an MCP client downloads before its first call: the
# tools/list answer of convfiles mcp in its default (core) profile and
# with --tools all, beside the official MCP filesystem server's (installed
# from npm into a temporary folder), all over stdio in the same run.
# Prints tools and bytes of each answer's result. Needs node and npm.
# Usage: bench/mcp-tools.sh [filesystem-server-version]   (default: latest)
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-latest}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/convfiles" ./cmd/convfiles
(cd "$work" && npm install --silent --no-audit --no-fund "@modelcontextprotocol/server-filesystem@$version" >/dev/null 2>&1)
fsversion="$(node -p "require('$work/node_modules/@modelcontextprotocol/server-filesystem/package.json').version")"
mkdir -p "$work/root" "$work/data"

# session prints the tools/list answer of the server started by "$@".
session() {
  {
    echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    echo '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
    sleep 3
  } | XDG_DATA_HOME="$work/data" timeout 20 "$@" 2>/dev/null | grep '"id":2'
}

measure() {
  local label="$1"
  shift
  session "$@" | python3 -c '
import json, sys
answer = json.loads(sys.stdin.read())
result = json.dumps(answer["result"], separators=(",", ":"))
print("%-44s %3d tools %7d bytes" % (sys.argv[1], len(answer["result"]["tools"]), len(result)))
' "$label"
}

measure "convfiles mcp --conversation c (core)" "$work/convfiles" mcp --conversation c
measure "convfiles mcp (core, any conversation)" "$work/convfiles" mcp
measure "convfiles mcp --tools all --conversation c" "$work/convfiles" mcp --conversation c --tools all
measure "server-filesystem $fsversion" node "$work/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" "$work/root"
