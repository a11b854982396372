package main

import (
	"os"
	"strings"
	"testing"
)

// TestStorageConfigRefusals: a [storage] section that cannot work is
// refused before anything opens, with what to write instead, and a
// password in the index URL never shows in the message.
func TestStorageConfigRefusals(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{`[storage]` + "\n" + `index = "mysql://u:secret@h/db"`, "give a PostgreSQL URL"},
		{`[storage]` + "\n" + `blobs = "s3://bucket/prefix"`, "needs storage.index on PostgreSQL"},
		{`[storage]` + "\n" + `index = "postgres://h/db"` + "\n" + `blobs = "gs://bucket"`, "write s3://bucket"},
		{`[storage]` + "\n" + `gc_grace = "-1h"`, "must not be negative"},
		{"[storage.s3]\npart_size = 1024", "between 5 MiB and 5 GiB"},
		{"[storage.s3]\ncache_bytes = -5", "-1 (no cache)"},
		{"[storage.s3]\nredirect_over = -1", "0 (relay every file"},
		{"[storage.s3]\npublic_endpoint = \"s3.example.com\"", "as clients reach it"},
	} {
		c := newCLI(t)
		os.WriteFile(c.config, []byte(tc.toml), 0o600)
		code, _, errs := c.run("", "ls")
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Contains(errs, "secret") {
			t.Errorf("%s: exit %d: %s; want a refusal saying %q, without the password", tc.toml, code, errs, tc.want)
		}
	}
	c := newCLI(t)
	if code, _, errs := c.run("", "collect-garbage"); code == 0 || !strings.Contains(errs, "object store") {
		t.Errorf("collect-garbage on the data folder: exit %d: %s", code, errs)
	}
}
