package routes

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Limits of the Workspace Save/Execute API (seed 002).
const (
	MaxCodeBytes     = 10 << 20 // one saved or inline script
	MaxCodeIDLen     = 255
	MaxEnvEntries    = 50
	MaxEnvValueLen   = 1000
	MaxEnvTotalBytes = 10 << 10
	MinTimeoutMS     = 1
	MaxTimeoutMS     = 300000
	DefaultTimeoutMS = 5000
)

// fieldError is a validation failure with the details seed 002's
// ValidationError carries: which field, the value sent, and why.
type fieldError struct {
	status  int
	message string
	details map[string]any
}

// Error returns the message.
func (e *fieldError) Error() string { return e.message }

func invalid(message, field string, value any, reason string) *fieldError {
	return &fieldError{status: 400, message: message, details: map[string]any{"field": field, "value": value, "reason": reason}}
}

// maxCodeIDFile is the longest codeId whose file, <codeId>.ts, a
// filesystem can name (255 bytes a name).
const maxCodeIDFile = 255 - len(".ts")

// The checks below use the Workspace API's own messages (restexec's
// validation): clients match on them. details.reason adds what to do.

// validateCodeID applies seed 002's codeId rules, in the order a user
// would fix them.
func validateCodeID(id any, present bool) *fieldError {
	if !present || id == nil || id == "" {
		reason := "codeId must be provided"
		if id == "" {
			reason = "codeId must not be empty"
		}
		return invalid("codeId is required", "codeId", nil, reason)
	}
	s, ok := id.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return invalid("codeId must be a non-empty string", "codeId", id, "codeId must be a string of letters, digits, - and _")
	}
	shown := s
	if len(s) > 64 {
		shown = s[:32] + "…"
	}
	if strings.ContainsAny(s, `/\`) || strings.Contains(s, "..") {
		const msg = "codeId must not contain path separators or parent directory references"
		return invalid(msg, "codeId", shown, msg+" (/, \\ or ..)")
	}
	for _, c := range []byte(s) {
		if !isIDChar(c) {
			const msg = "codeId must contain only alphanumeric characters, hyphens, and underscores"
			return invalid(msg, "codeId", shown, msg+" (A-Z, a-z, 0-9, - and _)")
		}
	}
	switch {
	case len(s) > MaxCodeIDLen:
		msg := fmt.Sprintf("codeId must not exceed %d characters", MaxCodeIDLen)
		return invalid(msg, "codeId", shown, msg)
	case len(s) > maxCodeIDFile:
		msg := fmt.Sprintf("codeId must not exceed %d characters", maxCodeIDFile)
		return invalid(msg, "codeId", shown, fmt.Sprintf("code is saved as <codeId>.ts, and a file name may have at most 255 bytes; this codeId has %d characters", len(s)))
	}
	return nil
}

func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// validateCode applies seed 002's code rules; the size check answers 413.
// Code of white space only is refused: there is nothing to run.
func validateCode(code any, present bool) (string, *fieldError) {
	if !present || code == nil {
		return "", invalid("code is required", "code", nil, "code must be provided")
	}
	s, ok := code.(string)
	switch {
	case !ok:
		return "", invalid("code must be a string", "code", fmt.Sprintf("%T", code), "code must be a string")
	case strings.TrimSpace(s) == "":
		return "", invalid("code must not be empty", "code", "", "code must not be empty or white space only")
	case len(s) > MaxCodeBytes:
		return "", &fieldError{status: 413, message: "Code size exceeds maximum allowed size",
			details: map[string]any{"field": "code", "maxSize": MaxCodeBytes, "actualSize": len(s)}}
	}
	return s, nil
}

// validateTimeout checks an /execute or /lint timeout: a whole number of
// milliseconds in range.
func validateTimeout(raw any) (ms int64, fe *fieldError) {
	n, isNum := raw.(json.Number)
	ms, err := n.Int64()
	if !isNum || err != nil {
		return 0, invalid("timeout must be an integer", "timeout", raw, "timeout is a whole number of milliseconds")
	}
	if ms < MinTimeoutMS || ms > MaxTimeoutMS {
		msg := fmt.Sprintf("timeout must be between %d and %d", MinTimeoutMS, MaxTimeoutMS)
		return 0, invalid(msg, "timeout", raw, msg+" milliseconds")
	}
	return ms, nil
}

var (
	envKey = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)
	// reservedEnv are names a script must not be handed: they steer
	// processes, loaders and runtimes, or convfiles itself (restexec's
	// list and more). So are DENO_* and CONVFILES_*.
	reservedEnv = map[string]bool{
		"PATH": true, "HOME": true, "USER": true, "SHELL": true, "PWD": true, "TMPDIR": true, "TEMP": true, "TMP": true,
		"HOSTNAME": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "NODE_OPTIONS": true, "NODE_PATH": true,
		"DENO_DIR": true, "PYTHONPATH": true, "GODEBUG": true, "GOGC": true, "GOMAXPROCS": true,
	}
)

// validateEnv checks the env of an /execute request: upper-case names, at
// most 50 entries, values of at most 1000 characters, 10 KB in all, no
// reserved name.
func validateEnv(raw any) (map[string]string, *fieldError) {
	if raw == nil {
		return nil, nil
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, invalid("env must be an object", "env", fmt.Sprintf("%T", raw), "env must be an object of string values")
	}
	if len(obj) > MaxEnvEntries {
		msg := fmt.Sprintf("env must not exceed %d entries", MaxEnvEntries)
		return nil, invalid(msg, "env", len(obj), msg)
	}
	env := make(map[string]string, len(obj))
	total := 0
	for k, v := range obj {
		s, ok := v.(string)
		switch {
		case !envKey.MatchString(k):
			return nil, invalid("env keys must contain only uppercase letters, numbers, and underscores", "env", k, "env names are upper-case letters, digits and underscores, not starting with a digit")
		case reservedEnv[k] || strings.HasPrefix(k, "CONVFILES_") || strings.HasPrefix(k, "DENO_"):
			msg := fmt.Sprintf("env key %q is forbidden", k)
			return nil, invalid(msg, "env", k, "env name "+k+" is reserved: it steers the runtime or the server")
		case !ok:
			return nil, invalid("env values must be strings", "env", k, "env values must be strings")
		case len([]rune(s)) > MaxEnvValueLen:
			return nil, invalid(fmt.Sprintf("env value for %q exceeds maximum length", k), "env", k, fmt.Sprintf("env values may be at most %d characters", MaxEnvValueLen))
		}
		total += len(k) + len(s)
		env[k] = s
	}
	if total > MaxEnvTotalBytes {
		return nil, invalid("env total size exceeds maximum allowed size", "env", total, fmt.Sprintf("env may hold at most %d bytes in all", MaxEnvTotalBytes))
	}
	return env, nil
}

// fence matches a fenced code block of TypeScript or JavaScript.
var fence = regexp.MustCompile("(?s)```[ \t]*(ts|typescript|js|javascript)[ \t]*\r?\n(.*?)\r?\n?```")

// extractFence returns the first ```ts, ```typescript, ```js or
// ```javascript block of code, or code itself when it holds none (seed 002,
// phase 2): LLM answers often wrap code in markdown.
func extractFence(code string) string {
	if m := fence.FindStringSubmatch(code); m != nil {
		return m[2]
	}
	return code
}
