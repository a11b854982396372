// Drives convfiles' MCP server with the official TypeScript MCP SDK client.
//
//   node interop.mjs stdio <conversation> <command> [args...]
//   node interop.mjs http <conversation> <url>
//   node interop.mjs http-refused <conversation> <url>
//
// With CONVFILES_TOKEN set, the HTTP client sends it as a bearer token (a
// hosted server). http-refused connects without one and passes only when
// the server refuses it with 401 and a WWW-Authenticate challenge that
// names the protected-resource metadata.
//
// It checks what an MCP client relies on and exits non-zero, saying what
// failed, at the first surprise. The conversation must already hold
// pixel.png (the Go test puts it there); its SHA-256 is in PIXEL_SHA256.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, conv, target, ...rest] = process.argv.slice(2);
if (mode === "http-refused") {
  const seen = [];
  const fetchSeen = async (url, init) => { const r = await fetch(url, init); seen.push(r); return r; };
  const refused = new Client({ name: "convfiles-interop", version: "1.0.0" });
  await assert.rejects(refused.connect(new StreamableHTTPClientTransport(new URL(target), { fetch: fetchSeen })),
    "a hosted server accepted an MCP client without a token");
  const first = seen[0];
  assert.equal(first.status, 401);
  const challenge = first.headers.get("www-authenticate") || "";
  assert.match(challenge, /^Bearer /);
  assert.match(challenge, /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource"/);
  const meta = await (await fetch(new URL("/.well-known/oauth-protected-resource", target))).json();
  assert.ok(meta.resource.endsWith("/mcp"), `metadata names ${meta.resource}`);
  console.log("ok: refused without a token (401, " + challenge + ")");
  process.exit(0);
}
const headers = process.env.CONVFILES_TOKEN ? { Authorization: `Bearer ${process.env.CONVFILES_TOKEN}` } : {};
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: target, args: rest, env: process.env, stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
const client = new Client({ name: "convfiles-interop", version: "1.0.0" });
const updates = [];
const waiters = [];
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  updates.push(n.params.uri);
  for (const w of waiters.splice(0)) w();
});
await client.connect(transport);
const steps = [];
const step = (name) => steps.push(name);

// call calls a tool that must succeed and returns its structured answer.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: { conversation_id: conv, ...args } });
  assert.ok(!res.isError, `${name} failed: ${JSON.stringify(res.content)}`);
  return res;
}

// Tools and their schemas.
const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
for (const name of ["file_list", "file_info", "file_read_text", "file_write_text", "file_replace_lines",
  "file_create", "file_delete", "file_download", "file_read_media", "file_versions", "file_restore", "execute_script"]) {
  assert.ok(byName[name], `tool ${name} is missing`);
  assert.ok(byName[name].description.length > 20, `${name} has no description`);
  const schema = byName[name].inputSchema;
  assert.equal(schema.type, "object");
  for (const [p, s] of Object.entries(schema.properties)) {
    assert.ok(s.description && s.description.length > 5, `${name}.${p} has no description`);
  }
  // A server started for one conversation (stdio here) does not ask for it.
  assert.equal(!!schema.properties.conversation_id, mode !== "stdio", `${name} and conversation_id`);
}
const rt = byName.file_read_text.inputSchema;
assert.equal(rt.properties.id.type, "string");
assert.equal(rt.properties.start_line.type, "integer");
assert.equal(rt.properties.end_line.type, "integer");
assert.deepEqual(rt.required, ["id"]);
assert.deepEqual([...byName.file_replace_lines.inputSchema.required].sort(), ["content", "end_line", "id", "start_line"]);
// code or script (toolscript's name): neither is required alone.
assert.ok(byName.execute_script.inputSchema.properties.code && byName.execute_script.inputSchema.properties.script);
assert.ok(byName.execute_script.inputSchema.properties.timeout_ms);
assert.ok(byName.execute_script.inputSchema.properties.language.enum.includes("ts"));
assert.ok(byName.file_info.outputSchema.properties.sha256, "file_info has no output schema");
// A tool whose answer can be long answers its JSON as one text, with no
// structured copy and so no output schema.
assert.equal(byName.file_read_text.outputSchema, undefined, "file_read_text declares an output schema");
step("list tools and check their schemas");

// Write, read, line-range read, replace lines.
let res = await call("file_write_text", { id: "notes.txt", content: "alpha\nbeta\ngamma\ndelta" });
assert.deepEqual(res.structuredContent, { ok: true, size: 22 });
step("write");
res = await call("file_read_text", { id: "notes.txt" });
assert.equal(res.structuredContent, undefined, "a long answer comes twice");
let answer = JSON.parse(res.content[0].text);
assert.equal(answer.content, "alpha\nbeta\ngamma\ndelta");
assert.equal(answer.total_lines, 4);
step("read");
res = await call("file_read_text", { id: "notes.txt", start_line: 2, end_line: 3 });
answer = JSON.parse(res.content[0].text);
assert.equal(answer.content, "beta\ngamma\n");
assert.equal(answer.total_lines, 4);
step("line-range read");
res = await call("file_replace_lines", { id: "notes.txt", start_line: 2, end_line: 3, content: "BETA" });
assert.deepEqual(res.structuredContent, { ok: true, total_lines: 3 });
res = await call("file_read_text", { id: "notes.txt" });
assert.equal(JSON.parse(res.content[0].text).content, "alpha\nBETA\ndelta");
step("replace lines");

// Media read of a PNG.
res = await call("file_read_media", { id: "pixel.png" });
const image = res.content.find((c) => c.type === "image");
assert.ok(image, `no image content in ${JSON.stringify(res.content).slice(0, 200)}`);
assert.equal(image.mimeType, "image/png");
const sha = createHash("sha256").update(Buffer.from(image.data, "base64")).digest("hex");
assert.equal(sha, process.env.PIXEL_SHA256, "the image's bytes differ from the file's");
step("media read of a PNG");

// Subscribe to a resource, change it from a script, see the update.
const uri = `convfiles://${conv}/watched.txt`;
await client.subscribeResource({ uri });
const updated = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no resources/updated for ${uri}; got ${JSON.stringify(updates)}`)), 10000);
  const check = () => (updates.includes(uri) ? (clearTimeout(timer), resolve()) : waiters.push(check));
  check();
});
res = await call("execute_script", { code: 'write_file("watched.txt", "seen"); console.log("wrote"); 6 * 7', language: "js" });
assert.equal(res.structuredContent.result, 42);
assert.deepEqual(res.structuredContent.logs, ["wrote"]);
const touched = res.structuredContent.files_touched;
assert.equal(touched.length, 1);
assert.equal(touched[0].name, "watched.txt");
assert.equal(touched[0].op, "write");
assert.equal(touched[0].bytes, 4);
assert.ok(!("stats" in res.structuredContent), "execute_script returns timing stats");
step("execute a script and see its files_touched");
await updated;
step("subscribe to a resource and receive its update");

// TypeScript, and a script error as a tool error.
res = await call("execute_script", { code: "const n: number = 2; n + 1", language: "ts" });
assert.equal(res.structuredContent.result, 3);
res = await client.callTool({ name: "execute_script", arguments: { conversation_id: conv, code: 'console.log("before"); throw new Error("boom")' } });
assert.ok(res.isError);
assert.match(res.content[0].text, /boom/);
assert.deepEqual(res.structuredContent.logs, ["before"]);
step("TypeScript and script errors");

// Resources: listing and reading.
const listed = await client.listResources();
const mine = listed.resources.find((r) => r.uri === `convfiles://${conv}/notes.txt`);
assert.ok(mine, `notes.txt is not listed: ${JSON.stringify(listed.resources.map((r) => r.uri))}`);
assert.equal(mine.mimeType, "text/plain");
const read = await client.readResource({ uri: mine.uri });
assert.equal(read.contents[0].text, "alpha\nBETA\ndelta");
const blob = await client.readResource({ uri: `convfiles://${conv}/pixel.png` });
assert.equal(blob.contents[0].mimeType, "image/png");
assert.ok(blob.contents[0].blob.length > 0);
const templates = await client.listResourceTemplates();
assert.equal(templates.resourceTemplates[0].uriTemplate, "convfiles://{conversation_id}/{+name}");
step("list and read resources");

// The prompt, with the conversation's files.
const prompt = await client.getPrompt({ name: "convfiles", arguments: { conversation_id: conv } });
const text = prompt.messages[0].content.text;
assert.match(text, /write_file\(/);
assert.match(text, /notes\.txt/);
step("get the prompt with the file list");

// Hostile input is a tool error, not a protocol error.
res = await client.callTool({ name: "file_read_text", arguments: { conversation_id: conv, id: "../../etc/passwd" } });
assert.ok(res.isError);
assert.match(res.content[0].text, /\.\./);
step("hostile name refused with isError");

await client.close();
console.log(JSON.stringify({ ok: true, transport: mode, steps }));
