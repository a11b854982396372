package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
)

// listen binds addr; a port in use is said in words, with the flag that
// picks another.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%s is already in use (another convfiles, or another program): stop it, or serve on another address "+
			"with --addr, for example --addr 127.0.0.1:8081 (or address under [server] in the config)", addr)
	}
	return ln, err
}

// checkExposure refuses, in local mode, to listen where other machines
// can connect: nothing authenticates a local server's requests, so anyone
// on the network could read every conversation and run scripts on it. allowRemote is the operator's
// word that something in front (a proxy with authentication) does. The
// address is judged before anything is bound.
func checkExposure(address string, allowRemote bool) error {
	if allowRemote {
		return nil
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", address, err)
	}
	loopback := host == "localhost"
	if ip := net.ParseIP(host); ip != nil {
		loopback = ip.IsLoopback()
	} else if !loopback && host != "" {
		ips, err := net.DefaultResolver.LookupIPAddr(context.Background(), host)
		loopback = err == nil && len(ips) > 0
		for _, ip := range ips {
			loopback = loopback && ip.IP.IsLoopback()
		}
	}
	if loopback {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s: in local mode nothing authenticates requests, so every machine that can reach "+
		"this address could read and change every conversation's files and run scripts; listen on 127.0.0.1 (the default), "+
		"run in hosted mode (mode = \"hosted\": API keys, tokens and signed links; docs/hosted.md), "+
		"or put an authenticating proxy in front and set [server] allow_remote = true (--allow-remote)", address)
}
