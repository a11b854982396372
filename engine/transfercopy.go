package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"convfiles/files"
	"convfiles/files/driver"
)

// copy copies size bytes from src in the source's blobs to dst in the
// destination's, and checks them: hashed as they are read, they must
// match want (the SHA-256 the source's row records; "" when it records
// none), and hashed again as the destination reads them back once put.
// It returns their SHA-256 and what the destination says of them.
func (t *transfer) copy(ctx context.Context, src, dst driver.BlobKey, size int64, want, what string) (string, files.BlobInfo, error) {
	in, err := t.from.Blobs().Open(ctx, src)
	if err != nil {
		return "", files.BlobInfo{}, relabel("migrate", err)
	}
	defer in.Close()
	w, err := t.to.Blobs().Create(ctx, dst)
	if err != nil {
		return "", files.BlobInfo{}, err
	}
	defer w.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(io.MultiWriter(w, h, progressWriter(t.progress)), io.NewSectionReader(in, 0, size+1), make([]byte, 1<<20))
	if err != nil {
		return "", files.BlobInfo{}, relabel("migrate", err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if n != size || want != "" && sum != want {
		return "", files.BlobInfo{}, files.E("migrate", files.KindConflict, what, fmt.Sprintf(
			"the source holds %d bytes with SHA-256 %s where its index records %d bytes with SHA-256 %s: the source is damaged; nothing of this file was copied", n, sum, size, want), nil)
	}
	if _, err := w.Seal(ctx); err != nil {
		return "", files.BlobInfo{}, err
	}
	if err := w.Put(ctx, dst, false); err != nil {
		return "", files.BlobInfo{}, err
	}
	if err := w.Close(); err != nil {
		return "", files.BlobInfo{}, err
	}
	info, err := t.readBack(ctx, dst, size, sum, what)
	if err == nil {
		t.report.Bytes += size
	}
	return sum, info, err
}

// readBack hashes the bytes the destination holds at key and compares
// them with what was copied there.
func (t *transfer) readBack(ctx context.Context, key driver.BlobKey, size int64, sum, what string) (files.BlobInfo, error) {
	b, err := t.to.Blobs().Open(ctx, key)
	if err != nil {
		return files.BlobInfo{}, err
	}
	defer b.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(h, io.NewSectionReader(b, 0, size+1), make([]byte, 1<<20))
	if err != nil {
		return files.BlobInfo{}, relabel("migrate", err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); n != size || got != sum {
		return files.BlobInfo{}, files.E("migrate", files.KindInternal, what, fmt.Sprintf(
			"the destination gave back %d bytes with SHA-256 %s for %d bytes with SHA-256 %s that were put there", n, got, size, sum), nil)
	}
	return b.Info(), nil
}

// progressWriter tells progress how many bytes pass through it.
type progressWriter func(int64)

func (p progressWriter) Write(b []byte) (int, error) {
	p(int64(len(b)))
	return len(b), nil
}
