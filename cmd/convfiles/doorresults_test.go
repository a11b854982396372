package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"convfiles/ops"
)

// answer is what one door answered: the result as JSON values, or an
// error's kind and message.
type answer struct {
	door   string
	result map[string]any
	outcome
}

// answers calls op with in through every door (REST, a script, the CLI,
// MCP) in turn, running before ahead of each, and returns what each
// answered. A script's camelCase keys are given back in snake_case, so
// the answers compare field by field.
func (d *doors) answers(op ops.Op, in map[string]any, before func()) []answer {
	d.t.Helper()
	var out []answer
	before()
	code, rest := d.h.post("/api/conversations/"+d.conv+"/ops/"+op.Name, jsonOf(in))
	out = append(out, d.restAnswer(code, rest))
	before()
	out = append(out, d.scriptAnswer(op, in))
	before()
	out = append(out, d.cliAnswer(op, in))
	before()
	out = append(out, d.mcpAnswer(op, in))
	return out
}

func (d *doors) restAnswer(code int, body map[string]any) answer {
	if code == 200 {
		res, _ := body["result"].(map[string]any)
		if res == nil {
			res = body
		}
		return answer{door: "REST", result: res, outcome: outcome{kind: "ok"}}
	}
	e, _ := body["error"].(map[string]any)
	return answer{door: "REST", outcome: outcome{kindOfStatus[code], fmt.Sprint(e["message"])}}
}

func (d *doors) scriptAnswer(op ops.Op, in map[string]any) answer {
	var args []any
	for _, p := range op.Params {
		if strings.HasPrefix(p, "...") {
			rest := map[string]any{}
			for k, v := range in {
				if !contains(op.Params, k) {
					rest[k] = v
				}
			}
			args = append(args, rest)
			continue
		}
		args = append(args, in[p])
	}
	fn := "files." + op.JS
	if op.Group != "" {
		fn = "files." + op.Group + "." + op.JS
	}
	a, _ := json.Marshal(args)
	// A helper that answers a list (its tool's Unwrap) is given back as
	// the tool's object, with the list's total and next page.
	u, _ := json.Marshal(op.Unwrap)
	code := `try { const r = ` + fn + `(...` + string(a) + `); ({kind: "ok", result: Array.isArray(r) ? {[` + string(u) + `]: r, total: r.total, next_offset: r.next_offset} : r}) } catch (e) { ({kind: e.kind, msg: e.message}) }`
	status, out := d.h.post("/execute", jsonOf(map[string]any{"code": code, "language": "js", "conversationId": d.conv}))
	res, _ := out["result"].(map[string]any)
	if status != 200 || res == nil {
		d.t.Fatalf("%s from a script: %d %s", op.Name, status, jsonOf(out))
	}
	msg, _ := res["msg"].(string)
	result, _ := res["result"].(map[string]any)
	snake := map[string]any{}
	for k, v := range result {
		snake[snakeCase(k)] = v
	}
	return answer{door: "script", result: snake, outcome: outcome{fmt.Sprint(res["kind"]), msg}}
}

func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (d *doors) cliAnswer(op ops.Op, in map[string]any) answer {
	var stdout, stderr bytes.Buffer
	code := run([]string{"call", "--config", d.config, "--data-dir", d.dir, "--conversation", d.conv, op.Name, jsonOf(in)},
		&env{stdout: &stdout, stderr: &stderr})
	if code != 0 {
		kind, msg, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(stderr.String(), "convfiles call: "), "\n"), ": ")
		return answer{door: "CLI", outcome: outcome{kind, msg}}
	}
	var res map[string]any
	json.Unmarshal(stdout.Bytes(), &res)
	return answer{door: "CLI", result: res, outcome: outcome{kind: "ok"}}
}

func (d *doors) mcpAnswer(op ops.Op, in map[string]any) answer {
	args := map[string]any{"conversation_id": d.conv}
	for k, v := range in {
		args[k] = v
	}
	_, out := d.h.mcp(jsonOf(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": op.Tool, "arguments": args}}))
	res, _ := out["result"].(map[string]any)
	if res["isError"] == true {
		content, _ := res["content"].([]any)
		text := ""
		if len(content) > 0 {
			text, _ = content[0].(map[string]any)["text"].(string)
		}
		return answer{door: "MCP", outcome: outcome{kind: "error", msg: strings.TrimPrefix(text, op.Tool+": ")}}
	}
	sc, _ := res["structuredContent"].(map[string]any)
	if content, _ := res["content"].([]any); sc == nil && len(content) > 0 { // a long answer: its text is the JSON
		text, _ := content[0].(map[string]any)["text"].(string)
		json.Unmarshal([]byte(text), &sc)
	}
	return answer{door: "MCP", result: sc, outcome: outcome{kind: "ok"}}
}
