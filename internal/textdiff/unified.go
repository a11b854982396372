package textdiff

import (
	"fmt"
	"strings"
)

// Unified is the unified diff that turns before into after, headed
// "--- a/name" and "+++ b/name"; "" when they are equal. A last line
// without a newline is marked as diff marks it. The answer is cut at
// maxBytes (0: no bound) at a line's end, and truncated says so.
func Unified(name, before, after string, maxBytes int) (diff string, truncated bool) {
	if before == after {
		return "", false
	}
	ops := script(splitLines(before), splitLines(after))
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	for _, h := range hunks(ops) {
		var body strings.Builder
		fmt.Fprintf(&body, "@@ -%s +%s @@\n", span(h.aStart, h.aLen), span(h.bStart, h.bLen))
		for _, o := range ops[h.from:h.to] {
			body.WriteByte(o.kind)
			body.WriteString(o.line)
			if !strings.HasSuffix(o.line, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		if maxBytes > 0 && b.Len()+body.Len() > maxBytes {
			return b.String(), true
		}
		b.WriteString(body.String())
	}
	return b.String(), false
}

// hunk is a run of ops[from:to] with its line spans in both texts
// (1-based starts).
type hunk struct {
	from, to     int
	aStart, aLen int
	bStart, bLen int
}

// hunks groups the changes of ops with Context lines around each,
// joining groups whose context would touch.
func hunks(ops []op) []hunk {
	var out []hunk
	aLine, bLine := 1, 1 // line numbers of ops[i] in each text
	aAt := make([]int, len(ops)+1)
	bAt := make([]int, len(ops)+1)
	for i, o := range ops {
		aAt[i], bAt[i] = aLine, bLine
		if o.kind != '+' {
			aLine++
		}
		if o.kind != '-' {
			bLine++
		}
	}
	aAt[len(ops)], bAt[len(ops)] = aLine, bLine
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		from := max(i-Context, 0)
		end := i // one past the last change of the group
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*Context {
				break
			}
		}
		to := min(end+Context, len(ops))
		h := hunk{from: from, to: to, aStart: aAt[from], bStart: bAt[from]}
		h.aLen, h.bLen = aAt[to]-aAt[from], bAt[to]-bAt[from]
		out = append(out, h)
		i = to
	}
	return out
}

// span is a hunk header's "start,length"; an empty span starts at the
// line before it, as diff writes it.
func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
