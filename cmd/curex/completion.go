package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/chrome"
	"github.com/curex/curex/exporter/fresh"
	"github.com/curex/curex/exporter/render/cartridge"
	"github.com/curex/curex/exporter/sandbox"
)

// The words of the flags that take one of a few: the checks and the shell
// completion both read them here.
func progressModes() []string   { return []string{"auto", "bar", "plain", "none"} }
func logLevels() []string       { return []string{"debug", "info", "warn", "error"} }
func logFormats() []string      { return []string{"text", "json"} }
func markdownLayouts() []string { return []string{"default", "hugo"} }
func assetModes() []string      { return []string{exporter.AssetsLocal, exporter.AssetsRemote} }

// flagWords are the values each enumerated flag takes, by flag name; a
// flag of that name on any command completes from them. lists are the
// flags that take a comma-separated list of such words.
var (
	flagWords = map[string]func() []string{
		"progress":          progressModes,
		"log-level":         logLevels,
		"log-format":        logFormats,
		"markdown-layout":   markdownLayouts,
		"cartridge-version": cartridge.Versions,
		"assets":            assetModes,
		"paper":             func() []string { return []string{chrome.PaperA4, chrome.PaperLetter} },
		"revalidate": func() []string {
			return []string{fresh.Rolling.String(), fresh.Always.String(), fresh.Never.String()}
		},
		"records": func() []string {
			return []string{string(sandbox.RecordsResource), string(sandbox.RecordsPlain)}
		},
		"formats": func() []string { return exporter.Formats().Names() },
	}
	listFlags = map[string]bool{"formats": true}
	// dirFlags complete with folder names, fileFlags with file names
	// (of the extensions given, if any).
	dirFlags  = []string{"output", "theme", "cache-dir"}
	fileFlags = map[string][]string{"config": {"yaml", "yml"}, "token-file": nil, "cpu-profile": nil, "data": {"json"}}
)

// oneOf spells words as a choice: "a, b or c".
func oneOf(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// registerCompletions adds value completion to the flags of root and its
// subcommands that flagWords, dirFlags and fileFlags name. Shells get the
// scripts from cobra's own `curex completion bash|zsh|fish|powershell`.
func registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		own := c.LocalNonPersistentFlags()
		if !c.HasParent() {
			own = c.PersistentFlags()
		}
		for name, words := range flagWords {
			if own.Lookup(name) == nil {
				continue
			}
			fn := completeWord(words)
			if listFlags[name] {
				fn = completeList(words)
			}
			_ = c.RegisterFlagCompletionFunc(name, fn) // registered once per flag
		}
		for _, name := range dirFlags {
			if own.Lookup(name) != nil {
				_ = c.MarkFlagDirname(name)
			}
		}
		for name, exts := range fileFlags {
			if own.Lookup(name) != nil {
				_ = c.MarkFlagFilename(name, exts...)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeWord completes a flag that takes one of words.
func completeWord(words func() []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, w := range words() {
			if strings.HasPrefix(w, toComplete) {
				out = append(out, w)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeList completes a comma-separated list of words: the words given
// so far stay, the last is completed from those not yet in the list, and
// no space follows, so that another comma may.
func completeList(words func() []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		head, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			head, last = toComplete[:i+1], toComplete[i+1:]
		}
		given := strings.Split(strings.TrimSuffix(head, ","), ",")
		var out []string
		for _, w := range words() {
			if strings.HasPrefix(w, last) && !slices.Contains(given, w) {
				out = append(out, head+w)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}
