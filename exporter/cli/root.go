package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"
)

// globals are the flags every command shares.
type globals struct {
	logLevel  string
	logFormat string
	// cpuProfile is where --cpu-profile writes a CPU profile ("" for none);
	// stopProfile ends it (set once the command starts).
	cpuProfile  string
	stopProfile func() error
	stdout      io.Writer
	stderr      io.Writer
	// secrets are taken out of crash reports (the token, once read).
	secrets secrets
	// cmd is the running command, and fromFile the flags its
	// configuration file set: messages name settings as the user gave
	// them (see describe).
	cmd      *cobra.Command
	fromFile map[string]fromFile
	// quiet (--quiet) leaves out progress and summaries: only errors
	// are shown.
	quiet bool
	// summaryPath is where --summary-json writes summary, the record of
	// the running command ("" for nowhere).
	summaryPath string
	summary     *runSummary
}

// logger builds the logger the flags ask for; logs go to standard error.
func (g *globals) logger() (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
		return nil, usageErr(fmt.Errorf("--log-level %q: want %s", g.logLevel, oneOf(logLevels())))
	}
	if g.quiet && !g.changed("log-level") {
		level = slog.LevelError // only errors, unless a level was asked for
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(g.logFormat) {
	case "text", "":
		return slog.New(slog.NewTextHandler(g.stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(g.stderr, opts)), nil
	}
	return nil, usageErr(fmt.Errorf("--log-format %q: want %s", g.logFormat, oneOf(logFormats())))
}

// newRootCommand returns the curex command writing to stdout and stderr.
func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	return newRoot(&globals{stdout: stdout, stderr: stderr})
}

// newRoot returns the curex command with its subcommands, sharing g.
func newRoot(g *globals) *cobra.Command {
	stdout, stderr := g.stdout, g.stderr
	root := &cobra.Command{
		Use:   "curex",
		Short: "Export a Curriculum Content API to websites, handbooks and bundles",
		Long: `curex turns a Curriculum Content API into published things: a static website
per curriculum variant and locale, printable handbooks, and Markdown and JSON
bundles. curex sandbox serves the API locally from a dataset, with no token
needed from anyone.`,
		Example: `  curex demo
  curex sandbox &
  CURRICULUM_API_TOKEN=sandbox-riverbend-token curex export --base-url http://127.0.0.1:8080 --output site/
  curex build --theme mytheme --output site/
  curex completion bash > /etc/bash_completion.d/curex`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// cobra's default, which it sets only for a root without Args.
		SuggestionsMinimumDistance: 2,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		// --config fills in the flags the command line left unset.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			g.cmd = cmd
			set, err := applyConfig(cmd)
			if err != nil {
				return err
			}
			g.fromFile = set
			if err := g.checkSummaryPath(); err != nil {
				return err
			}
			stop, err := startProfile(g.cpuProfile)
			if err != nil {
				return err
			}
			g.stopProfile = stop
			return nil
		},
	}
	root.SetHelpCommand(newHelpCommand())
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// "curex exprot --base-url ..." fails on the flag before the
		// root sees its argument: the mistyped command is the news.
		if !cmd.HasParent() && cmd.Flags().NArg() > 0 {
			return unknownCommand(cmd, cmd.Flags().Arg(0))
		}
		if hint := flagHint(err); hint != "" {
			return usageErr(fmt.Errorf("%w: %s", err, hint))
		}
		return usageErr(err)
	})
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: "+oneOf(logLevels()))
	root.PersistentFlags().StringVar(&g.logFormat, "log-format", "text", "log format: "+oneOf(logFormats()))
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "show only errors: no progress, no summary, logs at error level unless --log-level says otherwise")
	root.PersistentFlags().StringVar(&g.cpuProfile, "cpu-profile", "", "write a CPU profile of the command to this file (go tool pprof reads it)")
	root.AddCommand(newVersionCommand(g), newSandboxCommand(g), newExportCommand(g), newPlanCommand(g), newWhoamiCommand(g), newDemoCommand(g), newServeCommand(g), newDevCommand(g), newBuildCommand(g), newPublishCommand(g), newValidateCommand(g), newThemeCommand(g))
	setVersion(root)
	strictCompletion(root)
	return root
}

// unknownCommand is the usage error of a command root does not have, with
// cobra's suggestions of the nearest ones (by edit distance and prefix),
// as cobra itself gives when a root takes no arguments.
func unknownCommand(root *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q (see '%s --help')", name, root.CommandPath())
	if sug := root.SuggestionsFor(name); len(sug) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(sug, "\n\t")
	}
	return usageErr(errors.New(msg))
}

// newHelpCommand is cobra's help command, except that a mistyped topic is
// the same usage error as a mistyped command, with its suggestions
// (cobra's own finds the root, whose Args take the rest, and shows the
// root's help).
func newHelpCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "help [command]",
		Short:   "Help about any command",
		Example: "  curex help export",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, sub.Name()+"\t"+sub.Short)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, rest, err := root.Find(args)
			if err != nil {
				return usageErr(err)
			}
			if len(rest) > 0 && len(args) > 0 {
				if cmd == root {
					return unknownCommand(root, rest[0])
				}
				return unknownCommand(cmd, rest[0])
			}
			return cmd.Help()
		},
	}
}
