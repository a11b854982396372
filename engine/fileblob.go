package engine

import (
	"os"

	"convfiles/files"
)

// fileBlob is a Blob read from a local file.
type fileBlob struct {
	*os.File
	info files.BlobInfo
}

func (b *fileBlob) Info() files.BlobInfo { return b.info }

// localFile is what a Blob kept in a local file offers: the file itself,
// for a descriptor handed to a worker process.
type localFile interface{ osFile() *os.File }

func (b *fileBlob) osFile() *os.File { return b.File }

// FileBlob wraps an open regular file, named p, as a Blob that reads it;
// closing the Blob closes f. It is how a file read outside a store (a
// read root, a descriptor a worker received) meets the code that reads
// Blobs.
func FileBlob(f *os.File, p string) (files.Blob, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, classify("read", p, err)
	}
	return &fileBlob{File: f, info: blobInfo(p, fi)}, nil
}

// LocalFile returns the open file behind b when its bytes are in a local
// file, so that a worker process can be handed the descriptor rather than
// a copy; it is nil for bytes kept elsewhere. The file belongs to b.
func LocalFile(b files.Blob) *os.File {
	if lf, ok := b.(localFile); ok {
		return lf.osFile()
	}
	return nil
}
