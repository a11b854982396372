package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"convfiles/files"
)

func cmdCleanup(e *env, args []string) error {
	f := newFlags(e, "cleanup", "(--conversation ID | --older-than DURATION) [--dry-run]")
	conv := f.String("conversation", "", "delete this conversation")
	olderThan := f.String("older-than", "", "delete conversations unchanged for this long: 90m, 36h, 7d")
	dryRun := f.Bool("dry-run", false, "print what would be deleted and delete nothing")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if (*conv == "") == (*olderThan == "") {
		return usagef("give exactly one of --conversation ID or --older-than DURATION")
	}
	var age time.Duration
	if *olderThan != "" {
		if age, err = parseAge(*olderThan); err != nil {
			return usagef("%v", err)
		}
	}
	store, closeStore, err := openStore(e, cfg)
	if err != nil {
		return err
	}
	defer closeStore()
	var victims []files.ConversationInfo
	if *conv != "" {
		info, err := store.Conversation(*conv)
		if err != nil {
			return err
		}
		victims = append(victims, info)
	} else {
		all, err := store.Conversations()
		if err != nil {
			return err
		}
		cutoff := time.Now().Add(-age)
		for _, c := range all {
			if c.Modified.Before(cutoff) {
				victims = append(victims, c)
			}
		}
	}
	verb := "deleted"
	if *dryRun {
		verb = "would delete"
	}
	var freed int64
	for _, c := range victims {
		if !*dryRun {
			if err := store.RemoveConversation(c.ID); err != nil {
				return err
			}
		}
		freed += c.Bytes
		fmt.Fprintf(e.stdout, "%s %s (%d files, %s, last change %s)\n", verb, c.ID, c.Files, files.FormatBytes(c.Bytes), c.Modified.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(e.stdout, "%s %d conversations, %s\n", verb, len(victims), files.FormatBytes(freed))
	return nil
}

// parseAge accepts Go durations and whole days ("7d").
func parseAge(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("--older-than %q: want a duration like 90m, 36h or 7d", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("--older-than %q: want a duration like 90m, 36h or 7d", s)
	}
	return v, nil
}
