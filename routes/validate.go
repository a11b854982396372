package routes

import (
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

// validateCodeID applies seed 002's codeId rules, in the order a user
// would fix them.
func validateCodeID(id any, present bool) *fieldError {
	const msg = "Invalid codeId format"
	if !present || id == nil {
		return invalid("codeId is required", "codeId", nil, "codeId must be provided")
	}
	s, ok := id.(string)
	switch {
	case !ok:
		return invalid(msg, "codeId", id, "codeId must be a string")
	case s == "":
		return invalid(msg, "codeId", s, "codeId must not be empty")
	case len(s) > MaxCodeIDLen:
		return invalid(msg, "codeId", s[:32]+"…", fmt.Sprintf("codeId must be at most %d characters", MaxCodeIDLen))
	case strings.ContainsAny(s, `/\`):
		return invalid(msg, "codeId", s, "codeId must not contain path separators")
	case strings.Contains(s, ".."):
		return invalid(msg, "codeId", s, "codeId must not contain parent directory references")
	}
	for _, c := range []byte(s) {
		if !isIDChar(c) {
			return invalid(msg, "codeId", s, "codeId must contain only alphanumeric characters, hyphens (-) and underscores (_)")
		}
	}
	return nil
}

func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// validateCode applies seed 002's code rules; the size check answers 413.
func validateCode(code any, present bool) (string, *fieldError) {
	if !present || code == nil {
		return "", invalid("code is required", "code", nil, "code must be provided")
	}
	s, ok := code.(string)
	switch {
	case !ok:
		return "", invalid("Invalid code", "code", fmt.Sprintf("%T", code), "code must be a string")
	case s == "":
		return "", invalid("Invalid code", "code", "", "code must not be empty")
	case len(s) > MaxCodeBytes:
		return "", &fieldError{status: 413, message: "Code size exceeds maximum allowed size",
			details: map[string]any{"maxSize": MaxCodeBytes, "actualSize": len(s)}}
	}
	return s, nil
}

var (
	envKey = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)
	// reservedEnv are names a script must not be handed: they steer
	// processes, loaders and runtimes, or convfiles itself.
	reservedEnv = map[string]bool{
		"PATH": true, "HOME": true, "USER": true, "SHELL": true, "PWD": true, "TMPDIR": true,
		"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "NODE_OPTIONS": true, "NODE_PATH": true,
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
		return nil, invalid("Invalid env", "env", fmt.Sprintf("%T", raw), "env must be an object of string values")
	}
	if len(obj) > MaxEnvEntries {
		return nil, invalid("Invalid env", "env", len(obj), fmt.Sprintf("env may hold at most %d entries", MaxEnvEntries))
	}
	env := make(map[string]string, len(obj))
	total := 0
	for k, v := range obj {
		s, ok := v.(string)
		switch {
		case !envKey.MatchString(k):
			return nil, invalid("Invalid env", "env", k, "env names must be upper-case letters, digits and underscores, not starting with a digit")
		case reservedEnv[k] || strings.HasPrefix(k, "CONVFILES_"):
			return nil, invalid("Invalid env", "env", k, "env name "+k+" is reserved")
		case !ok:
			return nil, invalid("Invalid env", "env", k, "env values must be strings")
		case len([]rune(s)) > MaxEnvValueLen:
			return nil, invalid("Invalid env", "env", k, fmt.Sprintf("env values may be at most %d characters", MaxEnvValueLen))
		}
		total += len(k) + len(s)
		env[k] = s
	}
	if total > MaxEnvTotalBytes {
		return nil, invalid("Invalid env", "env", total, fmt.Sprintf("env may hold at most %d bytes in all", MaxEnvTotalBytes))
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
		return m[2] + "\n"
	}
	return code
}
