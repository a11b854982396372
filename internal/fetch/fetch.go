// Package fetch downloads URLs for scripts (files.download) without letting
// them reach the server's own network: loopback, private, link-local,
// cloud-metadata and other non-public addresses are refused after name
// resolution and again on every redirect, because every connection is made
// to an address this package resolved and checked itself.
//
// It must never import another convfiles package.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"
)

// Policy says what may be fetched.
type Policy struct {
	// AllowPrivate lets downloads reach non-public addresses (a trusted
	// local setup). Off by default.
	AllowPrivate bool
	// Allow lists addresses or prefixes ("127.0.0.2", "10.1.0.0/16") that
	// may be reached although they are not public.
	Allow []string
	// MaxBytes caps one download (default 50 MiB).
	MaxBytes int64
	// Timeout bounds one download, redirects included (default 30 s).
	Timeout time.Duration
	// LookupIP resolves a host name; nil means the system resolver. Tests
	// use it to give names addresses.
	LookupIP func(ctx context.Context, host string) ([]netip.Addr, error)
}

// Fetcher downloads URLs under a Policy. It is safe for concurrent use.
type Fetcher struct {
	policy Policy
	allow  []netip.Prefix
	client *http.Client
}

// New returns a Fetcher for p, or an error naming a malformed Allow entry.
func New(p Policy) (*Fetcher, error) {
	if p.MaxBytes <= 0 {
		p.MaxBytes = 50 << 20
	}
	if p.Timeout <= 0 {
		p.Timeout = 30 * time.Second
	}
	if p.LookupIP == nil {
		p.LookupIP = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	f := &Fetcher{policy: p}
	for _, a := range p.Allow {
		pfx, err := netip.ParsePrefix(a)
		if err != nil {
			addr, err2 := netip.ParseAddr(a)
			if err2 != nil {
				return nil, fmt.Errorf("download allow entry %q is not an address or prefix", a)
			}
			pfx = netip.PrefixFrom(addr, addr.BitLen())
		}
		f.allow = append(f.allow, pfx)
	}
	f.client = &http.Client{
		Timeout: p.Timeout,
		Transport: &http.Transport{
			Proxy:               nil, // a proxy would connect for us, unchecked
			DialContext:         f.dial,
			TLSHandshakeTimeout: 10 * time.Second,
			MaxIdleConns:        16,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("more than 5 redirects")
			}
			return checkScheme(req.URL)
		},
	}
	return f, nil
}

// Error is a refused or failed download, with a message for the script.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Refused reports that the download was refused (by policy or a cap), for
// callers that match on behaviour rather than on this type.
func (e *Error) Refused() bool { return true }

func checkScheme(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return &Error{"only http and https URLs can be downloaded, not " + strconv.Quote(u.Scheme)}
	}
	return nil
}

// dial resolves the host itself, refuses if any of its addresses is not
// allowed, and connects to a checked address: the name cannot resolve to
// something else between the check and the connection.
func (f *Fetcher) dial(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = f.policy.LookupIP(ctx, host); err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	for _, a := range addrs {
		if why := f.refuse(a); why != "" {
			return nil, &Error{fmt.Sprintf("download from %s refused: %s is %s; only public addresses may be reached", host, a, why)}
		}
	}
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort(addrs[0].Unmap().String(), port))
}

// metadata are the cloud providers' instance-metadata addresses.
var metadata = []netip.Addr{netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("fd00:ec2::254"), netip.MustParseAddr("100.100.100.200")}

// refuse says why a may not be reached, or "" when it may. An address
// with a zone (fe80::1%eth0, ::1%lo) names an interface of this machine,
// whatever its digits: no prefix contains it, so it is refused before
// any is asked. An IPv4 address written as IPv6 (mapped) is judged as the
// IPv4 address it is.
func (f *Fetcher) refuse(a netip.Addr) string {
	if a.Zone() != "" {
		return "an address with a zone (%" + a.Zone() + "), which names an interface of this machine"
	}
	a = a.Unmap()
	for _, p := range f.allow {
		if p.Contains(a) {
			return ""
		}
	}
	for _, m := range metadata {
		if a == m {
			return "a cloud metadata address"
		}
	}
	if f.policy.AllowPrivate {
		return ""
	}
	if why := special(a); why != "" {
		return why
	}
	if !a.IsGlobalUnicast() {
		return "not a globally routable unicast address"
	}
	return ""
}

// Download is a fetched body being read.
type Download struct {
	Body io.ReadCloser // at most Policy.MaxBytes; reading more is an error
	Name string        // from Content-Disposition or the URL's last segment
}

// Get starts downloading rawURL. The caller must close the Body.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Download, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &Error{"not a URL: " + err.Error()}
	}
	if err := checkScheme(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &Error{err.Error()}
	}
	resp, err := f.client.Do(req)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			return nil, fe
		}
		return nil, fmt.Errorf("download of %s failed: %w", u.Redacted(), err)
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		return nil, fmt.Errorf("download of %s failed: %s", u.Redacted(), resp.Status)
	}
	if resp.ContentLength > f.policy.MaxBytes {
		resp.Body.Close()
		return nil, &Error{fmt.Sprintf("download of %s refused: %d bytes, over the cap of %d", u.Redacted(), resp.ContentLength, f.policy.MaxBytes)}
	}
	return &Download{Body: &capped{rc: resp.Body, left: f.policy.MaxBytes}, Name: nameOf(resp)}, nil
}

// capped fails a body that runs past the cap instead of cutting it short.
type capped struct {
	rc   io.ReadCloser
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	n, err := c.rc.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return 0, &Error{"the download is larger than its size cap"}
	}
	return n, err
}

func (c *capped) Close() error { return c.rc.Close() }

// nameOf picks a file name for a response: the server's suggestion, the
// last segment of the final URL, or "download".
func nameOf(resp *http.Response) string {
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		if n := path.Base(strings.ReplaceAll(params["filename"], `\`, "/")); n != "" && n != "." && n != "/" {
			return n
		}
	}
	if n := path.Base(resp.Request.URL.Path); n != "" && n != "." && n != "/" {
		return n
	}
	return "download"
}

// Download starts downloading rawURL and returns its body and suggested
// file name, for the runtime's Downloader interface.
func (f *Fetcher) Download(ctx context.Context, rawURL string) (io.ReadCloser, string, error) {
	d, err := f.Get(ctx, rawURL)
	if err != nil {
		return nil, "", err
	}
	return d.Body, d.Name, nil
}
