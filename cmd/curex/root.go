package main

import (
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
}

// logger builds the logger the flags ask for; logs go to standard error.
func (g *globals) logger() (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
		return nil, usageErr(fmt.Errorf("--log-level %q: want debug, info, warn or error", g.logLevel))
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(g.logFormat) {
	case "text", "":
		return slog.New(slog.NewTextHandler(g.stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(g.stderr, opts)), nil
	}
	return nil, usageErr(fmt.Errorf("--log-format %q: want text or json", g.logFormat))
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
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr(fmt.Errorf("unknown command %q (see 'curex --help')", args[0]))
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
			stop, err := startProfile(g.cpuProfile)
			if err != nil {
				return err
			}
			g.stopProfile = stop
			return nil
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	root.PersistentFlags().StringVar(&g.logFormat, "log-format", "text", "log format: text or json")
	root.PersistentFlags().StringVar(&g.cpuProfile, "cpu-profile", "", "write a CPU profile of the command to this file (go tool pprof reads it)")
	root.AddCommand(newVersionCommand(g), newSandboxCommand(g), newExportCommand(g), newPlanCommand(g), newWhoamiCommand(g), newDemoCommand(g), newServeCommand(g), newBuildCommand(g), newPublishCommand(g))
	setVersion(root)
	return root
}
