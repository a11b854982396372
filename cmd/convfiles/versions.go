package main

import (
	"context"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"convfiles/engine"
	"convfiles/files"
)

// fileCommand parses "--conversation ID FILE [more…]" with want
// arguments, opens the conversation and finds FILE (a name or an ID; a
// deleted file by its ID). done closes the Space and the Store.
func fileCommand(e *env, args []string, name, usage string, want int, extra func(f *flags)) (sp *engine.Space, rec files.Record, rest []string, done func(), err error) {
	f := newFlags(e, name, usage)
	conv := f.String("conversation", "", "the conversation (required)")
	if extra != nil {
		extra(f)
	}
	cfg, err := f.parse(args)
	if err != nil {
		return nil, rec, nil, nil, err
	}
	if *conv == "" || f.NArg() != want {
		return nil, rec, nil, nil, usagef("usage: convfiles %s %s", name, usage)
	}
	if sp, done, err = openSpace(e, cfg, *conv, mustExist); err != nil {
		return nil, rec, nil, nil, err
	}
	if rec, err = sp.Record(context.Background(), f.Arg(0)); err != nil {
		done()
		return nil, rec, nil, nil, err
	}
	return sp, rec, f.Args()[1:], done, nil
}

// cmdVersions lists the kept versions of a file, by name or ID; a deleted
// file is found by its ID.
func cmdVersions(e *env, args []string) error {
	var asJSON *bool
	sp, rec, _, done, err := fileCommand(e, args, "versions", "--conversation ID FILE", 1, func(f *flags) {
		asJSON = f.Bool("json", false, "print JSON instead of a table")
	})
	if err != nil {
		return err
	}
	defer done()
	list, err := sp.Versions(context.Background(), rec.ID)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e, map[string]any{"file": rec, "versions": nonNil(list)})
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
	sp, rec, rest, done, err := fileCommand(e, args, "restore", "--conversation ID FILE VERSION", 2, nil)
	if err != nil {
		return err
	}
	defer done()
	n, err := strconv.Atoi(rest[0])
	if err != nil || n < 1 {
		return usagef("the version %q is not a positive number", rest[0])
	}
	info, err := sp.Restore(context.Background(), rec.ID, n, files.WriteOptions{Source: files.SourceDerived})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "restored %s to version %d (%s)\n", info.Name, n, files.FormatBytes(info.Size))
	return nil
}
