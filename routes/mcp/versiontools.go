package mcp

import (
	"time"

	"convfiles/files"
)

type versionEntry struct {
	Version int    `json:"version"`
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	MIME    string `json:"mime_type"`
	SHA256  string `json:"sha256"`
	SavedOn string `json:"saved_on"`
	KeptOn  string `json:"kept_on"`
	Reason  string `json:"reason"`
}

type versionsOut struct {
	ID       string         `json:"id"`
	Versions []versionEntry `json:"versions"`
}

func (s *Server) fileVersions(c *call, in idIn) (versionsOut, error) {
	rec, err := c.sp.Record(in.ID)
	if err != nil {
		return versionsOut{}, err
	}
	list, err := c.sp.Versions(rec.ID)
	if err != nil {
		return versionsOut{}, err
	}
	out := versionsOut{ID: rec.ID, Versions: make([]versionEntry, len(list))}
	for i, v := range list {
		out.Versions[i] = versionEntry{Version: v.Version, Name: v.Name, Size: v.Size, MIME: v.MIME, SHA256: v.SHA256,
			SavedOn: v.Saved.UTC().Format(time.RFC3339Nano), KeptOn: v.Kept.UTC().Format(time.RFC3339Nano), Reason: v.Reason}
	}
	return out, nil
}

type restoreIn struct {
	Scope
	ID      string `json:"id"`
	Version int    `json:"version"`
}

type restoreOut struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Version int    `json:"version"`
	URL     string `json:"url,omitempty"`
}

func (s *Server) fileRestore(c *call, in restoreIn) (restoreOut, error) {
	if in.Version < 1 {
		return restoreOut{}, files.E("file_restore", files.KindInvalid, in.ID, "version must be a positive number; file_versions lists them", nil)
	}
	rec, err := c.sp.Record(in.ID)
	if err != nil {
		return restoreOut{}, err
	}
	opts := c.writeOpts()
	opts.Source = files.SourceDerived
	info, err := c.sp.Restore(c.ctx, rec.ID, in.Version, opts)
	if err != nil {
		return restoreOut{}, err
	}
	after, err := c.sp.Record(info.Name)
	if err != nil {
		return restoreOut{}, err
	}
	return restoreOut{ID: info.ID, Name: info.Name, Size: info.Size, Version: after.Version, URL: s.link(c.conv, info.Name)}, nil
}
