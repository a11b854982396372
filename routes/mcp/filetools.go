package mcp

import (
	"time"

	"convfiles/content"
	"convfiles/files"
)

// fileEntry is seed 004's file object, plus the file's link.
type fileEntry struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Size       int64  `json:"size"`
	MIME       string `json:"mime_type"`
	ModifiedOn string `json:"modified_on"`
	URL        string `json:"url,omitempty"`
}

func (s *Server) entry(rec files.Record) fileEntry {
	return fileEntry{ID: rec.ID, Name: rec.Name, Size: rec.Size, MIME: content.RecordedMIME(rec.Name, rec.MIME),
		ModifiedOn: rec.Modified.UTC().Format(time.RFC3339Nano), URL: s.link(rec.Conversation, rec.Name)}
}

func (s *Server) link(conv, name string) string {
	if s.cfg.Link == nil {
		return ""
	}
	return s.cfg.Link(conv, name)
}

type listIn struct {
	Scope
	Pattern string `json:"pattern,omitempty"`
}

type listOut struct {
	Files []fileEntry `json:"files"`
}

func (s *Server) fileList(c *call, in listIn) (listOut, error) {
	if in.Pattern != "" {
		if err := files.ValidateGlob(in.Pattern); err != nil {
			return listOut{}, files.E("file_list", files.KindInvalid, in.Pattern, `the pattern is malformed; use *, ? and [a-z] as in "*.csv"`, nil)
		}
	}
	list, _, err := c.sp.Find(files.ListQuery{Pattern: in.Pattern})
	if err != nil {
		return listOut{}, err
	}
	out := listOut{Files: make([]fileEntry, len(list))}
	for i, rec := range list {
		out.Files[i] = s.entry(rec)
	}
	return out, nil
}

type idIn struct {
	Scope
	ID string `json:"id"`
}

type infoOut struct {
	fileEntry
	Type            string `json:"type"`
	Source          string `json:"source"`
	SourceSessionID string `json:"source_session_id"`
	DerivedFrom     string `json:"derived_from,omitempty"`
	CreatedOn       string `json:"created_on"`
	SHA256          string `json:"sha256"`
	Version         int    `json:"version"`
}

func (s *Server) fileInfo(c *call, in idIn) (infoOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return infoOut{}, err
	}
	rec, err := c.sp.Record(name)
	if err != nil {
		return infoOut{}, err
	}
	f, info, err := c.sp.Open(name)
	if err != nil {
		return infoOut{}, err
	}
	kind, mt := content.DetectReader(info.Name, f, info.Size)
	f.Close()
	out := infoOut{fileEntry: s.entry(rec), Type: string(kind), Source: string(rec.Source), SourceSessionID: rec.Session, DerivedFrom: rec.DerivedFrom,
		CreatedOn: rec.Created.UTC().Format(time.RFC3339Nano), SHA256: rec.SHA256, Version: rec.Version}
	if rec.MIME == "" {
		out.MIME = mt
	}
	return out, nil
}

type deleteOut struct {
	Deleted bool `json:"deleted"`
}

func (s *Server) fileDelete(c *call, in idIn) (deleteOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return deleteOut{}, err
	}
	if err := c.sp.Remove(name); err != nil {
		return deleteOut{}, err
	}
	return deleteOut{Deleted: true}, nil
}

type createIn struct {
	Scope
	Name    string `json:"name"`
	Content string `json:"content,omitempty"`
	MIME    string `json:"mime_type,omitempty"`
}

// idNameOut answers the tools that make or move a file.
type idNameOut struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

func (s *Server) idName(c *call, info files.Info) idNameOut {
	return idNameOut{ID: info.ID, Name: info.Name, URL: s.link(c.conv, info.Name)}
}

func (s *Server) fileCreate(c *call, in createIn) (idNameOut, error) {
	opts := c.writeOpts()
	opts.NoReplace = true
	info, err := c.sp.WriteBytes(c.ctx, in.Name, []byte(in.Content), opts)
	if err != nil {
		return idNameOut{}, err
	}
	return s.idName(c, info), nil
}

type moveIn struct {
	Scope
	ID      string `json:"id"`
	NewName string `json:"new_name"`
}

func (s *Server) fileCopy(c *call, in moveIn) (idNameOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return idNameOut{}, err
	}
	opts := c.writeOpts()
	opts.Source = files.SourceDerived
	opts.NoReplace = true
	info, err := c.sp.Copy(c.ctx, name, in.NewName, opts)
	if err != nil {
		return idNameOut{}, err
	}
	return s.idName(c, info), nil
}

func (s *Server) fileRename(c *call, in moveIn) (idNameOut, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return idNameOut{}, err
	}
	// A script's rename replaces a file at the new name; a model asking
	// to rename must not lose a file by a typo.
	info, err := c.sp.RenameNew(name, in.NewName)
	if err != nil {
		return idNameOut{}, err
	}
	return s.idName(c, info), nil
}
