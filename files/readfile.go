package files

import (
	"io"
)

// ReadFile reads the whole file name, refusing with KindTooLarge, before
// reading, a file larger than max bytes. A file that grows past max while
// it is read is refused too: never more than max+1 bytes are read.
func (sp *Space) ReadFile(name string, max int64) ([]byte, Info, error) {
	const op = "read"
	f, info, err := sp.Open(name)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	if info.Size > max {
		return nil, info, tooLargeToRead(info.Name, info.Size, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, info, classify(op, info.Name, err)
	}
	if int64(len(data)) > max {
		return nil, info, tooLargeToRead(info.Name, int64(len(data)), max)
	}
	return data, info, nil
}

func tooLargeToRead(name string, size, max int64) error {
	return E("read", KindTooLarge, name, "the file is "+FormatBytes(size)+", more than the "+FormatBytes(max)+" read at once", nil)
}
