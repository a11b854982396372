package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTyposAreErrorsNotEmptyAnswers: a mistyped data folder or
// conversation is an error naming it and how to find the right one; a
// read never makes a store where there was none; a bad argument is a
// usage error (exit 2) in words, not Go's types.
func TestTyposAreErrorsNotEmptyAnswers(t *testing.T) {
	c := newCLI(t)
	typo := filepath.Join(t.TempDir(), "typo")
	for _, args := range [][]string{
		{"ls"}, {"ls", "--conversation", "c1"}, {"cat", "--conversation", "c1", "a.txt"},
		{"versions", "--conversation", "c1", "a.txt"}, {"call", "--conversation", "c1", "read_text", "id=a.txt"},
		{"rm", "--conversation", "c1", "a.txt"}, {"cleanup", "--older-than", "1d"},
	} {
		full := append([]string{args[0], "--config", c.config, "--data-dir", typo}, args[1:]...)
		var out, errb strings.Builder
		code := run(full, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
		if code != 1 || !strings.Contains(errb.String(), "no convfiles store in "+typo) || !strings.Contains(errb.String(), "--data-dir") {
			t.Errorf("%v on a typo'd --data-dir: exit %d, %q", args, code, errb.String())
		}
		if _, err := os.Stat(typo); !os.IsNotExist(err) {
			t.Fatalf("%v made %s: %v", args, typo, err)
		}
	}

	c.run(`write_file("a.txt", "one\ntwo\n")`, "run", "--conversation", "c1")
	for _, args := range [][]string{
		{"ls", "--conversation", "c2"}, {"cat", "--conversation", "c2", "a.txt"}, {"versions", "--conversation", "c2", "a.txt"},
		{"call", "--conversation", "c2", "read_text", "id=a.txt"}, {"rm", "--conversation", "c2", "a.txt"},
	} {
		code, out, errs := c.run("", args...)
		if code != 1 || out != "" || !strings.Contains(errs, `there is no conversation "c2"`) || !strings.Contains(errs, "convfiles ls lists") {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errs)
		}
	}
	if code, _, errs := c.run("", "call", "--conversation", "c2", "write_text", "id=b.txt", "content=new"); code != 0 {
		t.Errorf("a first write makes its conversation: exit %d %s", code, errs)
	}

	for _, c2 := range []struct {
		args []string
		says string
	}{
		{[]string{"call", "--conversation", "c1", "read_text", "id=a.txt", "start_line=abc"}, "start_line must be a whole number, not a string"},
		{[]string{"call", "--conversation", "c1", "read_text", "id=a.txt", "strat_line=2"}, `no parameter "strat_line": the parameters are id, start_line`},
		{[]string{"call", "--conversation", "c1", "read_text", `["a.txt"]`}, "pass the input as one JSON object or as key=value pairs"},
		{[]string{"ls", "c1"}, "did you mean --conversation c1?"},
		{[]string{"cat", "--conversation", "c1", "--version", "0", "a.txt"}, "kept versions are numbered from 1"},
		{[]string{"cat", "--conversation", "c1", "--version", "-2", "a.txt"}, "kept versions are numbered from 1"},
		{[]string{"ls", "--pattern", "*.txt"}, "--pattern needs --conversation"},
	} {
		code, _, errs := c.run("", c2.args...)
		if code != 2 || !strings.Contains(errs, c2.says) || strings.Contains(errs, "Go struct") {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c2.args, code, errs, c2.says)
		}
	}
}

// TestLsAndVersionsSpeakJSON: --json prints what a program reads, the
// same fields the REST API answers.
func TestLsAndVersionsSpeakJSON(t *testing.T) {
	c := newCLI(t)
	c.run(`write_file("a.txt", "one"); write_file("a.txt", "two")`, "run", "--conversation", "c1")
	var convs struct {
		Conversations []struct {
			ID    string `json:"id"`
			Files int    `json:"files"`
		} `json:"conversations"`
	}
	_, out, _ := c.run("", "ls", "--json")
	if err := json.Unmarshal([]byte(out), &convs); err != nil || len(convs.Conversations) != 1 || convs.Conversations[0].ID != "c1" || convs.Conversations[0].Files != 1 {
		t.Fatalf("ls --json: %v %s", err, out)
	}
	var list struct {
		Files []struct {
			Name string `json:"name"`
			Size int64  `json:"size"`
		} `json:"files"`
	}
	_, out, _ = c.run("", "ls", "--json", "--conversation", "c1")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Files) != 1 || list.Files[0].Name != "a.txt" || list.Files[0].Size != 3 {
		t.Fatalf("ls --json --conversation: %v %s", err, out)
	}
	var versions struct {
		File struct {
			Version int `json:"version"`
		} `json:"file"`
		Versions []struct {
			Version int   `json:"version"`
			Size    int64 `json:"size"`
		} `json:"versions"`
	}
	_, out, _ = c.run("", "versions", "--json", "--conversation", "c1", "a.txt")
	if err := json.Unmarshal([]byte(out), &versions); err != nil || versions.File.Version != 2 || len(versions.Versions) != 1 || versions.Versions[0].Size != 3 {
		t.Fatalf("versions --json: %v %s", err, out)
	}
}

// TestABusyPortNamesTheFlag: a port in use says so and names --addr,
// before the store is opened.
func TestABusyPortNamesTheFlag(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	c := newCLI(t)
	code, _, errs := c.run("", "serve", "--addr", busy.Addr().String())
	if code != 1 || !strings.Contains(errs, busy.Addr().String()+" is already in use") || !strings.Contains(errs, "--addr") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(c.dataDir); !os.IsNotExist(err) {
		t.Errorf("the store was opened before the port: %v", err)
	}
}
