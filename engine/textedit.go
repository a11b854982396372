package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"convfiles/files"
	"convfiles/internal/textdiff"
)

// EditText applies edits in order to the text file name, all or none,
// and writes the result atomically unless dryRun. The edits are matched
// in the content read; if another writer changes the file before the
// commit, they are matched again in the new content and committed over
// it, or refused (KindInvalid) when they no longer match exactly once.
func (sp *Space) EditText(ctx context.Context, name string, edits []files.TextEdit, dryRun bool, opts files.WriteOptions) (files.EditResult, error) {
	if err := files.CheckEdits(name, edits); err != nil {
		return files.EditResult{}, err
	}
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return files.EditResult{}, err
	}
	defer f.Close()
	var res files.EditResult
	edit := func(src io.ReaderAt, size int64, w io.Writer) error {
		before, err := readText(info.Name, src, size)
		if err != nil {
			return err
		}
		after, n, err := applyEdits(info.Name, before, edits)
		if err != nil {
			return err
		}
		res.Replacements = n
		res.Info.Size = int64(len(after))
		res.Diff, res.DiffTruncated = textdiff.Unified(info.Name, before, after, files.MaxEditDiff)
		if w != nil {
			_, err = io.WriteString(w, after)
		}
		return err
	}
	if dryRun {
		err := edit(f, info.Size, nil)
		res.Info.Name = info.Name
		return res, err
	}
	w, err := sp.Create(ctx, info.Name, opts)
	if err != nil {
		return files.EditResult{}, err
	}
	defer w.Abort()
	if opts.IfUnchanged == nil {
		st := stampOf(f.Info())
		w.base = &st
		w.rebase = func(w *Writer, src rebaseSource) error {
			if src.cur == nil {
				return files.E("edit", files.KindNotFound, w.name, "the file was deleted while it was being edited", nil)
			}
			return edit(src.cur, src.curSize, w)
		}
	}
	if err := edit(f, info.Size, w); err != nil {
		return files.EditResult{}, err
	}
	if res.Info, err = w.Commit(); err != nil {
		return files.EditResult{}, err
	}
	return res, nil
}

// readText reads a file an edit works on: UTF-8 text of at most
// MaxEditFile bytes.
func readText(name string, src io.ReaderAt, size int64) (string, error) {
	if size > files.MaxEditFile {
		return "", files.E("edit", files.KindTooLarge, name, fmt.Sprintf("the file is %s; exact-text edits work on files of at most %s, edit bigger ones with replace_lines or write_bytes",
			files.FormatBytes(size), files.FormatBytes(files.MaxEditFile)), nil)
	}
	buf := make([]byte, size)
	n, err := src.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return "", classify("edit", name, err)
	}
	if !utf8.Valid(buf[:n]) {
		return "", files.E("edit", files.KindInvalid, name, "is not UTF-8 text; edit it with write_bytes", nil)
	}
	return string(buf[:n]), nil
}

// applyEdits applies edits in order, each to the text the ones before it
// left, and counts the replacements.
func applyEdits(name, text string, edits []files.TextEdit) (string, int, error) {
	total := 0
	for i, e := range edits {
		n := strings.Count(text, e.Old)
		switch {
		case n == 0:
			return "", 0, files.E("edit", files.KindInvalid, name, fmt.Sprintf("edit %d: old text not found%s%s", i+1, earlier(i), notFoundHint(text, e.Old)), nil)
		case n > 1 && !e.ReplaceAll:
			return "", 0, files.E("edit", files.KindInvalid, name, fmt.Sprintf("edit %d: old text matches %d times (lines %s)%s; quote more of the lines around it so it matches once, or set replace_all",
				i+1, n, matchLines(text, e.Old, 5), earlier(i)), nil)
		}
		if e.ReplaceAll {
			text = strings.ReplaceAll(text, e.Old, e.New)
		} else {
			text = strings.Replace(text, e.Old, e.New, 1)
		}
		total += n
	}
	return text, total, nil
}

// earlier says that the edits before edit i+1 changed the text it is
// matched in.
func earlier(i int) string {
	switch i {
	case 0:
		return ""
	case 1:
		return " after edit 1 was applied"
	}
	return fmt.Sprintf(" after edits 1-%d were applied", i)
}

// notFoundHint says why exact text may miss: line endings, or spaces.
func notFoundHint(text, old string) string {
	switch {
	case strings.Contains(text, "\r\n") && !strings.Contains(old, "\r\n") && strings.Contains(strings.ReplaceAll(text, "\r\n", "\n"), old):
		return "; the file ends its lines with \\r\\n: include them in old"
	case strings.Contains(squeeze(text), squeeze(old)):
		return "; it is there with different spaces or indentation: read the file again and copy the lines exactly"
	}
	return "; read the file again and copy the text exactly, spaces and line breaks included"
}

// squeeze drops every space and tab.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// matchLines lists the lines (1-based) where old starts, up to max, and
// "…" when there are more.
func matchLines(text, old string, max int) string {
	var lines []string
	off := 0
	for len(lines) < max {
		i := strings.Index(text[off:], old)
		if i < 0 {
			break
		}
		lines = append(lines, fmt.Sprint(strings.Count(text[:off+i], "\n")+1))
		off += i + len(old)
	}
	s := strings.Join(lines, ", ")
	if strings.Contains(text[off:], old) {
		s += ", …"
	}
	return s
}
