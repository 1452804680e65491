package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter"
	"github.com/curex/curex/exporter/api"
)

func newWhoamiCommand(g *globals) *cobra.Command {
	f := &apiFlags{}
	cmd := &cobra.Command{
		Use:   "whoami",
		Short: "Verify the API token (GET /api/v1/me)",
		Long: `whoami asks the API whom the token belongs to and prints the user, their
e-mail and organization: the quickest check of a base URL and a token.`,
		Example: `  CURRICULUM_API_TOKEN=... curex whoami --base-url https://api.example.org
  curex whoami --base-url https://api.example.org --token-file /run/secrets/curex-token`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c := exporter.Config{}
			if err := f.config(g, &c); err != nil {
				return err
			}
			u, err := exporter.WhoAmI(cmd.Context(), c)
			if err != nil {
				return runError(err) // a refused base URL is exit 2
			}
			_, err = fmt.Fprintf(g.stdout, "%s <%s>, %s (user %s)\n", api.Printable(u.Name), api.Printable(u.Email), api.Printable(u.OrganizationName), api.Printable(u.ID))
			return err
		},
	}
	f.register(cmd)
	registerConfig(cmd)
	return cmd
}
