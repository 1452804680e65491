// Command curex turns a Curriculum Content API into published things: a
// static website per curriculum variant and locale, printable handbooks
// (HTML and PDF), Markdown and JSON bundles, EPUB books and Common
// Cartridges. Run `curex help` for the commands; the code is package
// github.com/curex/curex/exporter/cli.
package main

import (
	"os"

	"github.com/curex/curex/exporter/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
