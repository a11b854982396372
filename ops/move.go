package ops

import (
	"context"

	"convfiles/files"
)

// MoveIn names a file and the name to copy or rename it to. Replace lets
// the operation replace a file of that name (kept as a version); without
// it, a taken name is a conflict, so a typo never loses a file.
type MoveIn struct {
	ID      string `json:"id"`
	NewName string `json:"new_name"`
	Replace bool   `json:"replace,omitempty"`
}

// Copy is file_copy, files.copy. The copy is recorded as derived from
// the file.
func Copy(ctx context.Context, env Env, in MoveIn) (IDName, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return IDName{}, err
	}
	opts := env.Write
	opts.Source = files.SourceDerived
	opts.NoReplace = !in.Replace
	info, err := env.Space.Copy(ctx, name, in.NewName, opts)
	if err != nil {
		return IDName{}, err
	}
	env.touched(info.Name, files.Wrote)
	return env.idName(info), nil
}

// Rename is file_rename, files.rename. The file keeps its ID.
func Rename(ctx context.Context, env Env, in MoveIn) (IDName, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return IDName{}, err
	}
	rename := env.Space.RenameNew
	if in.Replace {
		rename = env.Space.Rename
	}
	info, err := rename(ctx, name, in.NewName)
	if err != nil {
		return IDName{}, err
	}
	env.touched(name, files.Removed)
	env.touched(info.Name, files.Wrote)
	return env.idName(info), nil
}

// DeleteOut answers a delete.
type DeleteOut struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id,omitempty"`
}

// Delete is file_delete, files.delete. The content is kept as a version,
// found again by the file's ID.
func Delete(ctx context.Context, env Env, in IDIn) (DeleteOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return DeleteOut{}, err
	}
	rec, _ := env.Space.Record(ctx, name)
	if err := env.Space.Remove(ctx, name); err != nil {
		return DeleteOut{}, err
	}
	env.touched(name, files.Removed)
	return DeleteOut{Deleted: true, ID: rec.ID}, nil
}

// VersionEntry is one kept earlier content of a file.
type VersionEntry struct {
	Version int    `json:"version"`
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	MIME    string `json:"mime_type"`
	SHA256  string `json:"sha256"`
	SavedOn string `json:"saved_on"`
	KeptOn  string `json:"kept_on"`
	Reason  string `json:"reason"`
}

// VersionsOut lists a file's kept versions, newest first.
type VersionsOut struct {
	ID       string         `json:"id"`
	Versions []VersionEntry `json:"versions"`
}

// Versions is file_versions, files.versions. A deleted file is found by
// its ID.
func Versions(ctx context.Context, env Env, in IDIn) (VersionsOut, error) {
	rec, err := env.Space.Record(ctx, in.ID)
	if err != nil {
		return VersionsOut{}, err
	}
	list, err := env.Space.Versions(ctx, rec.ID)
	if err != nil {
		return VersionsOut{}, err
	}
	out := VersionsOut{ID: rec.ID, Versions: make([]VersionEntry, len(list))}
	for i, v := range list {
		out.Versions[i] = VersionEntry{Version: v.Version, Name: v.Name, Size: v.Size, MIME: v.MIME, SHA256: v.SHA256,
			SavedOn: stamp(v.Saved), KeptOn: stamp(v.Kept), Reason: v.Reason}
	}
	return out, nil
}

// RestoreIn names a file and one of its kept versions.
type RestoreIn struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
}

// RestoreOut is the file after a restore.
type RestoreOut struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Version int    `json:"version"`
	URL     string `json:"url,omitempty"`
}

// Restore is file_restore, files.restore: the kept version becomes the
// file's content again (a deleted file comes back), and the content it
// replaces is kept in turn.
func Restore(ctx context.Context, env Env, in RestoreIn) (RestoreOut, error) {
	if in.Version < 1 {
		return RestoreOut{}, files.E("restore", files.KindInvalid, in.ID, "version must be a positive number; versions lists them", nil)
	}
	rec, err := env.Space.Record(ctx, in.ID)
	if err != nil {
		return RestoreOut{}, err
	}
	opts := env.Write
	opts.Source = files.SourceDerived
	info, err := env.Space.Restore(ctx, rec.ID, in.Version, opts)
	if err != nil {
		return RestoreOut{}, err
	}
	env.touched(info.Name, files.Wrote)
	after, err := env.Space.Record(ctx, info.Name)
	if err != nil {
		return RestoreOut{}, err
	}
	return RestoreOut{ID: info.ID, Name: info.Name, Size: info.Size, Version: after.Version, URL: env.link(info.Name)}, nil
}

func init() {
	def(Op{Name: "copy", JS: "copy", Params: []string{"id", "new_name", "...options"}, Tool: "file_copy", Effect: Writes, SnakeJS: true}, Copy)
	def(Op{Name: "rename", JS: "rename", Params: []string{"id", "new_name", "...options"}, Tool: "file_rename", Effect: Writes, SnakeJS: true},
		Rename)
	def(Op{Name: "delete", JS: "delete", Params: []string{"id"}, Tool: "file_delete", Effect: Destroys}, Delete)
	def(Op{Name: "versions", JS: "versions", Params: []string{"id"}, Tool: "file_versions", Effect: Reads, Unwrap: "versions", SnakeJS: true},
		Versions)
	def(Op{Name: "restore", JS: "restore", Params: []string{"id", "version"}, Tool: "file_restore", Effect: Destroys, SnakeJS: true}, Restore)
}
