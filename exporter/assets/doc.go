// Package assets fetches the images content refers to by absolute URL,
// checks them, and keeps them by content hash, so that the website, the
// handbook and its PDF show them offline and from file://.
//
// A Fetcher fetches and checks one URL:
//
//   - http and https only; at most MaxRedirects redirects, each hop
//     checked again;
//   - no private, loopback, link-local, unspecified or multicast address
//     (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16 and the cloud
//     metadata address in it, 100.64/10, fc00::/7, fe80::/10, ::1, ::,
//     0.0.0.0, and the like), unless Options.AllowPrivate: the address is
//     checked when the connection is made (net.Dialer.Control), after the
//     name was resolved, so a name that resolves to a public address when
//     checked and to a private one when used (DNS rebinding) gains
//     nothing. Options.AllowHosts lets one host:port through (the demo's
//     own sandbox);
//   - at most MaxBytes bytes, read with a limit, so a huge or endless
//     body costs no more;
//   - the type decided by the bytes, never by the Content-Type header:
//     PNG, JPEG, GIF or WebP that image.DecodeConfig reads, with its
//     width and height. SVG is refused: it is a document that can carry
//     script and links, not a picture.
//
// A good image is stored once by its SHA-256 under assets/content/ in the
// output (layout.ContentAsset). Between runs the answers are kept in the
// cache folder by URL with their ETags (layout.Cache.Assets, the ETag
// cache's format): the next run asks with If-None-Match and reuses the
// bytes on a 304. A build (Options.Offline) asks nothing and uses the
// cache alone.
//
// A Store is the run's: it fetches each URL once whatever the number of
// trees that refer to it, a few at a time, and remembers every outcome
// for the renderers. A failed image never fails the export: the pages
// show its alt text and a link to the URL. Every error is an *Error
// naming the URL and wrapping one of the Err values.
package assets
