package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/internal/render/starter"
)

// newThemeCommand is `curex theme`, whose one subcommand, init, starts a
// theme folder.
func newThemeCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "theme",
		Short:   "Work with theme folders (--theme)",
		Example: `  curex theme init mytheme`,
		Args:    noArgs,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "init DIR",
		Short: "Write a starting theme into a new or empty folder",
		Long: `init writes a starting theme into DIR, which must be new or empty: a worked
example (styles.html links assets/custom.css after curex's style sheet), a
README, and under reference/ every block of the default templates and every
file of the default theme, to copy up and edit. Use it with
curex export --theme DIR. See themes/README.md.`,
		Example: `  curex theme init mytheme && curex export --theme mytheme`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := starter.Write(cmdContext(cmd), args[0])
			if errors.Is(err, starter.ErrNotEmpty) {
				return usageErr(err)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(g.stdout, "wrote a theme of %d files to %s: see %s/README.md; use it with curex export --theme %s\n",
				len(names), args[0], args[0], args[0])
			return nil
		},
	})
	return cmd
}
