//go:build unix && !linux

package sandbox

import "syscall"

// recvFlags: this system has no MSG_CMSG_CLOEXEC; closeOnExec marks the
// descriptors once received (workers start no programs, and the server
// starts workers under syscall.ForkLock).
const recvFlags = 0

// socketPairFDs makes two connected Unix stream sockets that close on
// exec, under syscall.ForkLock so no program starts in between.
func socketPairFDs() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	return fds, err
}

// workerAttr starts a worker in a process group of its own. There is no
// parent-death signal here: a worker whose server died finds its socket
// closed and exits.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// closeOnExec marks received descriptors.
func closeOnExec(fds []int) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	for _, fd := range fds {
		syscall.CloseOnExec(fd)
	}
}
