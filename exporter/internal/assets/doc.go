// Package assets fetches the images content refers to by absolute URL,
// checks them, and keeps them by content hash, so that the website, the
// handbook and its PDF show them offline and from file://.
//
// A Fetcher fetches and checks one URL:
//
//   - CheckURL: http and https only, and no user name or password in
//     the URL; at most MaxRedirects redirects, each hop checked again;
//   - Public: no address in a special-purpose block of the IANA IPv4 and
//     IPv6 registries that is not globally reachable (private, loopback,
//     link-local and the cloud metadata address in it, documentation,
//     benchmarking, multicast ...), unless Options.AllowPrivate. The
//     address is checked when the connection is made (net.Dialer.Control),
//     after the name was resolved, so a name that resolves to a public
//     address when checked and to a private one when used (DNS
//     rebinding) gains nothing. Options.AllowHosts lets one host:port
//     through (the demo's own sandbox). Public is the one address rule
//     of curex: the PDF printer asks it too;
//   - at most MaxBytes bytes, read with a limit and streamed to a file
//     (hashed while written, renamed into place by its SHA-256), never
//     held in memory whole; the run's Options.Deadline bounds every fetch;
//   - Inspect: the type decided by the bytes, never by the Content-Type
//     header: PNG, JPEG, GIF or WebP within MaxPixels and MaxSide (read
//     from the header first), ending where its format says with nothing
//     after, and decoding whole. SVG is refused: it is a document that
//     can carry script and links, not a picture.
//
// A good image is stored once by its SHA-256 under assets/content/ in the
// output (layout.ContentAsset). Between runs the files are kept in the
// cache folder (layout.Cache.Assets, under content/), and the answers by
// URL with their ETags (the ETag cache's format), each naming its file:
// the next run asks with If-None-Match and reuses the file on a 304. A
// build (Options.Offline) asks nothing and uses the cache alone.
//
// A Store is the run's: it fetches each URL once whatever the number of
// trees that refer to it, a few at a time, within a Budget of images and
// bytes per tree and per run, and remembers every outcome for the
// renderers. A failed or skipped image never fails the export: the pages
// show its alt text and a link to the URL. Every error is an *Error
// naming the URL (its password redacted) and wrapping one of the Err
// values.
package assets
