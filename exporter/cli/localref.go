package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/curex/curex/exporter/internal/localfile"
	"github.com/curex/curex/exporter/internal/render"
	"github.com/curex/curex/exporter/internal/setting"
)

// The local files settings name (site_logo, site_favicon, site_image,
// theme, token_file) are read through package localfile, which holds the
// rules; here is only where each path came from. applyConfig records in
// g.fromFile which flags a configuration file set, and from which file.

// tokenFileKey is the token file's setting (not a library setting: the
// library takes the token itself).
const tokenFileKey = "token_file"

// fileRef returns the localfile.Ref of path, the value of the setting
// key: relative to the folder of the configuration file that gave it, and
// confined to that folder; or, when the command line or the environment
// gave it, the operator's, relative to the working folder.
func (g *globals) fileRef(key, path string) localfile.Ref {
	if g.cmd != nil {
		if fl := settingFlag(g.cmd.Flags(), key); fl != nil {
			if f, ok := g.fromFile[fl.Name]; ok && f.env == "" && f.path != "" {
				return localfile.FileRef(path, f.path)
			}
		}
	}
	return localfile.OperatorRef(path)
}

// localFile checks the file the setting key names as a file of kind k
// (see localfile.ReadFile) and returns the path to read it by, relative
// to the working folder. The error is a *setting.Error naming key.
func (g *globals) localFile(ctx context.Context, key, path string, k localfile.Kind) (string, error) {
	ref := g.fileRef(key, path)
	resolved, err := localfile.Resolve(ctx, ref)
	if err == nil {
		_, err = localfile.ReadFile(ctx, ref, k)
	}
	if err != nil {
		return "", setting.Errorf(key, "%w", err)
	}
	return resolved, nil
}

// themeDir checks the theme folder the setting names and every file of
// it the renderers read (render.ReadTheme), so a bad theme is a usage
// error before the run, and returns the path to read it by.
func (g *globals) themeDir(ctx context.Context, path string) (string, error) {
	ref := g.fileRef(setting.Theme, path)
	resolved, err := localfile.Resolve(ctx, ref)
	if err == nil {
		_, err = render.ReadTheme(ctx, ref)
	}
	if err != nil {
		return "", setting.Errorf(setting.Theme, "%w", err)
	}
	return resolved, nil
}

// cmdContext is cmd's context, or a background one for a command run
// without one (tests of flag handling).
func cmdContext(cmd *cobra.Command) context.Context {
	if cmd != nil && cmd.Context() != nil {
		return cmd.Context()
	}
	return context.Background()
}
