package assets

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// blocked lists the networks curex never fetches an image from, besides
// what netip's predicates name (loopback, private, link-local,
// unspecified, multicast).
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),  // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),  // documentation
	netip.MustParsePrefix("fec0::/10"),      // site-local (deprecated)
	netip.MustParsePrefix("100::/64"),       // discard-only
	netip.MustParsePrefix("2002::/16"),      // 6to4, which embeds any IPv4
	netip.MustParsePrefix("::ffff:0:0/96"),  // IPv4-mapped, checked unmapped below
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64, which embeds any IPv4
}

// Public reports whether a is an address curex may fetch an image from:
// not loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7),
// link-local (169.254/16, where cloud metadata lives, and fe80::/10),
// unspecified, multicast, or in another special-use block.
func Public(a netip.Addr) bool {
	if a.Is4In6() {
		a = a.Unmap()
	}
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(a) {
			return false
		}
	}
	return true
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
		return fmt.Errorf("%w: %s", ErrAddress, address)
	}
	return nil
}

// dialer returns the dialer of a Fetcher's transport.
func (g guard) dialer() *net.Dialer {
	return &net.Dialer{Control: g.control}
}
