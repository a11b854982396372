package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// servers: an allowed one on 127.0.0.2 standing for the public internet,
// and a secret one on 127.0.0.1 standing for the server's own network.
func servers(t *testing.T) (public, secret *httptest.Server, secretHits *atomic.Int64) {
	t.Helper()
	secretHits = &atomic.Int64{}
	secret = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secretHits.Add(1)
		io.WriteString(w, "internal secret")
	}))
	t.Cleanup(secret.Close)
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skip("127.0.0.2 cannot be bound on this machine:", err)
	}
	public = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/report.csv":
			io.WriteString(w, "a,b\n1,2\n")
		case "/named":
			w.Header().Set("Content-Disposition", `attachment; filename="../../q3 results.txt"`)
			io.WriteString(w, "named")
		case "/to-secret":
			http.Redirect(w, r, "http://internal.example.test:"+portOf(secret)+"/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/big":
			w.Write(make([]byte, 2048))
		}
	}))
	public.Listener.Close()
	public.Listener = ln
	public.Start()
	t.Cleanup(public.Close)
	return public, secret, secretHits
}

func portOf(s *httptest.Server) string {
	_, p, _ := net.SplitHostPort(s.Listener.Addr().String())
	return p
}

func fetcher(t *testing.T) *Fetcher {
	names := map[string]string{
		"files.example.test":    "127.0.0.2",
		"internal.example.test": "127.0.0.1",
		"localhost":             "127.0.0.1",
	}
	f, err := New(Policy{
		Allow:    []string{"127.0.0.2"},
		MaxBytes: 1024,
		LookupIP: func(ctx context.Context, host string) ([]netip.Addr, error) {
			if a, ok := names[host]; ok {
				return []netip.Addr{netip.MustParseAddr(a)}, nil
			}
			return nil, fmt.Errorf("no such host %s", host)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRefusesTheServersOwnNetwork(t *testing.T) {
	public, secret, hits := servers(t)
	f := fetcher(t)
	pub := "http://files.example.test:" + portOf(public)
	for _, u := range []string{
		secret.URL,                                    // loopback by address
		"http://localhost:" + portOf(secret),          // loopback by name
		"http://[::ffff:127.0.0.1]:" + portOf(secret), // IPv4-mapped IPv6
		"http://[::1]:" + portOf(secret),
		"http://169.254.169.254/latest/meta-data/",
		"http://10.0.0.1/",
		"http://192.168.1.1/",
		"http://172.16.0.1/",
		"http://100.64.0.1/",
		"http://0.0.0.0:" + portOf(secret),
		pub + "/to-secret",   // a public name that redirects inside
		pub + "/to-metadata", // and to the metadata service
		"file:///etc/passwd",
		"ftp://files.example.test/x",
	} {
		d, err := f.Get(context.Background(), u)
		if err == nil {
			b, _ := io.ReadAll(d.Body)
			d.Body.Close()
			t.Errorf("%s was fetched: %q", u, b)
			continue
		}
		if fe := (*Error)(nil); !errors.As(err, &fe) || !(strings.Contains(err.Error(), "only public addresses") || strings.Contains(err.Error(), "only http and https")) {
			t.Errorf("%s: %v", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the internal server was reached %d times", hits.Load())
	}
}

func TestFetchesFromAllowedServer(t *testing.T) {
	public, _, _ := servers(t)
	f := fetcher(t)
	base := "http://files.example.test:" + portOf(public)
	d, err := f.Get(context.Background(), base+"/report.csv")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(d.Body)
	d.Body.Close()
	if string(b) != "a,b\n1,2\n" || d.Name != "report.csv" {
		t.Fatalf("%q %q", b, d.Name)
	}
	if d, _ := f.Get(context.Background(), base+"/named"); d == nil || d.Name != "q3 results.txt" {
		t.Fatalf("Content-Disposition name: %+v", d)
	}
	d, err = f.Get(context.Background(), base+"/big")
	if err == nil {
		_, err = io.ReadAll(d.Body)
		d.Body.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "cap") {
		t.Fatalf("a download over the cap: %v", err)
	}
}

func TestTimeoutAndRedirectLimit(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		default: // /loop/N redirects forever
			http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
		}
	}))
	defer slow.Close()
	defer close(release)
	f, err := New(Policy{Allow: []string{"127.0.0.1"}, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := f.Get(context.Background(), slow.URL+"/slow"); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("a server that never answers: %v after %v", err, time.Since(start))
	}
	if _, err := f.Get(context.Background(), slow.URL+"/loop"); err == nil || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Fatalf("endless redirects: %v", err)
	}
	if _, err := New(Policy{Allow: []string{"not-an-address"}}); err == nil {
		t.Fatal("a malformed allow entry was accepted")
	}
}

// TestRefusesEverySpecialPurposeRange: every range of IANA's IPv4 and
// IPv6 special-purpose registries is refused, the ones a bare Go check
// misses included (0.0.0.0/8, NAT64, 6to4, IPv4-compatible IPv6, Teredo,
// documentation and benchmarking space); public addresses are not.
func TestRefusesEverySpecialPurposeRange(t *testing.T) {
	f := fetcher(t)
	for _, a := range []string{
		"0.1.2.3", "10.1.1.1", "100.64.0.1", "127.0.0.53", "169.254.1.1", "172.31.255.255", "192.0.0.170",
		"192.0.2.1", "192.31.196.1", "192.52.193.1", "192.88.99.1", "192.168.0.1", "192.175.48.1", "198.18.0.1",
		"198.51.100.1", "203.0.113.1", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
		"::", "::1", "::127.0.0.1", "::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b:1::1", "100::1", "2001::1",
		"2001:db8::1", "2002:7f00:1::1", "2002:a00:1::", "2620:4f:8000::1", "3fff::1", "5f00::1", "fc00::1",
		"fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
	} {
		addr := netip.MustParseAddr(a)
		if why := f.refuse(addr.Unmap()); why == "" {
			t.Errorf("%s is allowed", a)
		}
		host := a
		if addr.Is6() {
			host = "[" + a + "]"
		}
		if _, err := f.Get(context.Background(), "http://"+host+":1/"); err == nil || !strings.Contains(err.Error(), "only public addresses") {
			t.Errorf("GET %s: %v", host, err)
		}
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "2a00:1450:4001::200e"} {
		if why := f.refuse(netip.MustParseAddr(a)); why != "" {
			t.Errorf("public %s refused: %s", a, why)
		}
	}
}

// TestZonesAndOtherSpellingsNeverReachTheHost: a service listening on
// ::1 only is reached by no spelling of a local address: IPv6 zones
// (which no prefix contains), directly and through a redirect, nor the
// decimal, hex, octal and short forms of IPv4, nor IPv4 inside IPv6.
func TestZonesAndOtherSpellingsNeverReachTheHost(t *testing.T) {
	var hits atomic.Int64
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skip("::1 cannot be bound on this machine:", err)
	}
	local := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "host-only secret")
	}))
	local.Listener.Close()
	local.Listener = ln
	local.Start()
	defer local.Close()
	port := portOf(local)
	pubLn, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skip("127.0.0.2 cannot be bound on this machine:", err)
	}
	public := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://[::1%25lo]:"+port+"/", http.StatusFound)
	}))
	public.Listener.Close()
	public.Listener = pubLn
	public.Start()
	defer public.Close()

	f := fetcher(t)
	zoned := []string{
		"http://[::1%25lo]:" + port + "/",
		"http://[::1%251]:" + port + "/",
		"http://[fe80::1%25lo]:" + port + "/",
		"http://[fd00:ec2::254%25eth0]/latest/meta-data/",
		"http://[2606:4700::1111%25eth0]:" + port + "/", // a public address, made local by its zone
		"http://files.example.test:" + portOf(public) + "/to-zone",
	}
	for _, u := range zoned {
		_, err := f.Get(context.Background(), u)
		if fe := (*Error)(nil); !errors.As(err, &fe) || !strings.Contains(err.Error(), "zone") {
			t.Errorf("%s: %v, want a refusal naming the zone", u, err)
		}
	}
	for _, u := range []string{
		"http://2130706433:" + port + "/", "http://0x7f000001:" + port + "/", "http://0177.0.0.1:" + port + "/",
		"http://127.1:" + port + "/", "http://[::ffff:7f00:1]:" + port + "/", "http://[::127.0.0.1]:" + port + "/",
		"http://[64:ff9b::127.0.0.1]:" + port + "/", "http://[2002:7f00:1::]:" + port + "/", "http://[0:0:0:0:0:0:0:1]:" + port + "/",
	} {
		if d, err := f.Get(context.Background(), u); err == nil {
			d.Body.Close()
			t.Errorf("%s was fetched", u)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the host-only service was reached %d times", hits.Load())
	}
}
