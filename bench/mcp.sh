#!/usr/bin/env bash
# MCP tool calls per second over stdio, driven by the official TypeScript
# SDK client, for convfiles, for the official MCP filesystem server and for
# bench/mcpanchor (the same Go SDK with only a durable write and a read
# behind it: the floor) in the same run: 1 KiB writes, then reads of the
# same files.
# Usage: bench/mcp.sh [calls] [rounds] [in-flight]
#   (default 2000 calls, 5 rounds, 1 call in flight)
set -euo pipefail
cd "$(dirname "$0")/.."
interop=routes/mcp/testdata/interop
[ -d "$interop/node_modules" ] || (cd "$interop" && npm ci --no-audit --no-fund --loglevel=error)
bin="$(mktemp -d)/convfiles"
go build -o "$bin" ./cmd/convfiles
go build -o "$(dirname "$bin")/mcpanchor" ./bench/mcpanchor
mkdir -p bench/out
node "$interop/bench.mjs" "$bin" "${1:-2000}" "${2:-5}" "${3:-1}" "$(dirname "$bin")/mcpanchor" | tee "bench/out/mcp-${3:-1}.txt"
