package routes

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestRotatingSourceAddressesAreOneClient: a local program sending from
// 127.0.0.2, 127.0.0.3, … is one client to the per-client limit, as is
// an IPv6 /64; distinct IPv4 hosts are not.
func TestRotatingSourceAddressesAreOneClient(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1": "loopback", "127.0.0.9": "loopback", "::1": "loopback", "::ffff:127.0.0.5": "loopback",
		"2001:db8:1:2:aaaa::1": "2001:db8:1:2::/64", "2001:db8:1:2:bbbb::7": "2001:db8:1:2::/64",
		"203.0.113.7": "203.0.113.7", "::ffff:203.0.113.8": "203.0.113.8", "fe80::1%eth0": "fe80::/64",
	} {
		if got := clientNetwork(addr); got != want {
			t.Errorf("clientNetwork(%s) = %s, want %s", addr, got, want)
		}
	}

	e := newCodeEnv(t, func(c *Config) { c.RateLimits = RateLimits{PerClient: 3, PerCodeID: 100, Global: 100} })
	statuses := []int{}
	for i := 2; i <= 5; i++ {
		source := &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(i))}
		client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return (&net.Dialer{LocalAddr: source}).DialContext(ctx, network, addr)
		}}}
		req, _ := http.NewRequest("POST", e.srv.URL+"/execute", strings.NewReader(`{"code": "1"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Skip("127.0.0.x cannot be a source address on this machine:", err)
		}
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
	}
	if statuses[3] != http.StatusTooManyRequests {
		t.Fatalf("four requests from four loopback addresses under a limit of 3: %v", statuses)
	}
}
