package routes

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Access says which hosts and which other origins a server answers. A
// local convfiles has no credentials, so this is all that keeps a web page
// the user happens to visit from using it: a DNS-rebinding page arrives
// with its own name in Host, and a cross-site page's requests carry its
// Origin and Sec-Fetch-Site: cross-site.
type Access struct {
	// Hosts are host names (no port) served besides the loopback ones
	// (localhost, *.localhost, 127.0.0.0/8, ::1) and the host of the public
	// URL, which New adds.
	Hosts []string
	// CORSOrigins are origins ("https://chat.example", no path) whose pages
	// may call the API: they pass the origin check and get CORS headers.
	// Empty, no CORS header is ever sent.
	CORSOrigins []string
}

// originGuard applies an Access to every request before it is routed.
type originGuard struct {
	hosts   map[string]bool
	cors    map[string]bool
	crossOK *http.CrossOriginProtection
}

func newOriginGuard(a Access, publicBase string) (*originGuard, error) {
	g := &originGuard{hosts: map[string]bool{}, cors: map[string]bool{}, crossOK: http.NewCrossOriginProtection()}
	for _, h := range a.Hosts {
		g.hosts[strings.ToLower(strings.TrimSuffix(h, "."))] = true
	}
	if u, err := url.Parse(publicBase); err == nil && u.Host != "" {
		g.hosts[strings.ToLower(u.Hostname())] = true
		// A page opened at the public URL (behind a proxy that rewrites
		// Host) is the server's own page.
		if err := g.crossOK.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			return nil, fmt.Errorf("public URL %q: %w", publicBase, err)
		}
	}
	for _, o := range a.CORSOrigins {
		if err := g.crossOK.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("CORS origin %q must be scheme://host[:port]: %w", o, err)
		}
		g.cors[o] = true
	}
	return g, nil
}

// refusal is why a request was turned away, as the client will read it.
type refusal struct {
	status  int
	typ     string
	message string
}

// check decides whether r may be served at all, and answers CORS
// preflights. It returns false when it has answered the request.
func (g *originGuard) check(w http.ResponseWriter, r *http.Request) bool {
	if ref := g.refuse(r); ref != nil {
		w.Header().Set("Vary", "Origin")
		writeJSON(w, ref.status, envelope{Error: &errorBody{Type: ref.typ, Message: ref.message}})
		return false
	}
	origin := r.Header.Get("Origin")
	if g.cors[origin] {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, Retry-After, ETag, Content-Disposition")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version, Range, If-None-Match")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return false
		}
	}
	return true
}

func (g *originGuard) refuse(r *http.Request) *refusal {
	if !g.hostAllowed(r.Host) {
		return &refusal{http.StatusForbidden, "HostError", fmt.Sprintf(
			"host %q is not served here: convfiles answers to localhost, loopback addresses and the host of its public URL; "+
				"if this name is yours, add it to [server] allowed_hosts", hostOnly(r.Host))}
	}
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" && !g.cors[r.Header.Get("Origin")] {
		return &refusal{http.StatusForbidden, "OriginError", "cross-origin requests are not allowed: " + g.allowList()}
	}
	if !g.guarded(r) {
		return nil
	}
	// The standard library's check lets safe methods through; the guarded
	// reads (/mcp's stream, the API's JSON) are judged as writes are.
	probe := r
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		// A shallow copy: Check reads only the method, headers and Host.
		asWrite := *r
		asWrite.Method = http.MethodPost
		probe = &asWrite
	}
	if err := g.crossOK.Check(probe); err != nil {
		from := r.Header.Get("Origin")
		if from == "" {
			from = "another site (Sec-Fetch-Site: " + r.Header.Get("Sec-Fetch-Site") + ")"
		}
		return &refusal{http.StatusForbidden, "OriginError", "a request from " + from +
			" may not use this server: it has no credentials, so only its own page and clients that are not browsers may change or read files; " + g.allowList()}
	}
	return nil
}

// guarded reports whether r must come from the server's own page (or an
// allowed origin): every request that changes something, every /mcp
// request, and the API's reads. Links (/files/…), the page and /healthz
// stay open to any page, as links in a chat must.
func (g *originGuard) guarded(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		return true
	}
	p := r.URL.Path
	return p == "/mcp" || strings.HasPrefix(p, "/api/")
}

func (g *originGuard) allowList() string {
	if len(g.cors) == 0 {
		return "no other origin is allowed (set [server] cors_origins to allow one)"
	}
	list := make([]string, 0, len(g.cors))
	for o := range g.cors {
		list = append(list, o)
	}
	slices.Sort(list)
	return "allowed origins: " + strings.Join(list, ", ")
}

// hostAllowed reports whether a Host header names this server. An empty
// Host comes only from HTTP/1.0 clients, never from a browser.
func (g *originGuard) hostAllowed(hostport string) bool {
	if hostport == "" {
		return true
	}
	h := strings.ToLower(strings.TrimSuffix(hostOnly(hostport), "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || g.hosts[h] {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hostOnly is the host of a Host header, without port or brackets.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// requireJSON refuses a request body that is not declared as JSON: a
// browser sends text/plain or a form without a preflight, so accepting
// them would let any page post here. A request without a body passes.
func requireJSON(r *http.Request) *fieldError {
	ct := r.Header.Get("Content-Type")
	if ct == "" && (r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody) {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
		return nil
	}
	if ct == "" {
		ct = "none"
	}
	return &fieldError{status: http.StatusUnsupportedMediaType, message: "Content-Type must be application/json",
		details: map[string]any{"contentType": ct}}
}

// Validate reports an Access whose origins are not scheme://host[:port],
// in words a configuration file's author can act on.
func (a Access) Validate() error {
	_, err := newOriginGuard(a, "")
	return err
}
