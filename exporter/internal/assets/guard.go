package assets

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"

	"github.com/curex/curex/exporter/internal/setting"
)

// rule is what Public does with an address in a special-purpose block.
type rule int

const (
	// refused: never fetched from (the zero rule).
	_ rule = iota
	// embedded: the block embeds an IPv4 address (NAT64, 6to4), which is
	// judged in its place.
	embedded
)

// special is one block of the IANA special-purpose address registries.
type special struct {
	prefix netip.Prefix
	rule   rule
	// at is the byte offset of the embedded IPv4 address (rule
	// embedded).
	at int
}

// specials are the blocks Public refuses, or judges by the IPv4 address
// they embed: every block of the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (RFC 6890; https://www.iana.org/assignments/
// iana-ipv4-special-registry and iana-ipv6-special-registry, as of
// 2025) that is not globally reachable, plus multicast, the
// documentation blocks and the transition blocks that would let an
// address name another. The few globally reachable exceptions inside a
// refused block (192.0.0.9, 192.0.0.10, 2001:1::1, 2001:3::/32 ...) serve
// no images and are refused with it. Besides the table, an IPv6 address
// outside 2000::/3 (the only block IANA allocates as global unicast) is
// refused.
var specials = []special{
	// IPv4.
	{prefix: netip.MustParsePrefix("0.0.0.0/8")},       // "this network" (RFC 791)
	{prefix: netip.MustParsePrefix("10.0.0.0/8")},      // private (RFC 1918)
	{prefix: netip.MustParsePrefix("100.64.0.0/10")},   // shared, carrier-grade NAT (RFC 6598)
	{prefix: netip.MustParsePrefix("127.0.0.0/8")},     // loopback (RFC 1122)
	{prefix: netip.MustParsePrefix("169.254.0.0/16")},  // link-local, cloud metadata (RFC 3927)
	{prefix: netip.MustParsePrefix("172.16.0.0/12")},   // private (RFC 1918)
	{prefix: netip.MustParsePrefix("192.0.0.0/24")},    // IETF protocol assignments (RFC 6890)
	{prefix: netip.MustParsePrefix("192.0.2.0/24")},    // documentation, TEST-NET-1 (RFC 5737)
	{prefix: netip.MustParsePrefix("192.88.99.0/24")},  // 6to4 relay anycast, deprecated (RFC 7526)
	{prefix: netip.MustParsePrefix("192.168.0.0/16")},  // private (RFC 1918)
	{prefix: netip.MustParsePrefix("198.18.0.0/15")},   // benchmarking (RFC 2544)
	{prefix: netip.MustParsePrefix("198.51.100.0/24")}, // documentation, TEST-NET-2 (RFC 5737)
	{prefix: netip.MustParsePrefix("203.0.113.0/24")},  // documentation, TEST-NET-3 (RFC 5737)
	{prefix: netip.MustParsePrefix("224.0.0.0/4")},     // multicast (RFC 5771)
	{prefix: netip.MustParsePrefix("240.0.0.0/4")},     // reserved, and 255.255.255.255 broadcast (RFC 1112, RFC 919)
	// IPv6.
	{prefix: netip.MustParsePrefix("::/128")},                               // unspecified (RFC 4291)
	{prefix: netip.MustParsePrefix("::1/128")},                              // loopback (RFC 4291)
	{prefix: netip.MustParsePrefix("64:ff9b::/96"), rule: embedded, at: 12}, // NAT64 well-known prefix (RFC 6052)
	{prefix: netip.MustParsePrefix("64:ff9b:1::/48")},                       // local-use NAT64 (RFC 8215)
	{prefix: netip.MustParsePrefix("100::/64")},                             // discard-only (RFC 6666)
	{prefix: netip.MustParsePrefix("2001::/23")},                            // IETF protocol assignments, Teredo (RFC 2928, RFC 4380)
	{prefix: netip.MustParsePrefix("2001:db8::/32")},                        // documentation (RFC 3849)
	{prefix: netip.MustParsePrefix("2002::/16"), rule: embedded, at: 2},     // 6to4 (RFC 3056)
	{prefix: netip.MustParsePrefix("3fff::/20")},                            // documentation (RFC 9637)
	{prefix: netip.MustParsePrefix("5f00::/16")},                            // segment routing SIDs (RFC 9602)
	{prefix: netip.MustParsePrefix("fc00::/7")},                             // unique local (RFC 4193)
	{prefix: netip.MustParsePrefix("fe80::/10")},                            // link-local (RFC 4291)
	{prefix: netip.MustParsePrefix("fec0::/10")},                            // site-local, deprecated (RFC 3879)
	{prefix: netip.MustParsePrefix("ff00::/8")},                             // multicast (RFC 4291)
}

// globalUnicast is the one IPv6 block IANA allocates for global unicast.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// Public reports whether a is an address curex may fetch from: not in a
// special-purpose block of specials (private, loopback, link-local,
// documentation, benchmarking, multicast, reserved ...). An IPv4-mapped
// IPv6 address is judged as its IPv4 address, and so are the IPv4
// addresses a NAT64 or 6to4 address embeds. It is the one address rule
// of curex: the image fetcher's dialer and the PDF printer both ask it.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.Zone() != "" {
		return false
	}
	for _, s := range specials {
		if !s.prefix.Contains(a) {
			continue
		}
		if s.rule == embedded {
			b := a.As16()
			return Public(netip.AddrFrom4([4]byte(b[s.at : s.at+4])))
		}
		return false
	}
	return a.Is4() || globalUnicast.Contains(a)
}

// guard is the net.Dialer.Control of a Fetcher: it runs after the name is
// resolved, on the address about to be dialled, so the address checked
// is the address used.
type guard struct {
	allowPrivate bool
	// hosts are host:port addresses let through whatever their address.
	hosts map[string]bool
}

// control refuses a connection to an address that is not Public.
func (g guard) control(network, address string, _ syscall.RawConn) error {
	if g.allowPrivate || g.hosts[address] {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrAddress, address, err)
	}
	if !Public(ap.Addr()) {
		return fmt.Errorf("%w: %s is a private, loopback or link-local address; %s lets images in from such addresses, "+
			"for a sandbox or a test server on this machine", ErrAddress, address, setting.PrivateAssets)
	}
	return nil
}

// dialer returns the dialer of a Fetcher's transport.
func (g guard) dialer() *net.Dialer {
	return &net.Dialer{Control: g.control}
}
