package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"convfiles/internal/pgserver"
	"convfiles/internal/s3server"
)

// replicaSet is the replicas of one deployment: convfiles serve
// processes over one PostgreSQL database and one bucket.
type replicaSet struct {
	t    *testing.T
	toml string
	mu   sync.RWMutex
	dirs []string
	proc []*serverProcess
}

func (rs *replicaSet) base(i int) string {
	rs.mu.RLock()
	defer rs.mu.RUnlock()
	return rs.proc[i%len(rs.proc)].base
}

// startReplicas starts n replicas with the configuration toml, killed
// when the test ends.
func startReplicas(t *testing.T, n int, toml string) *replicaSet {
	rs := &replicaSet{t: t, toml: toml}
	for range n {
		dir := t.TempDir()
		rs.dirs = append(rs.dirs, dir)
		rs.proc = append(rs.proc, startServerProcessWith(t, dir, toml))
	}
	t.Cleanup(func() {
		for _, p := range rs.proc {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return rs
}

// pids are the replicas' processes.
func (rs *replicaSet) pids() []int {
	rs.mu.RLock()
	defer rs.mu.RUnlock()
	var out []int
	for _, p := range rs.proc {
		out = append(out, p.cmd.Process.Pid)
	}
	return out
}

// kill kills replica i with SIGKILL and, after pause, starts it again.
func (rs *replicaSet) kill(i int, pause time.Duration) {
	rs.mu.RLock()
	p := rs.proc[i]
	rs.mu.RUnlock()
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
	time.Sleep(pause)
	np := startServerProcessWith(rs.t, rs.dirs[i], rs.toml)
	rs.mu.Lock()
	rs.proc[i] = np
	rs.mu.Unlock()
}

// distributedConfig is the [storage] configuration of a deployment on
// the test servers, with the extra TOML given.
func distributedConfig(t testing.TB, extra string) (toml, dbURL string, bucket string) {
	s3 := s3server.Shared(t)
	dbURL, bucket = pgserver.Database(t), s3server.Bucket(t)
	toml = fmt.Sprintf(`[storage]
index = %q
blobs = "s3://%s/convfiles"
gc_interval = "0s"

[storage.s3]
endpoint = %q
access_key = %q
secret_key = %q
%s`, dbURL, bucket, s3.Endpoint(), s3server.AccessKey, s3server.SecretKey, extra)
	return toml, dbURL, bucket
}

// TestThreeReplicasSurviveAKill: six clients spread over three replicas
// on one PostgreSQL and one bucket write, edit, append, copy, rename and
// delete for 30 s; one replica is killed with SIGKILL half-way and
// started again. Afterwards every acknowledged write is there with its
// exact bytes, no conversation holds more than its quota, every event
// stream saw every event of its conversation once and in order (resuming
// on another replica with Last-Event-ID), and after a garbage collection
// no object lacks a row and no row lacks its object.
func TestThreeReplicasSurviveAKill(t *testing.T) {
	const quota = 512 << 10
	toml, dbURL, bucket := distributedConfig(t, fmt.Sprintf("\n[limits]\nmax_conversation_bytes = %d\nversions = 1\n", quota))
	rs := startReplicas(t, 3, toml)
	convs := []string{"c0", "c1", "c2"}
	ctx, stopStreams := context.WithCancel(context.Background())
	defer stopStreams()
	streams := make([]*eventReader, len(convs))
	for i, c := range convs {
		streams[i] = newEventReader(t, ctx, rs, c, i)
	}

	duration := 30 * time.Second
	if testing.Short() {
		duration = 8 * time.Second
	}
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	clients := make([]*replicaClient, 6)
	for k := range clients {
		clients[k] = &replicaClient{t: t, rs: rs, conv: convs[k%len(convs)], id: k, model: map[string][]byte{},
			rnd: rand.New(rand.NewPCG(uint64(k), 7))}
		wg.Add(1)
		go func() { defer wg.Done(); clients[k].run(deadline) }()
	}
	time.Sleep(duration / 2)
	rs.kill(1, 2*time.Second)
	wg.Wait()

	acked := 0
	for _, c := range clients {
		acked += c.acked
		c.verify()
	}
	if acked < 100 {
		t.Fatalf("only %d acknowledged changes in %s: the replicas hardly served", acked, duration)
	}
	db, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	for i, c := range convs {
		var used int64
		db.QueryRow(context.Background(), `SELECT COALESCE((SELECT bytes FROM usage WHERE conversation = $1), 0)`, c).Scan(&used)
		if used > quota {
			t.Errorf("%s holds %d bytes, past its quota of %d", c, used, quota)
		}
		streams[i].checkAgainst(db)
	}
	stopStreams()
	collectAndCheckObjects(t, rs, db, s3server.Shared(t), bucket)
	t.Logf("%d acknowledged changes; %d refused at the quota; %d with an outcome unknown at the kill", acked, sumOf(clients, func(c *replicaClient) int { return c.refused }), sumOf(clients, func(c *replicaClient) int { return c.unknown }))
}

func sumOf(cs []*replicaClient, f func(*replicaClient) int) int {
	n := 0
	for _, c := range cs {
		n += f(c)
	}
	return n
}

// collectAndCheckObjects runs convfiles collect-garbage without a grace
// period and checks that the bucket's objects are exactly those the rows
// name.
func collectAndCheckObjects(t *testing.T, rs *replicaSet, db *pgx.Conn, s3 *s3server.Server, bucket string) {
	t.Helper()
	c := newCLI(t)
	cfgPath := filepath.Join(rs.dirs[0], "config", "convfiles", "config.toml")
	if _, err := os.Stat(cfgPath); err != nil {
		t.Fatal(err)
	}
	c.config = cfgPath
	code, out, errOut := c.run("", "collect-garbage", "--grace", "0s")
	if code != 0 {
		t.Fatalf("collect-garbage: exit %d\n%s", code, errOut)
	}
	t.Logf("collect-garbage: %s", out)
	named := map[string]bool{}
	rows, _ := db.Query(context.Background(), `SELECT conversation || '/' || blob FROM files WHERE blob <> ''
		UNION ALL SELECT conversation || '/' || blob FROM versions WHERE blob <> ''`)
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		named[k] = true
	}
	stored := listBucket(t, s3, bucket, "convfiles/")
	for k := range stored {
		if !named[k] && filepath.Base(filepath.Dir(k)) == ".convfiles-objects" {
			t.Errorf("object %s is named by no row after the collection", k)
		}
	}
	for k := range named {
		if !stored[k] {
			t.Errorf("a row names %s, which is not in the bucket", k)
		}
	}
}
