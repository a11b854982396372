package ops

import (
	"context"
	"fmt"
	"strings"

	"convfiles/files"
)

// Folder bounds: one folder operation moves or deletes at most
// MaxFolderFiles files.
const MaxFolderFiles = 10000

// KeepFile is the empty file that keeps a made folder (files.KeepFile).
const KeepFile = files.KeepFile

// FolderIn names a folder.
type FolderIn struct {
	Path string `json:"path"`
}

// FolderOut answers a folder operation: the folder, and how many files
// it moved or deleted.
type FolderOut struct {
	Path    string `json:"path"`
	Created bool   `json:"created,omitempty"`
	Moved   int    `json:"moved,omitempty"`
	Copied  int    `json:"copied,omitempty"`
	Deleted int    `json:"deleted,omitempty"`
}

// folderPath validates a folder's path; the top is refused.
func folderPath(path string) (string, error) {
	clean, err := files.ValidateName(strings.TrimSuffix(path, "/"))
	if err != nil {
		return "", err
	}
	return clean, nil
}

// folderFiles lists the live files below a folder, at any depth, at
// most MaxFolderFiles of them.
func folderFiles(ctx context.Context, op string, sp files.Ops, path string) ([]files.Record, error) {
	recs, total, err := sp.Find(ctx, files.ListQuery{Prefix: path + "/", Limit: MaxFolderFiles + 1})
	if err != nil {
		return nil, err
	}
	if total > MaxFolderFiles {
		return nil, files.E(op, files.KindTooLarge, path, fmt.Sprintf("holds %d files; one call moves or deletes at most %d, so work on its subfolders one at a time",
			total, MaxFolderFiles), nil)
	}
	return recs, nil
}

// isFile reports whether path names a file.
func isFile(ctx context.Context, sp files.Ops, path string) bool {
	_, err := sp.Stat(ctx, path)
	return err == nil
}

// MakeFolder is folder_create, files.makeFolder: a folder that stays
// when empty (it holds an empty .keep). A folder that exists is left as
// it is; a file of that name is a conflict.
func MakeFolder(ctx context.Context, env Env, in FolderIn) (FolderOut, error) {
	path, err := folderPath(in.Path)
	if err != nil {
		return FolderOut{}, err
	}
	if isFile(ctx, env.Space, path) {
		return FolderOut{}, files.E("make_folder", files.KindConflict, path, "is a file; choose another name for the folder", nil)
	}
	if _, total, err := env.Space.Find(ctx, files.ListQuery{Prefix: path + "/", Limit: 1}); err != nil || total > 0 {
		return FolderOut{Path: path}, err
	}
	opts := env.Write
	opts.NoReplace = true
	info, err := env.Space.WriteBytes(ctx, path+"/"+KeepFile, nil, opts)
	if err != nil {
		return FolderOut{}, err
	}
	env.touched(info.Name, files.Wrote)
	return FolderOut{Path: path, Created: true}, nil
}

// MoveFolderIn names a folder and where it goes.
type MoveFolderIn struct {
	Path    string `json:"path"`
	NewPath string `json:"new_path"`
}

// MoveFolder is folder_move, files.moveFolder: every file below the
// folder moves below new_path, keeping its ID and versions. A file
// already at one of the new names is a conflict found before anything
// moves; a failure midway moves back what had moved.
func MoveFolder(ctx context.Context, env Env, in MoveFolderIn) (FolderOut, error) {
	const op = "move_folder"
	to, recs, targets, err := folderTargets(ctx, op, env.Space, in)
	if err != nil {
		return FolderOut{}, err
	}
	for i, r := range recs {
		if _, err := env.Space.RenameNew(ctx, r.Name, targets[i]); err != nil {
			for j := i - 1; j >= 0; j-- { // put back what moved
				env.Space.RenameNew(ctx, targets[j], recs[j].Name)
			}
			return FolderOut{}, err
		}
		env.touched(r.Name, files.Removed)
		env.touched(targets[i], files.Wrote)
	}
	return FolderOut{Path: to, Moved: len(recs)}, nil
}

// CopyFolder is folder_copy, files.copyFolder: every file below the
// folder is copied below new_path, as a new file derived from it. A file
// already at one of the new names is a conflict found before anything is
// copied; a failure midway removes the copies made.
func CopyFolder(ctx context.Context, env Env, in MoveFolderIn) (FolderOut, error) {
	const op = "copy_folder"
	to, recs, targets, err := folderTargets(ctx, op, env.Space, in)
	if err != nil {
		return FolderOut{}, err
	}
	opts := env.Write
	opts.Source, opts.NoReplace = files.SourceDerived, true
	for i, r := range recs {
		if _, err := env.Space.Copy(ctx, r.Name, targets[i], opts); err != nil {
			for j := i - 1; j >= 0; j-- { // take back what was copied
				env.Space.Remove(ctx, targets[j])
			}
			return FolderOut{}, err
		}
		env.touched(targets[i], files.Wrote)
	}
	return FolderOut{Path: to, Copied: len(recs)}, nil
}

// folderTargets checks a move or copy of a folder: the files below it,
// and the name each gets below new_path, none of them taken.
func folderTargets(ctx context.Context, op string, sp files.Ops, in MoveFolderIn) (to string, recs []files.Record, targets []string, err error) {
	from, err := folderPath(in.Path)
	if err != nil {
		return
	}
	if to, err = folderPath(in.NewPath); err != nil {
		return
	}
	if to == from || strings.HasPrefix(to+"/", from+"/") {
		err = files.E(op, files.KindInvalid, to, "a folder cannot "+map[string]string{"move_folder": "move", "copy_folder": "be copied"}[op]+" into itself; choose a new_path outside "+from, nil)
		return
	}
	if recs, err = folderFiles(ctx, op, sp, from); err != nil {
		return
	}
	if len(recs) == 0 {
		err = folderNotFound(ctx, op, sp, from)
		return
	}
	if isFile(ctx, sp, to) {
		err = files.E(op, files.KindConflict, to, "is a file; choose another new_path", nil)
		return
	}
	targets = make([]string, len(recs))
	for i, r := range recs {
		targets[i] = to + strings.TrimPrefix(r.Name, from)
		if _, err = files.ValidateName(targets[i]); err != nil {
			return
		}
		if isFile(ctx, sp, targets[i]) {
			err = files.E(op, files.KindConflict, targets[i], "already exists; move or delete it first, nothing was "+map[string]string{"move_folder": "moved", "copy_folder": "copied"}[op], nil)
			return
		}
	}
	return to, recs, targets, nil
}

// DeleteFolder is folder_delete, files.deleteFolder: every file below
// the folder is deleted, its content kept as a version that restores it.
func DeleteFolder(ctx context.Context, env Env, in FolderIn) (FolderOut, error) {
	const op = "delete_folder"
	path, err := folderPath(in.Path)
	if err != nil {
		return FolderOut{}, err
	}
	recs, err := folderFiles(ctx, op, env.Space, path)
	if err != nil {
		return FolderOut{}, err
	}
	if len(recs) == 0 {
		return FolderOut{}, folderNotFound(ctx, op, env.Space, path)
	}
	n := 0
	for _, r := range recs {
		if err := env.Space.Remove(ctx, r.Name); err != nil {
			if files.KindOf(err) == files.KindNotFound { // deleted meanwhile
				continue
			}
			return FolderOut{Path: path, Deleted: n}, err
		}
		env.touched(r.Name, files.Removed)
		n++
	}
	return FolderOut{Path: path, Deleted: n}, nil
}

// folderNotFound is the error for a folder that holds no file: a file of
// that name is named as such.
func folderNotFound(ctx context.Context, op string, sp files.Ops, path string) error {
	if isFile(ctx, sp, path) {
		return files.E(op, files.KindConflict, path, "is a file, not a folder; use the file operations", nil)
	}
	return files.E(op, files.KindNotFound, path, "no such folder; file_tree shows the folders", nil)
}

func init() {
	def(Op{Name: "make_folder", JS: "makeFolder", Params: []string{"path"}, Tool: "folder_create", Effect: Writes}, MakeFolder)
	def(Op{Name: "move_folder", JS: "moveFolder", Params: []string{"path", "new_path"}, Tool: "folder_move", Effect: Writes}, MoveFolder)
	def(Op{Name: "copy_folder", JS: "copyFolder", Params: []string{"path", "new_path"}, Tool: "folder_copy", Effect: Writes, Sample: `{"new_path": "copied-folder"}`}, CopyFolder)
	def(Op{Name: "delete_folder", JS: "deleteFolder", Params: []string{"path"}, Tool: "folder_delete", Effect: Destroys}, DeleteFolder)
}
