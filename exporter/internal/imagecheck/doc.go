// Package imagecheck decides what bytes claiming to be an image hold, by
// the bytes alone: a PNG, JPEG, GIF or WebP image within a size a phone
// can open (MaxPixels, MaxSide), that ends where its format says it ends
// (nothing after PNG's IEND, JPEG's EOI, GIF's trailer or WebP's RIFF
// size, where a polyglot would hide HTML) and that decodes whole.
//
// It is the one check of raster images for curex: content images fetched
// from the web (exporter/assets) and the logo, favicon, social image and
// theme images a setting names (exporter/localfile) pass the same
// Inspect. It reads, decodes and holds nothing else: no I/O beyond the
// reader it is given.
package imagecheck
