//go:build load

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"convfiles/internal/pgserver"
	"convfiles/internal/s3server"
)

// loadRun is one run of the load-and-fault suite, read from the
// environment (see the README's "Load and faults"):
//
//	CONVFILES_LOAD_REPLICAS  replicas of convfiles serve (default 2)
//	CONVFILES_LOAD_CLIENTS   clients at once (default 64)
//	CONVFILES_LOAD_DURATION  how long they drive (default 20s)
//	CONVFILES_LOAD_FAULTS    comma-separated: kill, postgres, s3, disconnect,
//	                         disk (the local store's disk full for 3 s; needs
//	                         root to mount it) (default kill,postgres,disconnect)
//	CONVFILES_LOAD_STORE     distributed (PostgreSQL + S3, default) or local
//	                         (the data folder and SQLite, one replica)
type loadRun struct {
	replicas, clients int
	duration          time.Duration
	faults            map[string]bool
	store             string
}

func loadConfigFromEnv(t *testing.T) loadRun {
	c := loadRun{replicas: 2, clients: 64, duration: 20 * time.Second, store: "distributed",
		faults: map[string]bool{"kill": true, "postgres": true, "disconnect": true}}
	var err error
	if v := os.Getenv("CONVFILES_LOAD_REPLICAS"); v != "" {
		c.replicas, err = strconv.Atoi(v)
	}
	if v := os.Getenv("CONVFILES_LOAD_CLIENTS"); v != "" && err == nil {
		c.clients, err = strconv.Atoi(v)
	}
	if v := os.Getenv("CONVFILES_LOAD_DURATION"); v != "" && err == nil {
		c.duration, err = time.ParseDuration(v)
	}
	if v, ok := os.LookupEnv("CONVFILES_LOAD_FAULTS"); ok {
		c.faults = map[string]bool{}
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				c.faults[f] = true
			}
		}
	}
	if v := os.Getenv("CONVFILES_LOAD_STORE"); v != "" {
		c.store = v
	}
	if err != nil {
		t.Fatalf("the load suite's settings: %v", err)
	}
	if c.store == "local" && (c.replicas != 1 || c.faults["postgres"] || c.faults["s3"]) {
		t.Fatal("the local store runs one replica, and has no PostgreSQL or S3 server to stop")
	}
	if c.faults["disk"] && c.store != "local" {
		t.Fatal("the disk fault fills the local store's disk: set CONVFILES_LOAD_STORE=local")
	}
	return c
}

// TestLoadAndFaults drives mixed changes through REST, /execute and MCP
// from many clients at once over the replicas, with the faults asked for
// injected half-way, and then checks from every replica that every
// acknowledged change is there with its bytes, that listings hold exactly
// the acknowledged files, that no row lacks its object and, after a
// garbage collection, that no object lacks a row. No request may go
// unanswered past the server's deadline.
func TestLoadAndFaults(t *testing.T) {
	cfg := loadConfigFromEnv(t)
	var pg *pgserver.Server
	var s3 *s3server.Server
	var toml, dbURL string
	const bucket = "load"
	if cfg.store == "distributed" {
		pgserver.Require(t)
		s3server.Require(t)
		var err error
		if s3, err = s3server.Start(); err != nil {
			t.Fatal(err)
		}
		defer s3.Stop()
		if err := s3.CreateBucket(bucket); err != nil {
			t.Fatal(err)
		}
		if pg, err = pgserver.Start(pgserver.Options{}); err != nil {
			t.Fatal(err)
		}
		defer pg.Stop()
		dbURL = pg.URL("postgres")
		toml = fmt.Sprintf("[storage]\nindex = %q\nblobs = \"s3://%s/convfiles\"\ngc_interval = \"0s\"\n\n[storage.s3]\nendpoint = %q\naccess_key = %q\nsecret_key = %q\n",
			dbURL, bucket, s3.Endpoint(), s3server.AccessKey, s3server.SecretKey)
	}
	toml += "\n[limits]\nversions = 1\n\n[ratelimit]\nper_client = 0\nper_code_id = 0\nglobal = 0\nmcp_per_client = 0\n"
	var rs *replicaSet
	var diskDir string
	if cfg.faults["disk"] {
		// The one replica's whole data folder (files and index) on a disk
		// of its own, which the fault fills.
		diskDir = t.TempDir()
		mountSmallDisk(t, diskDir, "512m")
		rs = &replicaSet{t: t, toml: toml, dirs: []string{diskDir}, proc: []*serverProcess{startServerProcessWith(t, diskDir, toml)}}
		t.Cleanup(func() { rs.proc[0].cmd.Process.Kill(); rs.proc[0].cmd.Wait() })
	} else {
		rs = startReplicas(t, cfg.replicas, toml)
	}

	drive := newLoadDrive(0)
	if cfg.faults["disconnect"] {
		drive.disconnect = 0.02
	}
	convs := 8
	deadline := time.Now().Add(cfg.duration)
	clients := make([]*replicaClient, cfg.clients)
	var wg sync.WaitGroup
	before := cpuByGroup(rs.pids())
	for k := range clients {
		clients[k] = &replicaClient{t: t, rs: rs, conv: fmt.Sprintf("load-%d", k%convs), id: k, model: map[string][]byte{},
			rnd: rand.New(rand.NewPCG(uint64(k), 11)), load: drive}
		wg.Add(1)
		go func() { defer wg.Done(); clients[k].run(deadline) }()
	}
	time.Sleep(cfg.duration / 3)
	if cfg.faults["kill"] && cfg.replicas > 1 {
		t.Log("fault: SIGKILL of replica 1, started again 2 s later")
		rs.kill(1, 2*time.Second)
	}
	if cfg.faults["postgres"] {
		t.Log("fault: PostgreSQL stopped for 3 s")
		if err := pg.Restart(3 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.faults["s3"] {
		t.Log("fault: the S3 server stopped for 3 s")
		if err := s3.Restart(3 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.faults["disk"] {
		t.Log("fault: the data folder's disk full for 3 s")
		free := fillDisk(t, filepath.Join(diskDir, "filler"))
		time.Sleep(3 * time.Second)
		free()
	}
	wg.Wait()
	cpu := cpuSince(before, cpuByGroup(rs.pids()))

	acked, unknown := sumOf(clients, func(c *replicaClient) int { return c.acked }), sumOf(clients, func(c *replicaClient) int { return c.unknown })
	if acked < cfg.clients {
		t.Fatalf("only %d acknowledged changes from %d clients in %s: the replicas hardly served", acked, cfg.clients, cfg.duration)
	}
	for i := range cfg.replicas {
		for _, c := range clients {
			c.verifyOn(i)
		}
	}
	if cfg.store == "distributed" {
		db, err := pgx.Connect(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close(context.Background())
		collectAndCheckObjects(t, rs, db, s3, bucket)
	}
	perOp := func(group string) float64 { return cpu[group] / float64(acked) * 1000 }
	refused := sumOf(clients, func(c *replicaClient) int { return c.refused })
	t.Logf("LOAD replicas=%d clients=%d duration=%s faults=%v store=%s: %d acknowledged (%.0f/s; rest %d, execute %d, mcp %d), %d of unknown outcome resolved, %d refused by a full disk, %d abandoned by their client, %d stalled; CPU ms per change: replicas %.2f, postgres %.2f, s3 %.2f",
		cfg.replicas, cfg.clients, cfg.duration, slices.Sorted(mapsKeys(cfg.faults)), cfg.store, acked, float64(acked)/cfg.duration.Seconds(),
		drive.byDoor[0].Load(), drive.byDoor[1].Load(), drive.byDoor[2].Load(), unknown, refused, drive.abandoned.Load(), drive.stalled.Load(),
		perOp("replicas"), perOp("postgres"), perOp("s3"))
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// verifyOn checks the client's files on replica i: each holds what the
// acknowledged changes left, and the listing holds exactly those files.
func (c *replicaClient) verifyOn(i int) {
	base := c.rs.base(i)
	for n := range 4 {
		name := c.name(n)
		resp, err := http.Get(fmt.Sprintf("%s/files/%s/%s", base, c.conv, name))
		if err != nil {
			c.t.Fatalf("replica %d: %v", i, err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want, exists := c.model[name]
		switch {
		case exists && (resp.StatusCode != 200 || string(got) != string(want)):
			c.t.Errorf("replica %d: %s/%s answers %d with %d bytes; the acknowledged changes left %d", i, c.conv, name, resp.StatusCode, len(got), len(want))
		case !exists && resp.StatusCode != 404:
			c.t.Errorf("replica %d: %s/%s answers %d; the acknowledged changes left no file", i, c.conv, name, resp.StatusCode)
		}
	}
	body, _ := json.Marshal(map[string]any{"pattern": fmt.Sprintf("w%d-*.txt", c.id)})
	resp, err := http.Post(fmt.Sprintf("%s/api/conversations/%s/ops/list", base, c.conv), "application/json", strings.NewReader(string(body)))
	if err != nil {
		c.t.Fatalf("replica %d: %v", i, err)
	}
	defer resp.Body.Close()
	var out struct {
		Result struct {
			Files []struct{ Name string }
		}
	}
	json.NewDecoder(resp.Body).Decode(&out)
	var listed, want []string
	for _, f := range out.Result.Files {
		listed = append(listed, f.Name)
	}
	for n := range c.model {
		want = append(want, n)
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		c.t.Errorf("replica %d lists %v for client %d, the acknowledged changes left %v", i, listed, c.id, want)
	}
}
