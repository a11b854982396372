package routes

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/ops"
	"convfiles/runtime"
)

// executeResult is the success answer of POST /execute.
type executeResult struct {
	Success       bool              `json:"success"`
	Result        json.RawMessage   `json:"result"`
	Logs          []string          `json:"logs"`
	FilesTouched  []runtime.Touched `json:"files_touched"`
	FilesWritten  []runtime.Written `json:"files_written"`
	ExecutionTime float64           `json:"executionTime"` // milliseconds
}

// handleExecute is POST /execute: {codeId | code, language?,
// conversationId?, timeout?, env?}. It runs the code and answers its report.
func (s *Server) handleExecute(w http.ResponseWriter, r *http.Request) {
	req, body, ok := s.codeRequest(w, r)
	if !ok {
		return
	}
	space, release, err := s.scriptSpace(r.Context(), body)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	defer release()
	if space != nil {
		// The script's helpers get what the credential may do: a read and
		// execute credential's script reads, and its writes are refused.
		req.Space = ops.ForPrincipal(r.Context(), space)
	}
	start := time.Now()
	s.running.Add(1)
	rep, runErr := s.runner.Run(r.Context(), req)
	s.running.Add(-1)
	elapsed := float64(time.Since(start).Microseconds()) / 1000
	s.log.Info("execute", "file", req.Filename, "language", req.Language, "ms", elapsed, "ok", runErr == nil)
	if runErr == nil {
		result := rep.Result
		if rep.NoValue { // what the Workspace Execute API answers for text printed, or nothing
			result = printedResult(rep.Printed)
		}
		writeJSON(w, http.StatusOK, executeResult{Success: true, Result: result, Logs: rep.Logs, FilesTouched: rep.FilesTouched, FilesWritten: runtime.FilesWritten(rep.FilesTouched, req.Space), ExecutionTime: elapsed})
		return
	}
	status, typ, msg := http.StatusInternalServerError, "ExecutionError", rep.Error.Message
	details := map[string]any{"kind": rep.Error.Type, "logs": rep.Logs, "files_touched": rep.FilesTouched, "executionTime": elapsed}
	switch rep.Error.Type {
	case runtime.TypeTimeout:
		// The Workspace API's message, and convfiles' own as the reason.
		status, typ = http.StatusRequestTimeout, "TimeoutError"
		msg, details["reason"] = fmt.Sprintf("Code execution timed out after %dms", req.Timeout.Milliseconds()), rep.Error.Message
		details["timeout"] = req.Timeout.Milliseconds()
	case runtime.TypeLimit:
		// A memory, stack, output or CPU limit: the script's, with a type
		// and status of its own, not a crash of convfiles.
		status, typ = http.StatusUnprocessableEntity, "LimitError"
	case runtime.TypeBusy:
		w.Header().Set("Retry-After", "2")
		status, typ = http.StatusTooManyRequests, "BusyError"
	case runtime.TypeInternal:
		typ = "InternalError"
	}
	if rep.Error.Stack != "" {
		details["stack"] = rep.Error.Stack
	}
	if rep.Error.Limit != "" {
		details["limit"] = rep.Error.Limit
	}
	if rep.Error.Line > 0 {
		details["line"], details["column"] = rep.Error.Line, rep.Error.Column
	}
	writeJSON(w, status, envelope{Error: &errorBody{Type: typ, Message: msg, Details: details}})
}

// codeRequest admits, decodes and validates the body of /execute or
// /lint, answering any failure itself (ok is false then).
func (s *Server) codeRequest(w http.ResponseWriter, r *http.Request) (req runtime.Request, body map[string]any, ok bool) {
	if !s.admit(w, r) {
		return req, nil, false
	}
	body, ferr := decodeBody(w, r)
	if ferr != nil {
		writeFieldError(w, ferr)
		return req, nil, false
	}
	req, ok = s.parseExecute(w, r, body)
	return req, body, ok
}

// parseExecute validates everything of an /execute body but the
// conversation, answering the error itself when ok is false.
func (s *Server) parseExecute(w http.ResponseWriter, r *http.Request, body map[string]any) (req runtime.Request, ok bool) {
	req.Timeout = DefaultTimeoutMS * time.Millisecond
	if raw, has := body["timeout"]; has && raw != nil {
		ms, fe := validateTimeout(raw)
		if fe != nil {
			writeFieldError(w, fe)
			return req, false
		}
		req.Timeout = time.Duration(ms) * time.Millisecond
	}
	if raw, has := body["language"]; has && raw != nil {
		name, _ := raw.(string)
		lang, err := runtime.ParseLanguage(name)
		if err != nil || name == "" {
			writeFieldError(w, invalid("Invalid language", "language", raw, `language must be "typescript" ("ts"), "javascript" ("js") or "lua" ("luau")`))
			return req, false
		}
		req.Language = lang
	}
	env, ferr := validateEnv(body["env"])
	if ferr != nil {
		writeFieldError(w, ferr)
		return req, false
	}
	req.Env = env
	req.Source, req.Filename, ok = s.loadCode(w, r, body)
	if req.Filename == "inline.ts" && req.Language != "" { // inline code is TypeScript unless the request says
		req.Filename = "inline" + req.Language.Ext()
	}
	return req, ok
}

// scriptSpace picks the files a script works on: its conversation's, or
// the default folder, or none when script file access is off.
func (s *Server) scriptSpace(ctx context.Context, body map[string]any) (*engine.Space, func(), error) {
	none := func() {}
	if err := ops.AuthorizeScope(ctx, auth.Execute); err != nil {
		return nil, none, err
	}
	raw, has := body["conversationId"]
	if has && raw != nil {
		id, isStr := raw.(string)
		if !isStr {
			return nil, none, files.E("execute", files.KindInvalid, fmt.Sprint(raw), "conversationId must be a string", nil)
		}
		if err := files.ValidateConversationID(id); err != nil {
			return nil, none, err
		}
		if err := ops.Authorize(ctx, id, auth.Execute); err != nil {
			return nil, none, err
		}
		if !s.scripts.enabled {
			return nil, none, nil
		}
		sp, err := s.open(ctx, id, auth.Execute)
		if err != nil {
			return nil, none, err
		}
		return sp, func() { sp.Close() }, nil
	}
	if p := auth.FromContext(ctx); !s.scripts.enabled || p.Bound() {
		// The default folder is everyone's: a credential bound to some
		// conversations runs without files unless it names one.
		return nil, none, nil
	}
	return s.scripts.def, none, nil
}

// lintResult is the result of POST /lint: convfiles' verdict and
// diagnostics, in the shape deno lint --json gives them (seed 002's
// linter): version, diagnostics each with a range, filename, message and
// code, errors (the code's syntax errors) and checkedFiles.
type lintResult struct {
	Valid        bool          `json:"valid"`
	Version      int           `json:"version"`
	Diagnostics  []lintFinding `json:"diagnostics"`
	Errors       []lintError   `json:"errors"`
	CheckedFiles []string      `json:"checkedFiles"`
}

// lintFinding is one diagnostic: convfiles' fields (line, column,
// severity; 1-based) and deno lint's (range with 0-based columns,
// filename, code, hint).
type lintFinding struct {
	runtime.Diagnostic
	Range    lintRange `json:"range"`
	Filename string    `json:"filename"`
	Hint     string    `json:"hint,omitempty"`
}

type lintRange struct {
	Start lintPos `json:"start"`
	End   lintPos `json:"end"`
}

type lintPos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// lintError is a syntax error as deno lint lists it.
type lintError struct {
	FilePath string `json:"file_path"`
	Message  string `json:"message"`
}

// handleLint is POST /lint: {codeId | code, language?} → the code's
// syntax errors and the warnings of ESLint's rules, without running it.
func (s *Server) handleLint(w http.ResponseWriter, r *http.Request) {
	req, body, ok := s.codeRequest(w, r)
	if !ok {
		return
	}
	start := time.Now()
	diags := s.runner.Lint(r.Context(), req.Filename, req.Source, req.Language)
	file := req.Filename
	if _, saved := body["codeId"]; saved && s.work != nil {
		file = s.work.HostPath(file)
	}
	out := lintResult{Valid: true, Version: 1, Diagnostics: []lintFinding{}, Errors: []lintError{}, CheckedFiles: []string{file}}
	for _, d := range diags {
		end := lintPos{Line: max(d.EndLine, d.Line), Col: max(d.EndColumn, d.Column) - 1}
		f := lintFinding{Diagnostic: d, Filename: file, Range: lintRange{Start: lintPos{Line: d.Line, Col: d.Column - 1}, End: end}}
		if d.Code == "" {
			f.Code = "syntax-error"
		}
		if d.Severity == "error" {
			out.Valid = false
			out.Errors = append(out.Errors, lintError{FilePath: file, Message: fmt.Sprintf("%s:%d:%d: %s", file, d.Line, d.Column, d.Message)})
		}
		out.Diagnostics = append(out.Diagnostics, f)
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	writeJSON(w, http.StatusOK, envelope{Success: true, Result: out, ExecutionTime: &ms})
}

// printedResult is the Workspace Execute API's result (seed 002) for a
// script that left no value and printed no JSON: its output, trimmed, or
// null, wrapped as {success, result}.
func printedResult(printed string) json.RawMessage {
	out := map[string]any{"success": true, "result": nil}
	if printed != "" {
		out["result"] = printed
	}
	b, _ := json.Marshal(out)
	return b
}
