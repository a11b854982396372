package engine

import (
	"fmt"

	"convfiles/files"
)

// checkAllowance refuses a change that grows a conversation (by grown
// bytes) while the conversations of the context's allowance would hold
// more than it allows. The index measures them inside the transaction,
// this change included, after taking the allowance's lock.
func (t *txn) checkAllowance(op, name string, grown int64) error {
	a := files.AllowanceFrom(t.ctx)
	if a == nil || a.MaxBytes <= 0 || grown <= 0 || t.tx == nil {
		return nil
	}
	held, err := t.tx.AllowanceUsage(*a)
	if err != nil {
		return err
	}
	if held <= a.MaxBytes {
		return nil
	}
	return files.E(op, files.KindTooLarge, name, fmt.Sprintf(
		"this credential's conversations may hold at most %s together and hold %s; this change needs %s more",
		files.FormatBytes(a.MaxBytes), files.FormatBytes(held-grown), files.FormatBytes(grown)), nil)
}
