package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"convfiles/files"
	"convfiles/prompts"
	"convfiles/routes"
	"convfiles/routes/mcp"
)

// cmdLs lists the conversations, or the files of one, as a table or,
// with --json, as the JSON the REST API answers.
func cmdLs(e *env, args []string) error {
	f := newFlags(e, "ls", "")
	conv := f.String("conversation", "", "list this conversation's files instead of the conversations")
	pattern := f.String("pattern", "", `with --conversation: only files matching this glob ("*.csv", "data/*")`)
	asJSON := f.Bool("json", false, "print JSON instead of a table")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usagef("ls takes no arguments (did you mean --conversation %s?)", f.Arg(0))
	}
	if *pattern != "" && *conv == "" {
		return usagef("--pattern needs --conversation: it filters one conversation's files")
	}
	store, closeStore, err := openStore(e, cfg, mustExist)
	if err != nil {
		return err
	}
	defer closeStore()
	if *conv == "" {
		convs, err := store.Conversations(context.Background())
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(e, map[string]any{"conversations": nonNil(convs)})
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		defer tw.Flush()
		fmt.Fprintln(tw, "CONVERSATION\tFILES\tSIZE\tMODIFIED")
		for _, c := range convs {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", c.ID, c.Files, files.FormatBytes(c.Bytes), c.Modified.UTC().Format(time.RFC3339))
		}
		return nil
	}
	if err := conversationExists(store, cfg, *conv); err != nil {
		return err
	}
	sp, err := store.Space(*conv)
	if err != nil {
		return err
	}
	defer sp.Close()
	list, _, err := sp.Find(context.Background(), files.ListQuery{Pattern: *pattern})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e, map[string]any{"conversation": *conv, "files": nonNil(list)})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "NAME\tSIZE\tTYPE\tMODIFIED\tID")
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, files.FormatBytes(r.Size), r.MIME, r.Modified.UTC().Format(time.RFC3339), r.ID)
	}
	return nil
}

// printJSON prints v as indented JSON.
func printJSON(e *env, v any) error {
	out := json.NewEncoder(e.stdout)
	out.SetIndent("", "  ")
	return out.Encode(v)
}

// nonNil is list, or an empty one: JSON readers expect [], not null.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

func cmdCat(e *env, args []string) error {
	f := newFlags(e, "cat", "--conversation ID NAME")
	conv := f.String("conversation", "", "the conversation (required)")
	version := f.Int("version", 0, "print this kept earlier version instead (see convfiles versions)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *conv == "" || f.NArg() != 1 {
		return usagef("usage: convfiles cat --conversation ID NAME")
	}
	versionSet := false
	f.Visit(func(fl *flag.Flag) { versionSet = versionSet || fl.Name == "version" })
	if versionSet && *version < 1 {
		return usagef("--version %d: kept versions are numbered from 1 (convfiles versions lists them); leave it out for the current content", *version)
	}
	sp, done, err := openSpace(e, cfg, *conv, mustExist)
	if err != nil {
		return err
	}
	defer done()
	var file io.ReadCloser
	if *version > 0 {
		rec, err := sp.Record(context.Background(), f.Arg(0))
		if err != nil {
			return err
		}
		file, _, err = sp.OpenVersion(context.Background(), rec.ID, *version)
		if err != nil {
			return err
		}
	} else {
		name, err := sp.Resolve(context.Background(), f.Arg(0))
		if err != nil {
			return err
		}
		if file, _, err = sp.Open(context.Background(), name); err != nil {
			return err
		}
	}
	defer file.Close()
	_, err = io.Copy(e.stdout, file)
	return err
}

func cmdRm(e *env, args []string) error {
	f := newFlags(e, "rm", "--conversation ID NAME...")
	conv := f.String("conversation", "", "the conversation (required)")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *conv == "" || f.NArg() == 0 {
		return usagef("usage: convfiles rm --conversation ID NAME...")
	}
	sp, done, err := openSpace(e, cfg, *conv, mustExist)
	if err != nil {
		return err
	}
	defer done()
	failed := false
	for _, name := range f.Args() {
		clean, err := sp.Resolve(context.Background(), name)
		if err == nil {
			err = sp.Remove(context.Background(), clean)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "convfiles rm: %v\n", err)
			failed = true
			continue
		}
		fmt.Fprintf(e.stdout, "removed %s\n", name)
	}
	if failed {
		return errReported
	}
	return nil
}

func cmdPrompt(e *env, args []string) error {
	f := newFlags(e, "prompt", "")
	conv := f.String("conversation", "", "list this conversation's files after the prompt")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *conv == "" {
		_, err := io.WriteString(e.stdout, prompts.System())
		return err
	}
	if err := files.ValidateConversationID(*conv); err != nil {
		return usagef("--conversation: %v", files.MessageOf(err))
	}
	store, closeStore, err := openStore(e, cfg, mustExist)
	if err != nil {
		return err
	}
	defer closeStore()
	text, err := mcp.ConversationPrompt(store, *conv, routes.Links{Base: cfg.publicURL()}.URL)
	if err != nil {
		return err
	}
	_, err = io.WriteString(e.stdout, text)
	return err
}
