package fetch

import "net/netip"

// specialRange is one entry of IANA's special-purpose address registries
// (IPv4 and IPv6), plus multicast and the reserved space: addresses a
// download must not reach, whatever routes to them.
type specialRange struct {
	prefix netip.Prefix
	what   string
}

var specialRanges = func() []specialRange {
	table := []struct{ cidr, what string }{
		{"0.0.0.0/8", "\"this network\" (0.0.0.0/8)"},
		{"10.0.0.0/8", "a private address"},
		{"100.64.0.0/10", "a shared (carrier-grade NAT) address"},
		{"127.0.0.0/8", "a loopback address"},
		{"169.254.0.0/16", "a link-local address"},
		{"172.16.0.0/12", "a private address"},
		{"192.0.0.0/24", "an IETF protocol assignment"},
		{"192.0.2.0/24", "a documentation address"},
		{"192.31.196.0/24", "an AS112 address"},
		{"192.52.193.0/24", "an AMT address"},
		{"192.88.99.0/24", "a 6to4 relay address"},
		{"192.168.0.0/16", "a private address"},
		{"192.175.48.0/24", "an AS112 address"},
		{"198.18.0.0/15", "a benchmarking address"},
		{"198.51.100.0/24", "a documentation address"},
		{"203.0.113.0/24", "a documentation address"},
		{"224.0.0.0/4", "a multicast address"},
		{"240.0.0.0/4", "a reserved address"},
		{"::/96", "an IPv4-compatible, loopback or unspecified IPv6 address"},
		{"::ffff:0:0/96", "an IPv4-mapped address"},
		{"64:ff9b::/96", "a NAT64 address"},
		{"64:ff9b:1::/48", "a local NAT64 address"},
		{"100::/64", "a discard-only address"},
		{"100:0:0:1::/64", "a dummy address"},
		{"2001::/23", "an IETF protocol assignment (Teredo, ORCHID…)"},
		{"2001:db8::/32", "a documentation address"},
		{"2002::/16", "a 6to4 address"},
		{"2620:4f:8000::/48", "an AS112 address"},
		{"3fff::/20", "a documentation address"},
		{"5f00::/16", "a segment-routing address"},
		{"fc00::/7", "a unique-local (private) address"},
		{"fe80::/10", "a link-local address"},
		{"fec0::/10", "a site-local address"},
		{"ff00::/8", "a multicast address"},
	}
	out := make([]specialRange, len(table))
	for i, r := range table {
		out[i] = specialRange{netip.MustParsePrefix(r.cidr), r.what}
	}
	return out
}()

// special says which special-purpose range a is in, or "".
func special(a netip.Addr) string {
	for _, r := range specialRanges {
		if r.prefix.Contains(a) {
			return r.what
		}
	}
	return ""
}
