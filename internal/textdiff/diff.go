// Package textdiff writes unified diffs of two texts, as diff -u and git
// show them, for edits an agent wants to check before or after they land.
// It finds the lines that changed with Myers' algorithm after trimming the
// lines both texts share at their start and end, so a small edit to a big
// file costs little; past a bound on the number of changed lines it stops
// looking for the shortest diff and answers one hunk for the whole
// changed region, which is still a correct diff.
//
// It must never import another convfiles package.
package textdiff

import (
	"strings"
)

// maxEdits bounds the edit distance Myers' search explores (its memory is
// the square of it); beyond it the changed region is one hunk.
const maxEdits = 1024

// Context is how many unchanged lines surround each hunk.
const Context = 3

// op is one line of a diff script.
type op struct {
	kind byte // ' ', '-', '+'
	line string
}

// splitLines cuts s into lines, each with its "\n" (the last may lack one).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// script is the line-by-line edit script turning a into b.
func script(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]op, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		out = append(out, op{' ', l})
	}
	out = append(out, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, op{' ', l})
	}
	return out
}

// middle is the shortest edit script from a to b (Myers, 1986), or, when
// it needs more than maxEdits changes, all of a removed and all of b added.
func middle(a, b []string) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	limit := min(n+m, maxEdits)
	offset := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[offset-d-1:offset+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[offset+k-1] < v[offset+k+1] {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d)
			}
		}
	}
	return replaceAll(a, b)
}

// backtrack walks the saved frontiers from the end back to the start.
// trace[d] holds v[-d-1 .. d+1] as it was before step d.
func backtrack(a, b []string, trace [][]int, dEnd int) []op {
	x, y := len(a), len(b)
	var rev []op
	for d := dEnd; d > 0; d-- {
		vd := trace[d] // frontier after step d-1, indexed k+d+1
		at := func(k int) int { return vd[k+d+1] }
		k := x - y
		var prevK int
		if k == -d || k != d && at(k-1) < at(k+1) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, op{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, op{'+', b[y]})
		} else {
			x--
			rev = append(rev, op{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', a[x]})
	}
	out := make([]op, len(rev))
	for i, o := range rev {
		out[len(rev)-1-i] = o
	}
	return out
}

func replaceAll(a, b []string) []op {
	out := make([]op, 0, len(a)+len(b))
	for _, l := range a {
		out = append(out, op{'-', l})
	}
	for _, l := range b {
		out = append(out, op{'+', l})
	}
	return out
}
