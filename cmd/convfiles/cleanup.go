package main

import (
	"context"
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
	store, closeStore, err := openStore(e, cfg, mustExist)
	if err != nil {
		return err
	}
	defer closeStore()
	var victims []files.ConversationInfo
	if *conv != "" {
		info, err := store.Conversation(context.Background(), *conv)
		if err != nil {
			return err
		}
		victims = append(victims, info)
	} else {
		all, err := store.Conversations(context.Background())
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
			if err := store.RemoveConversation(context.Background(), c.ID); err != nil {
				return err
			}
		}
		freed += c.Bytes
		fmt.Fprintf(e.stdout, "%s %s (%d files, %s, last change %s)\n", verb, c.ID, c.Files, files.FormatBytes(c.Bytes), c.Modified.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(e.stdout, "%s %d conversations, %s\n", verb, len(victims), files.FormatBytes(freed))
	return nil
}

// maxAge is the longest --older-than: a century, far inside what a
// time.Duration holds (a larger one overflowed to a negative age, which
// matched every conversation).
const maxAge = 100 * 365 * 24 * time.Hour

// parseAge accepts Go durations and whole days ("7d"), from a second to
// a century.
func parseAge(s string) (time.Duration, error) {
	bad := fmt.Errorf("--older-than %q: want a duration from 1s to 36500d, like 90m, 36h or 7d", s)
	var v time.Duration
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 || n > int64(maxAge/(24*time.Hour)) {
			return 0, bad
		}
		v = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if v, err = time.ParseDuration(s); err != nil {
			return 0, bad
		}
	}
	if v < time.Second || v > maxAge {
		return 0, bad
	}
	return v, nil
}
