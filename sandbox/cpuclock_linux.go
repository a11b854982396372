package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// clockTicks is the unit of /proc's CPU times: USER_HZ, 100 on every
// Linux architecture's user-space ABI.
const clockTicks = 100

// processCPU is the CPU time, user and system, that process pid and its
// threads have used, read from /proc/pid/stat; false where it cannot be
// read (the process is gone).
func processCPU(pid int) (time.Duration, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from after its closing one. utime and stime are fields 14 and 15.
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0, false
	}
	fields := bytes.Fields(data[end+1:])
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(string(fields[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(fields[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, true
}
