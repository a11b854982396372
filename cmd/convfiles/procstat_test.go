package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's times.
const clockTicks = 100

// cpuByGroup sums the CPU time (user + system, in seconds) every process
// has used so far, grouped: "postgres", "s3" (versitygw), "replicas" (the
// given server processes and their script workers), "client" (this
// process), "other". A benchmark reads it before and after a run to say
// which part of the deployment the machine's cores went to.
func cpuByGroup(replicas []int) map[string]float64 {
	isReplica := map[int]bool{}
	for _, p := range replicas {
		isReplica[p] = true
	}
	out := map[string]float64{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range dirs {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(raw)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		comm := s[open+1 : close]
		fields := strings.Fields(s[close+1:])
		if len(fields) < 13 {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/proc/"), "/stat"))
		ppid, _ := strconv.Atoi(fields[1])
		utime, _ := strconv.ParseFloat(fields[11], 64)
		stime, _ := strconv.ParseFloat(fields[12], 64)
		group := "other"
		switch {
		case comm == "postgres":
			group = "postgres"
		case comm == "versitygw":
			group = "s3"
		case isReplica[pid] || isReplica[ppid]:
			group = "replicas"
		case pid == os.Getpid():
			group = "client"
		}
		out[group] += (utime + stime) / clockTicks
	}
	return out
}

// cpuSince is what each group used between two readings.
func cpuSince(before, after map[string]float64) map[string]float64 {
	d := map[string]float64{}
	for g, v := range after {
		d[g] = v - before[g]
	}
	return d
}
