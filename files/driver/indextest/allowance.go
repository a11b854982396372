package indextest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// errOver is what the allowance case's transactions fail with, as a
// Space's change does, to roll back a change that went past it.
var errOver = errors.New("over the allowance")

func runAllowance(t *testing.T, mk Maker) {
	t.Run("an allowance adds up its tenant's or its conversations' usage, this transaction's included", func(t *testing.T) {
		ix := mk(t)
		write(t, ix, "acme-1", "a", 5, 0)
		write(t, ix, "acme-2", "b", 7, 0)
		write(t, ix, "acmecorp-1", "c", 100, 0) // not tenant "acme-"
		write(t, ix, "other-1", "d", 11, 0)
		err := ix.Update(ctx, func(tx driver.Tx) error {
			for _, tc := range []struct {
				a    files.Allowance
				want int64
			}{
				{files.Allowance{Tenant: "acme-"}, 12},
				{files.Allowance{Conversations: []string{"acme-1", "other-1", "missing"}}, 16},
				{files.Allowance{}, 123},
				{files.Allowance{Tenant: "nobody-"}, 0},
			} {
				if got, err := tx.AllowanceUsage(tc.a); err != nil || got != tc.want {
					return fmt.Errorf("AllowanceUsage(%+v) = %d, %v; want %d", tc.a, got, err, tc.want)
				}
			}
			rec := files.Record{Conversation: "acme-2", Name: "new", Size: 3, SHA256: "00", Version: 1, Created: time.Now(), Modified: time.Now()}
			if _, err := tx.Apply(driver.Change{Type: files.FileCreated, Record: rec}); err != nil {
				return err
			}
			if got, err := tx.AllowanceUsage(files.Allowance{Tenant: "acme-"}); err != nil || got != 15 {
				return fmt.Errorf("after a write of 3 bytes in the transaction: %d, %v; want 15", got, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("concurrent changes to different conversations of one allowance cannot both take its last room", func(t *testing.T) {
		ix := mk(t)
		const limit, each, writers = 50, 10, 24
		a := files.Allowance{Tenant: "acme-", MaxBytes: limit}
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for i := range writers {
			wg.Go(func() {
				err := ix.Update(ctx, func(tx driver.Tx) error {
					rec := files.Record{Conversation: fmt.Sprintf("acme-%d", i%6), Name: fmt.Sprintf("f%d", i), Size: each,
						SHA256: "00", Version: 1, Created: time.Now(), Modified: time.Now()}
					if _, err := tx.Apply(driver.Change{Type: files.FileCreated, Record: rec}); err != nil {
						return err
					}
					held, err := tx.AllowanceUsage(a)
					if err != nil {
						return err
					}
					if held > a.MaxBytes {
						return errOver
					}
					return nil
				})
				if err != nil && !errors.Is(err, errOver) {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		var total int64
		for c := range 6 {
			u, err := ix.Usage(ctx, fmt.Sprintf("acme-%d", c))
			if err != nil {
				t.Fatal(err)
			}
			total += u.Bytes
		}
		if total != limit {
			t.Fatalf("the tenant holds %d bytes; want exactly the allowance, %d", total, limit)
		}
	})
}
