package mcp

import (
	"convfiles/auth"
	"convfiles/ops"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/files"
	"convfiles/runtime"
)

// MaxScriptTimeout is the longest timeout execute_script accepts.
const MaxScriptTimeout = 300 * time.Second

type scriptIn struct {
	Scope
	Code     string   `json:"code,omitempty" jsonschema:"the script's source, JavaScript unless language says otherwise"`
	Script   string   `json:"script,omitempty" jsonschema:"a Lua (Luau) script, as toolscript and code-mcp send it: Lua unless language says otherwise"`
	Language string   `json:"language,omitempty" jsonschema:"js, ts or lua; the default is js for code and lua for script"`
	Timeout  *float64 `json:"timeout,omitempty" jsonschema:"seconds; timeout_ms is the same in milliseconds"`
	// TimeoutMS is toolscript's spelling of the timeout.
	TimeoutMS *float64 `json:"timeout_ms,omitempty" jsonschema:"the same as timeout, in milliseconds"`
}

// source is the script's code and its timeout (0: the server's), from
// either spelling of each.
func (in scriptIn) source() (string, time.Duration, error) {
	code := in.Code
	switch {
	case in.Code != "" && in.Script != "":
		return "", 0, files.E("execute_script", files.KindInvalid, "", "give the script as code or as script, not both", nil)
	case in.Code == "":
		code = in.Script
	}
	if strings.TrimSpace(code) == "" {
		return "", 0, files.E("execute_script", files.KindInvalid, "", "code is required: the script to run (script is the same)", nil)
	}
	if in.Timeout != nil && in.TimeoutMS != nil {
		return "", 0, files.E("execute_script", files.KindInvalid, "", "give timeout (seconds) or timeout_ms, not both", nil)
	}
	seconds := in.Timeout
	if in.TimeoutMS != nil {
		s := *in.TimeoutMS / 1000
		seconds = &s
	}
	if seconds == nil {
		return code, 0, nil
	}
	timeout := time.Duration(*seconds * float64(time.Second))
	if timeout < time.Millisecond || timeout > MaxScriptTimeout {
		return "", 0, files.E("execute_script", files.KindInvalid, "", "timeout must be a number of seconds from 0.001 to 300 (timeout_ms: 1 to 300000)", nil)
	}
	return code, timeout, nil
}

// language is the language asked for: the explicit one, else Lua for a
// script (the seeds' tools take Lua under that name and never a language)
// and JavaScript for code.
func (in scriptIn) language() string {
	if in.Language == "" && in.Code == "" && in.Script != "" {
		return "lua"
	}
	return in.Language
}

// scriptOut is seed 001's answer, without its timing stats: the result,
// the logs and the final state of every file touched, plus the error when
// the script failed.
type scriptOut struct {
	Result       any               `json:"result"`
	Logs         []string          `json:"logs"`
	FilesTouched []runtime.Touched `json:"files_touched"`
	// FilesWritten is code-mcp's report of the same (seed 000): the
	// files that exist after the run, with their host paths.
	FilesWritten []runtime.Written    `json:"files_written"`
	Error        *runtime.ScriptError `json:"error,omitempty"`
}

// narrowInputs adds to a tool's derived input schema what Go types cannot
// say: allowed values and ranges.
var narrowInputs = map[string]func(*jsonschema.Schema){
	"execute_script": func(schema *jsonschema.Schema) {
		schema.Properties["language"].Enum = []any{"js", "ts", "javascript", "typescript", "lua", "luau"}
		schema.Properties["timeout"].Minimum = jsonschema.Ptr(0.001)
		schema.Properties["timeout"].Maximum = jsonschema.Ptr(MaxScriptTimeout.Seconds())
		schema.Properties["timeout_ms"].Minimum = jsonschema.Ptr(1.0)
		schema.Properties["timeout_ms"].Maximum = jsonschema.Ptr(float64(MaxScriptTimeout.Milliseconds()))
	},
}

func (s *Server) addScriptTool() error {
	const name = "execute_script"
	// The result is any JSON value. Derived from "any", its schema would be
	// the boolean schema true, which clients that expect an object (the
	// TypeScript SDK) refuse; listing the types says the same.
	out, err := jsonschema.For[scriptOut](nil)
	if err != nil {
		return err
	}
	out.Properties["result"] = &jsonschema.Schema{Types: []string{"null", "boolean", "number", "string", "array", "object"}}
	return addTool(s, name, hints{destructive: true}, out, s.executeScript)
}

// scriptsWithoutConversation reports whether an execute_script call that
// names no conversation runs in the io folder.
func (s *Server) scriptsWithoutConversation(name, conv string) bool {
	return name == "execute_script" && conv == "" && s.cfg.Conversation == "" && s.cfg.IO != nil
}

// executeScript runs the script. A script that fails is a tool error whose
// text starts with why, followed by the report: what it logged and wrote
// before it failed.
func (s *Server) executeScript(c *call, in scriptIn) (*sdk.CallToolResult, error) {
	if err := ops.Authorize(c.ctx, c.conv, auth.Execute); err != nil {
		return nil, err
	}
	lang, err := runtime.ParseLanguage(in.language())
	if err != nil {
		return nil, files.E("execute_script", files.KindInvalid, in.Language, "language must be js (JavaScript), ts (TypeScript) or lua (Lua 5.1)", nil)
	}
	code, timeout, err := in.source()
	if err != nil {
		return nil, err
	}
	// No file name: the runner names the script after its language.
	req := runtime.Request{Source: code, Language: lang, Timeout: timeout, Session: c.session}
	if c.sp != nil {
		req.Space = ops.ForPrincipal(c.ctx, c.sp) // the helpers do what the credential may
	}
	rep, runErr := s.cfg.Runner.Run(c.ctx, req)
	if rep == nil {
		return nil, runErr
	}
	out := scriptOut{Logs: rep.Logs, FilesTouched: rep.FilesTouched, FilesWritten: runtime.FilesWritten(rep.FilesTouched, req.Space), Error: rep.Error}
	if out.Logs == nil {
		out.Logs = []string{}
	}
	if out.FilesTouched == nil {
		out.FilesTouched = []runtime.Touched{}
	}
	if len(rep.Result) > 0 {
		if err := json.Unmarshal(rep.Result, &out.Result); err != nil {
			return nil, err
		}
	}
	res, err := structured(out)
	if err != nil || rep.Error == nil {
		return res, err
	}
	res.IsError = true
	text := res.Content[0].(*sdk.TextContent)
	text.Text = rep.Error.Error() + "\n" + text.Text
	return res, nil
}
