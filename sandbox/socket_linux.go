package sandbox

import "syscall"

// recvFlags makes received descriptors close on exec, atomically.
const recvFlags = syscall.MSG_CMSG_CLOEXEC

// socketPairFDs makes two connected Unix stream sockets that close on
// exec, atomically.
func socketPairFDs() ([2]int, error) {
	return syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
}

// workerAttr starts a worker in a process group of its own, killed when
// the server dies.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// closeOnExec is done by recvFlags on Linux.
func closeOnExec([]int) {}
