package sandbox

import (
	"io"
	"os"

	"convfiles/engine"
	"convfiles/files"
)

// descriptorOf returns a descriptor a worker can read b through, and
// closes b. Bytes kept in a local file are handed over as that file, so
// nothing is copied; bytes kept elsewhere are first copied into an
// unnamed temporary file, which only the worker can then reach.
func descriptorOf(b files.Blob) (*os.File, error) {
	if lf := engine.LocalFile(b); lf != nil {
		return lf, nil // closing it after the send closes b
	}
	defer b.Close()
	tmp, err := spool(b)
	if err != nil {
		return nil, files.E("read", files.KindInternal, b.Info().Path, "cannot hand the file to the worker", err)
	}
	return tmp, nil
}

// spool copies b into an unnamed temporary file, positioned at its start.
func spool(b files.Blob) (*os.File, error) {
	tmp, err := os.CreateTemp("", "convfiles-blob-")
	if err != nil {
		return nil, err
	}
	os.Remove(tmp.Name())
	if _, err = io.Copy(tmp, io.NewSectionReader(b, 0, b.Info().Size)); err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		return nil, err
	}
	return tmp, nil
}
