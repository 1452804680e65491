package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/curex/curex/exporter/localfile"
	"github.com/curex/curex/exporter/render"
	"github.com/curex/curex/exporter/setting"
)

// The publisher's identity on the website (render.Identity). The flat
// settings are flags, environment variables and keys of curex.yaml, as
// the table settings says; the structured ones, site_footer_links and
// site_locales (rows of the table marked structured), have no flag, come
// from curex.yaml or their variable, and are read here.

// siteFlags are the flat identity settings.
type siteFlags struct {
	title, language, logo, favicon, image, accent, footer string
	scripts                                               []string
}

// siteFlagKeys are the flat identity settings; their flags and
// environment variables are in the table settings.
var siteFlagKeys = []string{setting.SiteTitle, setting.SiteLanguage, setting.SiteLogo, setting.SiteFavicon,
	setting.SiteImage, setting.SiteAccent, setting.SiteFooter, setting.SiteScripts}

// register adds the identity flags to cmd.
func (f *siteFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.title, "site-title", "", "the site's title in headers, page titles and social cards (default: \"Curricula\" in each page's language) (env CUREX_SITE_TITLE)")
	fl.StringVar(&f.language, "site-language", "", "language of the catalog and 404 pages: en, es, fr, de, pt, ar, ja or zh (env CUREX_SITE_LANGUAGE)")
	fl.StringVar(&f.logo, "site-logo", "", "a local image file shown beside the site title (env CUREX_SITE_LOGO)")
	fl.StringVar(&f.favicon, "site-favicon", "", "a local image file used as the pages' icon (env CUREX_SITE_FAVICON)")
	fl.StringVar(&f.image, "site-image", "", "the social cards' image (og:image): a local file (announced with --site-url) or an https URL (env CUREX_SITE_IMAGE)")
	fl.StringVar(&f.accent, "site-accent", "", "accent colour of links and buttons, #rrggbb, at least 4.5:1 on white (env CUREX_SITE_ACCENT)")
	fl.StringVar(&f.footer, "site-footer", "", "a line of text in every page's footer (env CUREX_SITE_FOOTER)")
	fl.StringSliceVar(&f.scripts, "site-script", nil, "https URL of a script every page loads (analytics); its origin joins the Content-Security-Policy; repeatable (env CUREX_SITE_SCRIPTS, comma-separated)")
}

// identity builds the publisher's identity from the flags (or, where the
// command line and the file left one unset, its environment variable)
// and the structured keys of the configuration file cmd read, and checks
// it: a problem is a usage error naming the setting as the user gave it.
func (f *siteFlags) identity(g *globals, cmd *cobra.Command) (render.Identity, error) {
	vals := map[string]*string{
		"site-title": &f.title, "site-language": &f.language, "site-logo": &f.logo, "site-favicon": &f.favicon,
		"site-image": &f.image, "site-accent": &f.accent, "site-footer": &f.footer,
	}
	for _, key := range siteFlagKeys {
		src := settings[key]
		v := os.Getenv(src.env)
		if src.env == "" || v == "" || cmd != nil && cmd.Flags().Changed(src.flag) {
			continue
		}
		if p, ok := vals[src.flag]; ok {
			*p = v
		} else {
			f.scripts = splitList(v)
		}
	}
	id := render.Identity{Title: f.title, Language: f.language, Logo: f.logo, Favicon: f.favicon, Image: f.image,
		Accent: f.accent, Footer: f.footer, Scripts: f.scripts}
	path := configFile(cmd)
	var sf siteFile
	if path != "" {
		var err error
		if sf, err = readSiteFile(path); err != nil {
			return id, usageErr(fmt.Errorf("--config %s: %w", path, err))
		}
	}
	if err := sf.fromEnv(); err != nil {
		return id, usageErr(err)
	}
	id.Links, id.Locales = sf.Links, sf.Locales
	if err := id.Check(); err != nil {
		return id, usageErr(errors.New(spellSite(g, path, err)))
	}
	ctx, local := cmdContext(cmd), id.Files()
	for _, f := range []struct {
		key  string
		path *string
	}{{setting.SiteLogo, &id.Logo}, {setting.SiteFavicon, &id.Favicon}, {setting.SiteImage, &id.Image}} {
		if !slices.Contains(local, *f.path) {
			continue // unset, or an https image
		}
		resolved, err := g.localFile(ctx, f.key, *f.path, localfile.Image)
		if err != nil {
			return id, usageErr(errors.New(spellSite(g, path, err)))
		}
		*f.path = resolved
	}
	return id, nil
}

// spellSite names the setting of an identity error as the user gave it:
// a structured key by its environment variable or its key in the file.
func spellSite(g *globals, path string, err error) string {
	if se, ok := setting.Of(err); ok && settings[se.Name].structured {
		if env := envName(se.Name); os.Getenv(env) != "" {
			return env + ": " + se.Err.Error()
		}
		return path + ": " + se.Name + ": " + se.Err.Error()
	}
	return g.describe(err)
}

// configFile is the configuration file the command read ("" for none):
// the one --config or CUREX_CONFIG names, or the one found in the working
// folder (configPath).
func configFile(cmd *cobra.Command) string {
	if cmd == nil || cmd.Flags().Lookup("config") == nil {
		return ""
	}
	path, _, err := configPath(cmd)
	if err != nil {
		return "" // applyConfig, which ran first, reported it
	}
	return path
}

// siteFile is what readSiteFile takes from curex.yaml.
type siteFile struct {
	Links   []render.Link
	Locales map[string]render.LocaleIdentity
}

// siteLocaleYAML is one entry of site_locales.
type siteLocaleYAML struct {
	Title  string         `yaml:"title"`
	Footer string         `yaml:"footer"`
	Links  []siteLinkYAML `yaml:"links"`
}

// siteLinkYAML is one footer link.
type siteLinkYAML struct {
	Label string `yaml:"label"`
	URL   string `yaml:"url"`
}

func links(in []siteLinkYAML) []render.Link {
	if in == nil {
		return nil
	}
	out := make([]render.Link, 0, len(in))
	for _, l := range in {
		out = append(out, render.Link{Label: l.Label, URL: l.URL})
	}
	return out
}

// readSiteFile reads the structured identity keys of a configuration
// file: site_footer_links, a list of {label, url}, and site_locales, a
// mapping of locale codes to {title, footer, links}. Unknown fields in
// them are errors, with their line.
func readSiteFile(path string) (siteFile, error) {
	var out siteFile
	f, err := os.Open(path)
	if err != nil {
		return out, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return out, err
	}
	return parseSiteFile(data)
}

// parseSiteFile is readSiteFile over the file's bytes.
func parseSiteFile(data []byte) (siteFile, error) {
	var out siteFile
	if len(data) > maxConfigBytes {
		return out, fmt.Errorf("%d bytes, more than %d", len(data), maxConfigBytes)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		return out, fmt.Errorf("not valid YAML: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return out, nil // parseConfig reports it
	}
	m := doc.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i].Value, m.Content[i+1]
		if !settings[k].structured {
			continue
		}
		if seen[k] {
			return out, fmt.Errorf("line %d: %s given twice", m.Content[i].Line, k)
		}
		seen[k] = true
		if err := out.decode(k, v); err != nil {
			return out, fmt.Errorf("line %d: %w", v.Line, err)
		}
	}
	return out, nil
}

// decode sets the structured key k from its value v.
func (out *siteFile) decode(k string, v *yaml.Node) error {
	switch k {
	case setting.SiteFooterLinks:
		var ls []siteLinkYAML
		if err := decodeStrict(v, &ls); err != nil {
			return fmt.Errorf("%s: want a list of {label, url}: %w", k, err)
		}
		out.Links = links(ls)
		if out.Links == nil {
			out.Links = []render.Link{}
		}
	case setting.SiteLocales:
		var ls map[string]siteLocaleYAML
		if err := decodeStrict(v, &ls); err != nil {
			return fmt.Errorf("%s: want a mapping of locale codes to {title, footer, links}: %w", k, err)
		}
		out.Locales = map[string]render.LocaleIdentity{}
		for code, l := range ls {
			out.Locales[code] = render.LocaleIdentity{Title: l.Title, Footer: l.Footer, Links: links(l.Links)}
		}
	}
	return nil
}

// fromEnv sets the structured keys their environment variables give
// (envName: CUREX_SITE_FOOTER_LINKS, CUREX_SITE_LOCALES): their values
// are JSON (or YAML), as the file's would be, and outrank the file.
func (out *siteFile) fromEnv() error {
	for _, k := range []string{setting.SiteFooterLinks, setting.SiteLocales} {
		env := envName(k)
		v := os.Getenv(env)
		if v == "" {
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(v), &doc); err != nil {
			return fmt.Errorf("%s: not valid JSON or YAML: %w", env, err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		if err := out.decode(k, doc.Content[0]); err != nil {
			return fmt.Errorf("%s: %w", env, err)
		}
	}
	return nil
}

// decodeStrict decodes n into v, refusing fields v does not have (a
// mistyped "lable" must not pass unnoticed), with the line of the field.
func decodeStrict(n *yaml.Node, v any) error {
	if err := knownFields(n); err != nil {
		return err
	}
	if err := n.Decode(v); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return errors.New(strings.Join(te.Errors, "; "))
		}
		return err
	}
	return nil
}

// siteFields are the fields of the structured keys' mappings: a locale's
// and a link's.
var siteFields = map[string]bool{"title": true, "footer": true, "links": true, "label": true, "url": true}

// knownFields walks n and refuses a mapping key that is not a field of
// a locale or a link; the locale codes, the keys of site_locales, are
// the one mapping whose keys are free.
func knownFields(n *yaml.Node) error {
	var walk func(n *yaml.Node, free bool) error
	walk = func(n *yaml.Node, free bool) error {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if !free && !siteFields[k.Value] {
					return fmt.Errorf("line %d: unknown field %q", k.Line, k.Value)
				}
				if err := walk(n.Content[i+1], false); err != nil {
					return err
				}
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				if err := walk(c, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(n, n.Kind == yaml.MappingNode)
}

// scriptOrigins are the origins of the publisher's scripts as `curex
// serve` takes them: --site-script, else CUREX_SITE_SCRIPTS (site_scripts
// in the configuration file sets the flag). Each is checked as export
// checks it.
func scriptOrigins(cmd *cobra.Command, scripts []string) ([]string, error) {
	src := settings[setting.SiteScripts]
	if v := os.Getenv(src.env); v != "" && !cmd.Flags().Changed(src.flag) {
		scripts = splitList(v)
	}
	id := render.Identity{Scripts: scripts}
	if err := id.Check(); err != nil {
		return nil, usageErr(fmt.Errorf("--%s: %w", src.flag, errors.Unwrap(err)))
	}
	return id.Origins(), nil
}
