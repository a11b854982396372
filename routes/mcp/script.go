package mcp

import (
	"convfiles/auth"
	"convfiles/ops"
	"encoding/json"
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
	Code     string   `json:"code"`
	Language string   `json:"language,omitempty"`
	Timeout  *float64 `json:"timeout,omitempty"`
}

// scriptOut is seed 001's answer, without its timing stats: the result,
// the logs and the final state of every file touched, plus the error when
// the script failed.
type scriptOut struct {
	Result       any                  `json:"result"`
	Logs         []string             `json:"logs"`
	FilesTouched []runtime.Touched    `json:"files_touched"`
	Error        *runtime.ScriptError `json:"error,omitempty"`
}

// narrowInputs adds to a tool's derived input schema what Go types cannot
// say: allowed values and ranges.
var narrowInputs = map[string]func(*jsonschema.Schema){
	"execute_script": func(schema *jsonschema.Schema) {
		schema.Properties["language"].Enum = []any{"js", "ts", "javascript", "typescript", "lua", "luau"}
		schema.Properties["timeout"].Minimum = jsonschema.Ptr(0.001)
		schema.Properties["timeout"].Maximum = jsonschema.Ptr(MaxScriptTimeout.Seconds())
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
	out.Properties["result"] = &jsonschema.Schema{Types: []string{"null", "boolean", "number", "string", "array", "object"},
		Description: "the script's return value or last expression, as JSON"}
	return addTool(s, name, hints{destructive: true}, out, s.executeScript)
}

// executeScript runs the script. A script that fails is a tool error whose
// text starts with why, followed by the report: what it logged and wrote
// before it failed.
func (s *Server) executeScript(c *call, in scriptIn) (*sdk.CallToolResult, error) {
	if err := ops.Authorize(c.ctx, c.conv, auth.Execute); err != nil {
		return nil, err
	}
	lang, err := runtime.ParseLanguage(in.Language)
	if err != nil {
		return nil, files.E("execute_script", files.KindInvalid, in.Language, "language must be js (JavaScript), ts (TypeScript) or lua (Lua 5.1)", nil)
	}
	var timeout time.Duration
	if in.Timeout != nil {
		timeout = time.Duration(*in.Timeout * float64(time.Second))
		if timeout < time.Millisecond || timeout > MaxScriptTimeout {
			return nil, files.E("execute_script", files.KindInvalid, "", "timeout must be a number of seconds from 0.001 to 300", nil)
		}
	}
	// No file name: the runner names the script after its language.
	req := runtime.Request{Source: in.Code, Language: lang, Timeout: timeout, Session: c.session}
	if c.sp != nil {
		req.Space = ops.ForPrincipal(c.ctx, c.sp) // the helpers do what the credential may
	}
	rep, runErr := s.cfg.Runner.Run(c.ctx, req)
	if rep == nil {
		return nil, runErr
	}
	out := scriptOut{Logs: rep.Logs, FilesTouched: rep.FilesTouched, Error: rep.Error}
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
