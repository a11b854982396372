package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	stdpng "image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/ops"
)

// opSamples are well-formed inputs of the operations that came before
// ops.Op.Sample, without the file the case names (the first parameter).
// An operation the table gains declares its own Sample in ops, and
// TestEveryDoorHasEveryOperation fails when one has both or neither.
var opSamples = map[string]map[string]any{
	"list": {}, "list_deleted": {}, "info": {}, "read_text": {}, "line_count": {}, "delete": {}, "versions": {},
	"search_text": {"pattern": "x"}, "search": {"name": "x"}, "exists": {}, "tree": {}, "make_folder": {}, "move_folder": {"new_path": "moved-folder"}, "delete_folder": {}, "edit": {"edits": []any{map[string]any{"old": "doc", "new": "DOC"}}}, "read_bytes": {"offset": 0, "length": 1},
	"write_text": {"content": "x\n"}, "append_bytes": {"data": "eA=="}, "write_bytes": {"offset": 0, "data": "eA=="},
	"replace_lines": {"start_line": 1, "end_line": 1, "content": "x"}, "insert_lines": {"after_line": 0, "content": "x"},
	"create": {}, "copy": {"new_name": "copied.txt"}, "rename": {"new_name": "moved.txt"}, "restore": {"version": 1},

	"spreadsheet_list_sheets": {}, "spreadsheet_get_sheet_summary": {}, "spreadsheet_read_range": {"range": "A1:B2"},
	"spreadsheet_write_range": {"start": "A1", "values": [][]any{{"x"}}}, "spreadsheet_read_cell": {"cell": "A1"},
	"spreadsheet_write_cell": {"cell": "A1", "value": "x"}, "spreadsheet_add_sheet": {"name": "S2"},
	"spreadsheet_delete_sheet": {"name": "S2"}, "spreadsheet_insert_rows": {"at": 1, "count": 1},
	"spreadsheet_delete_rows": {"at": 1, "count": 1}, "spreadsheet_set_format": {"range": "A1", "format": map[string]any{"bold": true}},
	"spreadsheet_auto_filter": {"range": "A1:B2"},

	"pdf_info": {}, "pdf_extract_text": {}, "pdf_add_page": {}, "pdf_delete_page": {"page": 1},
	"pdf_add_text":        {"page": 1, "text": "x", "position": map[string]any{"x": 10, "y": 10}},
	"pdf_add_image":       {"page": 1, "image": "pic.png", "position": map[string]any{"x": 10, "y": 10}},
	"pdf_get_form_fields": {}, "pdf_fill_form": {"fields": map[string]any{"a": "b"}},
	"pdf_merge": {"output": "merged.pdf"}, "pdf_split_pages": {"ranges": []string{"1"}},

	"image_info": {}, "image_resize": {"width": 10}, "image_crop": {"region": map[string]any{"left": 0, "top": 0, "width": 1, "height": 1}},
	"image_convert": {"format": "png"}, "image_composite": {"overlays": []any{map[string]any{"image": "pic.png"}}},
	"image_to_base64": {},
}

// opCreates are the operations for which a missing file is not an
// error: they make it, named so.
var opCreates = map[string]string{"write_text": "made.txt", "append_bytes": "made.bin", "write_bytes": "made.dat",
	"spreadsheet_add_sheet": "made.xlsx", "spreadsheet_write_range": "made.xlsx", "spreadsheet_write_cell": "made.xlsx",
	"spreadsheet_create": "made.xlsx", "pdf_create": "made.pdf"}

// outcome is what a door answered: "ok", or an error's kind and message.
type outcome struct{ kind, msg string }

// doors calls one operation through every door of a real server (its
// scripts in workers) and the CLI on the same data folder.
type doors struct {
	t           *testing.T
	h           *hostileServer
	dir, config string
	conv        string
}

// with is the sample input of op with its first parameter set to file.
func with(op ops.Op, file any) map[string]any {
	in := map[string]any{}
	for k, v := range opSamples[op.Name] {
		in[k] = v
	}
	if op.Sample != "" {
		json.Unmarshal([]byte(op.Sample), &in)
	}
	if op.Name == "list" {
		in["pattern"] = file
		return in
	}
	in[op.Params[0]] = file
	return in
}

var kindOfStatus = map[int]string{200: "ok", 400: "invalid", 404: "not_found", 409: "conflict", 413: "too_large", 403: "forbidden"}

func (d *doors) rest(op ops.Op, in map[string]any) outcome {
	code, out := d.h.post("/api/conversations/"+d.conv+"/ops/"+op.Name, jsonOf(in))
	kind, ok := kindOfStatus[code]
	if !ok {
		kind = fmt.Sprint(code)
	}
	if kind == "ok" {
		return outcome{kind: "ok"}
	}
	e, _ := out["error"].(map[string]any)
	return outcome{kind, fmt.Sprint(e["message"])}
}

func (d *doors) script(op ops.Op, in map[string]any) outcome {
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
	code := `try { ` + fn + `(...` + string(a) + `); ({kind: "ok"}) } catch (e) { ({kind: e.kind, msg: e.message}) }`
	status, out := d.h.post("/execute", jsonOf(map[string]any{"code": code, "language": "js", "conversationId": d.conv}))
	res, _ := out["result"].(map[string]any)
	if status != 200 || res == nil {
		d.t.Fatalf("%s from a script: %d %s", op.Name, status, jsonOf(out))
	}
	msg, _ := res["msg"].(string)
	return outcome{fmt.Sprint(res["kind"]), msg}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (d *doors) mcp(op ops.Op, in map[string]any) (isError bool, text string) {
	args := map[string]any{"conversation_id": d.conv}
	for k, v := range in {
		args[k] = v
	}
	_, out := d.h.mcp(jsonOf(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": op.Tool, "arguments": args}}))
	res, _ := out["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) > 0 {
		text, _ = content[0].(map[string]any)["text"].(string)
	}
	return res["isError"] == true, text
}

func (d *doors) cli(op ops.Op, in map[string]any) outcome {
	var stdout, stderr bytes.Buffer
	code := run([]string{"call", "--config", d.config, "--data-dir", d.dir, "--conversation", d.conv, op.Name, jsonOf(in)},
		&env{stdout: &stdout, stderr: &stderr})
	if code == 0 {
		return outcome{kind: "ok"}
	}
	kind, msg, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(stderr.String(), "convfiles call: "), "\n"), ": ")
	return outcome{kind, msg}
}

// same calls op with in through every door and checks that each answers
// want, with one message. before, when set, runs before each door (to
// remove what the door before made).
func (d *doors) same(op ops.Op, in map[string]any, want string, before ...func()) {
	d.t.Helper()
	reset := func() {
		for _, f := range before {
			f()
		}
	}
	reset()
	rest := d.rest(op, in)
	if rest.kind != want {
		d.t.Errorf("%s %s over REST: %s %q, want %s", op.Name, jsonOf(in), rest.kind, rest.msg, want)
		return
	}
	reset()
	if js := d.script(op, in); js != rest {
		d.t.Errorf("%s %s: a script got %+v, REST %+v", op.Name, jsonOf(in), js, rest)
	}
	reset()
	if cli := d.cli(op, in); cli != rest {
		d.t.Errorf("%s %s: the CLI got %+v, REST %+v", op.Name, jsonOf(in), cli, rest)
	}
	reset()
	isErr, text := d.mcp(op, in)
	if isErr != (want != "ok") || (isErr && !strings.HasPrefix(text, op.Tool+": "+rest.msg)) {
		d.t.Errorf("%s %s: MCP answered isError=%v %q, REST %+v", op.Name, jsonOf(in), isErr, text, rest)
	}
}

// TestEveryDoorHasEveryOperation walks the table of operations: every
// door (script helpers, REST, MCP, CLI) exposes each one, and answers
// the same bad input with the same error: a missing file, a hostile
// name, and a name that is taken.
func TestEveryDoorHasEveryOperation(t *testing.T) {
	dir := t.TempDir()
	addr, stop := startServe(t, dir, func(c *Config) { c.RateLimit = RateLimitConfig{} })
	defer stop()
	config := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(config, nil, 0o600)
	d := &doors{t: t, h: &hostileServer{t: t, base: "http://" + addr}, dir: dir, config: config, conv: "doors"}

	all := ops.All()
	var listed struct {
		Result struct {
			Ops []struct{ Name, Tool, Script string }
		}
	}
	resp, err := http.Get(d.h.base + "/api/ops")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&listed)
	resp.Body.Close()
	_, tools := d.h.mcp(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var cliList bytes.Buffer
	run([]string{"call", "--config", config, "--data-dir", dir}, &env{stdout: &cliList, stderr: os.Stderr})
	for i, op := range all {
		if _, ok := opSamples[op.Name]; ok == (op.Sample != "") {
			t.Errorf("operation %s has a sample input in opSamples and in its Sample, or in neither: give it one, in ops", op.Name)
		}
		if i >= len(listed.Result.Ops) || listed.Result.Ops[i].Name != op.Name {
			t.Errorf("GET /api/ops does not list %s in its place", op.Name)
		}
		if !strings.Contains(jsonOf(tools), `"name":"`+op.Tool+`"`) {
			t.Errorf("MCP has no tool %s for %s", op.Tool, op.Name)
		}
		if !strings.Contains(cliList.String(), "\n"+op.Name+" ") {
			t.Errorf("convfiles call does not list %s", op.Name)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	write, _ := ops.Lookup("write_text")
	d.same(write, map[string]any{"id": "doc.txt", "content": "doc\n"}, "ok")
	d.same(write, map[string]any{"id": "other.txt", "content": "other\n"}, "ok")
	var png bytes.Buffer
	stdpng.Encode(&png, image.NewGray(image.Rect(0, 0, 4, 4)))
	appendBytes, _ := ops.Lookup("append_bytes")
	if d.rest(appendBytes, map[string]any{"id": "pic.png", "data": base64.StdEncoding.EncodeToString(png.Bytes())}).kind != "ok" {
		t.Fatal("cannot store pic.png")
	}
	remove, _ := ops.Lookup("delete")
	removeFolder, _ := ops.Lookup("delete_folder")
	for _, op := range all {
		hostile, missing, want := any("../escape.txt"), any("missing.txt"), "not_found"
		switch {
		case op.Name == "list":
			hostile, missing = "[", nil
		case op.Name == "search": // its first parameter is a pattern; a name is not found, not an error
			d.same(op, map[string]any{"name": "*.txt", "path": "../escape"}, "invalid")
			d.same(op, map[string]any{"pattern": "x", "path": "missing"}, "ok")
			continue
		case op.Name == "list_deleted": // it names no file: a bad page is its bad input
			d.same(op, map[string]any{"limit": 1000}, "invalid")
			d.same(op, map[string]any{"limit": 10}, "ok")
			continue
		case op.Name == "exists": // a missing name is an answer, not an error
			want = "ok"
		case op.Name == "make_folder":
			d.same(op, with(op, hostile), "invalid")
			d.same(op, with(op, "made-folder"), "ok", func() { d.rest(removeFolder, map[string]any{"path": "made-folder"}) })
			d.rest(removeFolder, map[string]any{"path": "made-folder"})
			continue
		case op.Name == "create":
			missing = nil // a new name is what it wants; a taken one is below
		case op.Name == "spreadsheet_from_rows": // it reads no file: its first parameter is the rows
			d.same(op, map[string]any{"rows": []any{[]any{"x"}}, "name": "../escape.xlsx"}, "invalid")
			continue
		case op.Name == "pdf_merge":
			hostile, missing = []any{hostile, hostile}, []any{missing, missing}
		case op.Name == "chart_render": // its first parameter is a spec; the file it names is data.url
			spec := func(url string) map[string]any {
				return map[string]any{"mark": "bar", "data": map[string]any{"url": url}, "encoding": map[string]any{
					"x": map[string]any{"field": "a", "type": "nominal"}, "y": map[string]any{"field": "b", "type": "quantitative"}}}
			}
			hostile, missing = spec("../escape.csv"), spec("missing.csv")
		case op.Name == "read_many": // a name that cannot be read is an entry of the answer, not its failure
			d.same(op, map[string]any{"ids": []any{}}, "invalid")
			d.same(op, map[string]any{"ids": []any{hostile, missing}}, "ok")
			continue
		case op.Name == "pdf_from_markdown": // its first parameter is Markdown; the files it names are its images
			hostile, missing = "![x](../escape.png)", "![x](missing.png)"
		case op.Name == "zip":
			hostile, missing = []any{"doc.txt", hostile}, []any{"doc.txt", missing}
		case opCreates[op.Name] != "":
			missing, want = opCreates[op.Name], "ok"
		}
		d.same(op, with(op, hostile), "invalid")
		switch {
		case opCreates[op.Name] != "":
			d.same(op, with(op, missing), want, func() { d.rest(remove, map[string]any{"id": missing}) })
		case missing != nil:
			d.same(op, with(op, missing), want)
		}
	}
	for _, c := range []struct {
		op string
		in map[string]any
	}{
		{"create", map[string]any{"name": "doc.txt"}},
		{"copy", map[string]any{"id": "doc.txt", "new_name": "other.txt"}},
		{"rename", map[string]any{"id": "doc.txt", "new_name": "other.txt"}},
		{"zip", map[string]any{"paths": []any{"doc.txt"}, "name": "other.txt"}},
	} {
		op, _ := ops.Lookup(c.op)
		d.same(op, c.in, "conflict")
	}
	for name, want := range map[string]string{"doc.txt": "doc\n", "other.txt": "other\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, "files", d.conv, name)); string(b) != want {
			t.Errorf("%s holds %q (%v) after the refused calls, want %q", name, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "escape.txt")); err == nil {
		t.Error("a hostile name wrote outside the conversation")
	}
}
