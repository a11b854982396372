package engine

import (
	"context"
	"io"

	"convfiles/files"
)

// ReadFile reads the whole file name, refusing with KindTooLarge, before
// reading, a file larger than max bytes. A file that grows past max while
// it is read is refused too: never more than max+1 bytes are read.
func (sp *Space) ReadFile(ctx context.Context, name string, max int64) ([]byte, files.Info, error) {
	const op = "read"
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	if info.Size > max {
		return nil, info, tooLargeToRead(info.Name, info.Size, max)
	}
	// One buffer of the size the file has: io.ReadAll would grow its way
	// there, allocating twice the file and copying it on the way.
	data := make([]byte, info.Size)
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF { // a file that shrank is read as it is
		return nil, info, classify(op, info.Name, err)
	}
	data = data[:n]
	// A file that grew while it was read is read on, within max.
	more, err := io.ReadAll(io.LimitReader(f, max+1-int64(n)))
	if err != nil {
		return nil, info, classify(op, info.Name, err)
	}
	data = append(data, more...)
	if int64(len(data)) > max {
		return nil, info, tooLargeToRead(info.Name, int64(len(data)), max)
	}
	return data, info, nil
}

func tooLargeToRead(name string, size, max int64) error {
	return files.E("read", files.KindTooLarge, name, "the file is "+files.FormatBytes(size)+", more than the "+files.FormatBytes(max)+" read at once", nil)
}
