package engine

import (
	"context"

	"convfiles/files"
)

// NewWriter is Create or Append, as Ops declares it.
func (sp *Space) NewWriter(ctx context.Context, name string, opts files.WriteOptions, appendTo bool) (files.FileWriter, error) {
	var w *Writer
	var err error
	if appendTo {
		w, err = sp.Append(ctx, name, opts)
	} else {
		w, err = sp.Create(ctx, name, opts)
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

var (
	_ files.Ops        = (*Space)(nil)
	_ files.FileWriter = (*Writer)(nil)
)
