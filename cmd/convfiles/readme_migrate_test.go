package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
)

// TestReadmeMovingAStore runs the README's two migrate commands on an
// embedded store with a history (versions, a deleted file, a folder, an
// API key, saved code): into PostgreSQL and S3 and back into a fresh data
// folder. Every conversation arrives as it was, a second run copies
// nothing, event numbers go on, and the key and the code come along.
func TestReadmeMovingAStore(t *testing.T) {
	section := readmeSection(t, "### Moving a store in and out", "")
	blocks := regexp.MustCompile("(?ms)^```bash\n(.*?)^```").FindAllStringSubmatch(section, -1)
	if len(blocks) != 1 {
		t.Fatalf("the section has %d bash blocks, want its commands", len(blocks))
	}
	lines := strings.Split(strings.TrimSpace(blocks[0][1]), "\n")
	if len(lines) != 2 {
		t.Fatalf("want the command there and the command back: %q", lines)
	}

	c := newCLI(t)
	fillEmbeddedStore(t, c)
	dir := t.TempDir()
	storage, _, _ := distributedConfig(t, "")
	replica := filepath.Join(dir, "replica.toml")
	os.WriteFile(replica, []byte("data_dir = "+quote(filepath.Join(dir, "replica-data"))+"\n"+storage), 0o600)
	embedded := filepath.Join(dir, "embedded.toml")
	os.WriteFile(embedded, []byte("data_dir = "+quote(filepath.Join(dir, "back"))+"\n"), 0o600)
	command := func(line string) MigrateReport {
		t.Helper()
		args := shellWords(strings.NewReplacer("replica.toml", replica, "embedded.toml", embedded).Replace(line))[1:]
		code, out, stderr := c.run("", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, stderr)
		}
		if !strings.Contains(stderr, "migrate [") || !strings.Contains(stderr, "100%") {
			t.Fatalf("%s: no progress on stderr: %q", line, stderr)
		}
		var rep MigrateReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: the report %q: %v", line, out, err)
		}
		return rep
	}

	source := c.openConfig(t, c.config, c.dataDir)
	want := map[string]enginetest.State{"c1": enginetest.StateOf(t, source.store, "c1"), "c2": enginetest.StateOf(t, source.store, "c2")}
	_, lastEvent, _ := source.store.Index().EventRange(context.Background())
	source.close()

	rep := command(lines[0])
	if rep.Conversations != 2 || rep.Files != 4 || rep.Versions != 3 || rep.Keys != 1 || rep.CodeFiles != 1 {
		t.Fatalf("into PostgreSQL and S3: %+v; want 2 conversations, 4 files, 3 versions, 1 key, 1 code file", rep)
	}
	if again := command(lines[0]); again.Files != 0 || again.Skipped != 4 || again.Bytes != 0 || again.Keys != 0 || again.CodeFiles != 0 {
		t.Fatalf("a second run: %+v; want everything skipped", again)
	}
	shared := c.openConfig(t, replica, c.dataDir)
	for conv, st := range want {
		if got := enginetest.StateOf(t, shared.store, conv); !reflect.DeepEqual(got, st) {
			t.Fatalf("%s in PostgreSQL and S3:\n%+v\nwant\n%+v", conv, got, st)
		}
	}
	sp, _ := shared.store.Space("c1")
	info, err := sp.WriteBytes(context.Background(), "after.txt", []byte("written after the move"), files.WriteOptions{})
	sp.Close()
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := shared.store.Index().Events(context.Background(), "c1", lastEvent, 10)
	if len(evs) != 1 || evs[0].ID != info.ID {
		t.Fatalf("events after the source's last (%d): %+v; want the new write's, numbered after it", lastEvent, evs)
	}
	code, out, _ := c.run("", "keys", "list", "--config", replica)
	if code != 0 || !strings.Contains(out, "chat backend") {
		t.Fatalf("keys list on the shared store: %d %s", code, out)
	}
	shared.close()

	if back := command(lines[1]); back.Conversations != 2 || back.Files != 5 || back.CodeFiles != 1 {
		t.Fatalf("back to disk: %+v; want both conversations, the five files, the code", back)
	}
	home := c.openConfig(t, embedded, filepath.Join(dir, "back"))
	defer home.close()
	if got := enginetest.StateOf(t, home.store, "c2"); !reflect.DeepEqual(got, want["c2"]) {
		t.Fatalf("c2 back on disk:\n%+v\nwant\n%+v", got, want["c2"])
	}
	code, out, _ = c.run("", "cat", "--config", embedded, "--data-dir", filepath.Join(dir, "back"), "--conversation", "c1", "after.txt")
	if code != 0 || out != "written after the move" {
		t.Fatalf("a file written on the shared store, back on disk: %d %q", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "back", "workspace", "hello.js")); err != nil || string(b) != "return 42" {
		t.Fatalf("the saved code back on disk: %q %v", b, err)
	}
}

// fillEmbeddedStore gives the CLI's embedded store two conversations
// with a history, an API key and a saved piece of code.
func fillEmbeddedStore(t *testing.T, c *cli) {
	t.Helper()
	script := `write_file("notes.txt", "one"); write_file("notes.txt", "two"); write_file("notes.txt", "three");
		write_file("data/table.csv", "a,b\n1,2\n"); write_file("gone.txt", "kept as a version")`
	for _, cmd := range [][]string{
		{"run", "--conversation", "c1"},
		{"rm", "--conversation", "c1", "gone.txt"},
		{"keys", "create", "--name", "chat backend", "--scopes", "read"},
	} {
		if code, _, stderr := c.run(script, cmd...); code != 0 {
			t.Fatalf("%v: exit %d: %s", cmd, code, stderr)
		}
	}
	if code, _, stderr := c.run(`write_file("only.txt", "c2's file")`, "run", "--conversation", "c2"); code != 0 {
		t.Fatal(stderr)
	}
	os.MkdirAll(filepath.Join(c.dataDir, "workspace"), 0o700)
	os.WriteFile(filepath.Join(c.dataDir, "workspace", "hello.js"), []byte("return 42"), 0o600)
}

// openedStore is a configuration's store, opened by a test.
type openedStore struct {
	store *engine.Store
	close func()
}

// openConfig opens the store the configuration file path names, with
// its data folder at dataDir.
func (c *cli) openConfig(t *testing.T, path, dataDir string) openedStore {
	t.Helper()
	cfg, err := loadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = dataDir
	store, closeStore, err := openIndexedStore(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return openedStore{store, closeStore}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestMigrateRefusals: migrate without a destination, into its own
// store, or with a --jobs out of range is refused as bad usage, saying
// what to give instead, before anything is opened.
func TestMigrateRefusals(t *testing.T) {
	c := newCLI(t)
	same := filepath.Join(t.TempDir(), "same.toml")
	os.WriteFile(same, []byte("data_dir = "+quote(c.dataDir)+"\n"), 0o600)
	other := filepath.Join(t.TempDir(), "other.toml")
	os.WriteFile(other, []byte("data_dir = "+quote(t.TempDir())+"\n"), 0o600)
	inside := filepath.Join(t.TempDir(), "inside.toml")
	os.WriteFile(inside, []byte("data_dir = "+quote(filepath.Join(c.dataDir, "files", "copy"))+"\n"), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate"}, "give the destination's configuration"},
		{[]string{"migrate", "--to", same}, "the source and the destination are the same store"},
		{[]string{"migrate", "--to", inside}, "is inside the source's"},
		{[]string{"migrate", "--to", other, "--jobs", "0"}, "--jobs must be between 1 and 64"},
		{[]string{"migrate", "--to", filepath.Join(t.TempDir(), "missing.toml")}, "missing.toml"},
	} {
		code, _, stderr := c.run("", tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d: %s; want a refusal saying %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(c.dataDir, "index.db")); err == nil {
		t.Error("a refused migrate opened the source store")
	}
}
