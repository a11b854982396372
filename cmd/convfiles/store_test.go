package main

import (
	"os"
	"strings"
	"testing"

	"convfiles/content"
	"convfiles/files"
)

// TestSniffSeesWhatDetectionNeeds: the Store hands Sniff as many head bytes
// as content's detection reads, so "fewer bytes" still means "the whole
// file" to content.SniffMIME.
func TestSniffSeesWhatDetectionNeeds(t *testing.T) {
	if files.SniffBytes != content.SniffLen {
		t.Fatalf("files.SniffBytes %d != content.SniffLen %d", files.SniffBytes, content.SniffLen)
	}
}

// TestVersionsZeroKeepsNone: [limits] versions = 0 turns versions off
// (engine.Options reads 0 as its default, so the config maps it to -1).
func TestVersionsZeroKeepsNone(t *testing.T) {
	c := newCLI(t)
	os.WriteFile(c.config, []byte("[limits]\nversions = 0\n"), 0o600)
	c.run(`write_file("a.txt", "one")`, "run", "--conversation", "v", "-")
	c.run(`write_file("a.txt", "two")`, "run", "--conversation", "v", "-")
	if _, out, _ := c.run("", "versions", "--conversation", "v", "a.txt"); !strings.Contains(out, "0 kept") {
		t.Fatalf("versions = 0 kept some: %s", out)
	}
	os.WriteFile(c.config, []byte("[limits]\nversions = 1\n"), 0o600)
	c.run(`write_file("a.txt", "three")`, "run", "--conversation", "v", "-")
	c.run(`write_file("a.txt", "four")`, "run", "--conversation", "v", "-")
	if _, out, _ := c.run("", "versions", "--conversation", "v", "a.txt"); !strings.Contains(out, "1 kept") {
		t.Fatalf("versions = 1: %s", out)
	}
}
