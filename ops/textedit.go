package ops

import (
	"context"

	"convfiles/files"
)

// EditIn is a list of exact-text replacements to one file, applied in
// order, all or none. DryRun answers the diff without writing.
type EditIn struct {
	ID     string           `json:"id"`
	Edits  []files.TextEdit `json:"edits"`
	DryRun bool             `json:"dry_run,omitempty"`
}

// EditOut is the unified diff of an edit and what it did.
type EditOut struct {
	OK           bool   `json:"ok"`
	DryRun       bool   `json:"dry_run,omitempty"`
	Replacements int    `json:"replacements"`
	Size         int64  `json:"size"`
	Diff         string `json:"diff"`
	// DiffTruncated says the diff was cut at 64 KiB.
	DiffTruncated bool   `json:"diff_truncated,omitempty"`
	URL           string `json:"url,omitempty"`
}

// Edit is file_edit, files.edit: exact-text replacements applied
// atomically over the content they were matched in. When another writer
// changed the file meanwhile, the edits are matched again in its new
// content (and refused if they no longer match exactly), so neither
// change is lost.
func Edit(ctx context.Context, env Env, in EditIn) (EditOut, error) {
	name, err := env.Space.Resolve(ctx, in.ID)
	if err != nil {
		return EditOut{}, err
	}
	res, err := env.Space.EditText(ctx, name, in.Edits, in.DryRun, env.Write)
	if err != nil {
		return EditOut{}, err
	}
	if !in.DryRun {
		env.touched(name, files.Wrote)
	}
	return EditOut{OK: true, DryRun: in.DryRun, Replacements: res.Replacements, Size: res.Info.Size, Diff: res.Diff,
		DiffTruncated: res.DiffTruncated, URL: env.link(name)}, nil
}

func init() {
	def(Op{Name: "edit", JS: "edit", Params: []string{"id", "edits", "...options"}, Tool: "file_edit", Effect: Destroys}, Edit)
}
