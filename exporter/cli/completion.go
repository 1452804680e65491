package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/chromium"
	"github.com/curex/curex/exporter/internal/fresh"
	"github.com/curex/curex/exporter/internal/render/cartridge"
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
		"paper":             func() []string { return []string{chromium.PaperA4, chromium.PaperLetter} },
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

// strictCompletion adds cobra's completion command to root now, with
// examples like every other command's, and makes
// a shell it has no script for a usage error listing the shells it has
// ("curex completion tcsh" printed the help and exited 0). With no
// argument it shows its help, as before.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	comp, _, err := root.Find([]string{"completion"})
	if err != nil || comp == root {
		return
	}
	comp.Example = "  curex completion bash > /etc/bash_completion.d/curex\n  source <(curex completion bash)"
	for _, sub := range comp.Commands() {
		if ex, ok := completionExamples[sub.Name()]; ok {
			sub.Example = "  " + ex
		}
	}
	comp.Args = cobra.ArbitraryArgs
	comp.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		var shells []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				shells = append(shells, sub.Name())
			}
		}
		return usageErr(fmt.Errorf("%s: no script for the shell %q: want %s", cmd.CommandPath(), args[0], oneOf(shells)))
	}
}

// completionExamples are the examples of cobra's completion scripts, by
// shell: where each shell looks for one.
var completionExamples = map[string]string{
	"bash":       "curex completion bash > /etc/bash_completion.d/curex",
	"zsh":        `curex completion zsh > "${fpath[1]}/_curex"`,
	"fish":       "curex completion fish > ~/.config/fish/completions/curex.fish",
	"powershell": "curex completion powershell | Out-String | Invoke-Expression",
}

// flagHint returns what to do instead of a flag curex refuses on purpose,
// given the error of an unknown flag, or "". The token is never a flag
// (a flag's value shows in the process list and the shell's history): it
// comes from the environment or a file. The error names only the flag,
// never its value.
func flagHint(err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	switch name {
	case "token", "api-token", "curriculum-api-token":
		return "the API token is never a flag (the process list and the shell's history would show it): " +
			"set " + api.EnvToken + " in the environment, or give --token-file PATH (token_file in curex.yaml)"
	}
	return ""
}
