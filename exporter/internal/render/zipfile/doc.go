// Package zipfile writes reproducible zip archives in memory: the bundles
// of the exporter (Markdown archives, Common Cartridges, EPUB books) are
// the same bytes for the same content, whenever and wherever they are
// built.
//
// An archive holds its entries in the order they are added, every one
// with the same modification time (the content's date, in UTC, to the
// second, clamped to what zip can record: see Time), the same permissions
// (0644) and the same compressor (DEFLATE at its fastest level), so
// nothing in it depends on the clock, the machine or the file system.
// Entry names must be safe on every operating system (see CheckName): an
// archive never holds an absolute path, a "..", a backslash, a control
// character or a name Windows reserves, whatever the content.
//
// A first entry may be stored uncompressed and without any extra field
// (Writer.Stored), as the OCF container of EPUB requires of its
// "mimetype" file.
package zipfile
