package runtime

import (
	"io"
	"path"
	"time"

	"convfiles/content"
	"convfiles/files"
)

// The SABRE helpers (seed 003) as both languages run them: each binding
// decodes its arguments, calls one of these, and shapes the answer in its
// own language.

// SpaceFor returns the run's files, or a refusal naming fn when the run
// has none.
func (s *Run) SpaceFor(fn string) (files.Ops, error) {
	if s.Files == nil {
		return nil, files.E(fn, files.KindForbidden, "", "this run has no conversation context, so it has no files; run it with a conversation ID", nil)
	}
	return s.Files, nil
}

// SaveBytes writes data as name, charged to the run's budget (write_file,
// file.save).
func (s *Run) SaveBytes(fn, name string, data []byte) (files.Info, error) {
	sp, err := s.SpaceFor(fn)
	if err != nil {
		return files.Info{}, err
	}
	info, err := sp.WriteBytes(s.Ctx, name, data, s.WriteOpts())
	if err == nil {
		s.Touches.Touch(info.Name, files.Wrote)
	}
	return info, err
}

// ReadContent loads a whole file, at most MaxReadBytes, as a content with
// its link (read_file). An absolute path is read only inside a configured
// read root, and has no link.
func (s *Run) ReadContent(name string) (c content.Content, url string, err error) {
	var (
		f    io.ReadCloser
		info files.Info
	)
	if path.IsAbs(name) {
		f, info, err = s.Cfg.ReadRoots.Open(name)
	} else {
		var sp files.Ops
		if sp, err = s.SpaceFor("read_file"); err == nil {
			if f, info, err = sp.Open(s.Ctx, name); err == nil {
				url = s.link(info.Name)
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if info.Size > s.Cfg.MaxReadBytes {
		return nil, "", files.E("read_file", files.KindTooLarge, info.Name, "read_file loads whole files of at most "+
			files.FormatBytes(s.Cfg.MaxReadBytes)+"; this one holds "+files.FormatBytes(info.Size), nil)
	}
	data := make([]byte, info.Size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, "", files.E("read", files.KindConflict, info.Name, "the file changed while it was read; try again", err)
	}
	return content.Parse(info.Name, data), url, nil
}

// RemoveFile deletes a file (delete_file, os.remove) and returns its
// clean name.
func (s *Run) RemoveFile(fn, name string) (string, error) {
	sp, err := s.SpaceFor(fn)
	if err != nil {
		return "", err
	}
	clean, err := files.ValidateName(name)
	if err == nil {
		err = sp.Remove(s.Ctx, clean)
	}
	if err == nil {
		s.Touches.Touch(clean, files.Removed)
	}
	return clean, err
}

// fileFacts is what file_info answers.
type fileFacts struct {
	Name, Type, MIME, Modified, URL string
	Size                            int64
}

// Describe is file_info(name): the type and MIME type are sniffed from
// the file's first bytes.
func (s *Run) Describe(name string) (fileFacts, error) {
	sp, err := s.SpaceFor("file_info")
	if err != nil {
		return fileFacts{}, err
	}
	f, info, err := sp.Open(s.Ctx, name)
	if err != nil {
		return fileFacts{}, err
	}
	kind, mt := content.DetectReader(info.Name, f, info.Size)
	f.Close()
	return fileFacts{Name: info.Name, Size: info.Size, Type: string(kind), MIME: mt,
		Modified: info.ModTime.UTC().Format(time.RFC3339), URL: s.link(info.Name)}, nil
}
