package main

import (
	"context"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"convfiles/files"
)

// cmdVersions lists the kept versions of a file, by name or ID; a deleted
// file is found by its ID.
func cmdVersions(e *env, args []string) error {
	f := newFlags(e, "versions", "--conversation ID FILE")
	conv := f.String("conversation", "", "the conversation (required)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *conv == "" || f.NArg() != 1 {
		return usagef("usage: convfiles versions --conversation ID FILE")
	}
	sp, done, err := openSpace(e, cfg, *conv)
	if err != nil {
		return err
	}
	defer done()
	rec, err := sp.Record(f.Arg(0))
	if err != nil {
		return err
	}
	list, err := sp.Versions(rec.ID)
	if err != nil {
		return err
	}
	state := fmt.Sprintf("version %d", rec.Version)
	if rec.Deleted != nil {
		state = "deleted " + rec.Deleted.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(e.stdout, "%s (%s, id %s): %d kept\n", rec.Name, state, rec.ID, len(list))
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "VERSION\tSIZE\tSAVED\tREPLACED\tBY\tSHA256")
	for _, v := range list {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", v.Version, files.FormatBytes(v.Size), v.Saved.UTC().Format(time.RFC3339),
			v.Kept.UTC().Format(time.RFC3339), v.Reason, v.SHA256[:min(12, len(v.SHA256))])
	}
	return nil
}

// cmdRestore makes a kept version a file's content again; the content it
// replaces is kept in turn.
func cmdRestore(e *env, args []string) error {
	f := newFlags(e, "restore", "--conversation ID FILE VERSION")
	conv := f.String("conversation", "", "the conversation (required)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *conv == "" || f.NArg() != 2 {
		return usagef("usage: convfiles restore --conversation ID FILE VERSION")
	}
	n, err := strconv.Atoi(f.Arg(1))
	if err != nil || n < 1 {
		return usagef("convfiles restore: the version %q is not a positive number", f.Arg(1))
	}
	sp, done, err := openSpace(e, cfg, *conv)
	if err != nil {
		return err
	}
	defer done()
	rec, err := sp.Record(f.Arg(0))
	if err != nil {
		return err
	}
	info, err := sp.Restore(context.Background(), rec.ID, n, files.WriteOptions{Source: files.SourceDerived})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "restored %s to version %d (%s)\n", info.Name, n, files.FormatBytes(info.Size))
	return nil
}
