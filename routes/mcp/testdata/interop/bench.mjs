// Measures MCP tool calls per second over stdio, with the official
// TypeScript SDK client, for convfiles and for the official MCP filesystem
// server, in the same run: 1 KiB writes, then reads of the same files.
// Given the binary of bench/mcpanchor too, it measures that floor as well:
// the same Go SDK and transport with nothing but a durable write and a
// read behind them.
//
//   node bench.mjs <convfiles-binary> [calls] [rounds] [in-flight] [mcpanchor-binary]
//
// With in-flight 1 (the default) calls are sequential, as an LLM client
// makes them; with more, that many calls are kept in flight at once (a
// client running sub-agents in parallel). Prints one JSON line per server
// and operation with the median, min and max of the rounds, which run
// interleaved.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, callsArg = "2000", roundsArg = "5", inflightArg = "1", anchorBin] = process.argv.slice(2);
const calls = Number(callsArg), rounds = Number(roundsArg), inflight = Number(inflightArg);
const content = "x".repeat(1023) + "\n"; // 1 KiB
const names = 100;

async function connect(command, args, env) {
  const client = new Client({ name: "convfiles-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: "ignore" }));
  return client;
}

// timed makes n calls of fn(i), inflight at a time, and returns the
// seconds they took.
async function timed(n, fn) {
  const start = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const res = await fn(next++);
      if (res.isError) throw new Error(JSON.stringify(res.content));
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);

// measure runs the rounds interleaved, each round every server's writes
// then reads, so that a shared machine's drift falls on every server alike,
// and prints each server's and operation's min / median / max.
async function measure(servers) {
  for (const s of servers) {
    await timed(200, s.write); // warm up: every name exists, caches are hot
    await timed(200, s.read);
    s.w = [];
    s.r = [];
  }
  for (let k = 0; k < rounds; k++) {
    for (const s of servers) s.w.push(calls / (await timed(calls, s.write)));
    for (const s of servers) s.r.push(calls / (await timed(calls, s.read)));
  }
  for (const s of servers) {
    for (const [op, xs] of [["write 1 KiB", s.w], ["read 1 KiB", s.r]]) {
      const o = sorted(xs);
      console.log(JSON.stringify({ server: s.label, op, in_flight: inflight, calls_per_s: Math.round(o[Math.floor((o.length - 1) / 2)]),
        min: Math.round(o[0]), max: Math.round(o[o.length - 1]), rounds: xs.map(Math.round) }));
    }
    await s.client.close();
  }
}

const work = mkdtempSync(join(tmpdir(), "convfiles-mcp-bench-"));
try {
  const cf = await connect(bin, ["mcp", "--conversation", "bench"],
    { XDG_DATA_HOME: join(work, "data"), XDG_CONFIG_HOME: join(work, "config") });
  const root = join(work, "fs");
  (await import("node:fs")).mkdirSync(root);
  const server = fileURLToPath(new URL("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));
  const fs = await connect(process.execPath, [server, root], {});
  const servers = [
    { label: "convfiles", client: cf,
      write: (i) => cf.callTool({ name: "file_write_text", arguments: { id: `f${i % names}.txt`, content } }),
      read: (i) => cf.callTool({ name: "file_read_text", arguments: { id: `f${i % names}.txt` } }) },
    { label: "server-filesystem", client: fs,
      write: (i) => fs.callTool({ name: "write_file", arguments: { path: join(root, `f${i % names}.txt`), content } }),
      read: (i) => fs.callTool({ name: "read_text_file", arguments: { path: join(root, `f${i % names}.txt`) } }) },
  ];
  if (anchorBin) {
    const bare = join(work, "bare");
    (await import("node:fs")).mkdirSync(bare);
    const sdk = await connect(anchorBin, [bare], {});
    servers.push({ label: "go-sdk-bare", client: sdk,
      write: (i) => sdk.callTool({ name: "write_file", arguments: { path: `f${i % names}.txt`, content } }),
      read: (i) => sdk.callTool({ name: "read_text_file", arguments: { path: `f${i % names}.txt` } }) });
  }
  await measure(servers);
} finally {
  rmSync(work, { recursive: true, force: true });
}
