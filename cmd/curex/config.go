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
	"gopkg.in/yaml.v3"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/setting"
)

// source says how a user gives one setting.
type source struct {
	// flag is the flag that sets it, without the dashes ("" for none).
	flag string
	// env is the environment variable that gives it ("" for none): it
	// outranks the configuration file, and the flag outranks it.
	env string
	// file tells whether a configuration file may give it (under its key).
	file bool
}

// settings is the one table between the names the library gives settings
// and the names users give them: each key (a key of curex.yaml, and the
// Name of a setting.Error) maps to its flag and environment variable. A
// key of a file that names a flag the running command does not have is
// ignored, so one file serves export, plan and build; a key not listed
// here, or not allowed in a file, is an error. The token has no flag and
// never goes in a file: it comes from the environment or token_file.
var settings = map[string]source{
	setting.BaseURL:          {flag: "base-url", env: "CUREX_BASE_URL", file: true},
	setting.Token:            {flag: "token-file", env: api.EnvToken},
	"token_file":             {flag: "token-file", file: true},
	setting.AllowHTTP:        {flag: "allow-http", file: true},
	"rate_limit":             {flag: "rate-limit", file: true},
	setting.CacheDir:         {flag: "cache-dir", file: true},
	setting.Output:           {flag: "output", file: true},
	setting.Formats:          {flag: "formats", file: true},
	setting.Curricula:        {flag: "curriculum", file: true},
	setting.Variants:         {flag: "variants", file: true},
	setting.Locales:          {flag: "locales", file: true},
	setting.MinTranslation:   {flag: "min-translation", file: true},
	"include_unpublished":    {flag: "include-unpublished", file: true},
	setting.Concurrency:      {flag: "concurrency", file: true},
	setting.MaxTreeNodes:     {flag: "max-tree-nodes", file: true},
	setting.SiteURL:          {flag: "site-url", file: true},
	setting.Theme:            {flag: "theme", file: true},
	setting.Paper:            {flag: "paper", file: true},
	setting.PDFTimeout:       {flag: "pdf-timeout"},
	setting.MarkdownLayout:   {flag: "markdown-layout", file: true},
	setting.Assets:           {flag: "assets", env: envAssets, file: true},
	setting.PrivateAssets:    {flag: "allow-private-assets", env: envAllowPrivateAssets, file: true},
	setting.MaxRequests:      {flag: "max-requests", file: true},
	setting.Deadline:         {flag: "deadline", file: true},
	setting.Revalidate:       {flag: "revalidate", file: true},
	setting.RevalidateWithin: {flag: "revalidate-within", file: true},
	setting.SourceDate:       {env: "SOURCE_DATE_EPOCH"},
	"progress":               {flag: "progress", file: true},
	"gzip":                   {flag: "gzip", file: true},
	"allow_mass_delete":      {flag: "allow-mass-delete", file: true},
	"publish_concurrency":    {flag: "publish-concurrency", file: true},
	"log_level":              {flag: "log-level", file: true},
	"log_format":             {flag: "log-format", file: true},
	setting.SiteTitle:        {flag: "site-title", env: "CUREX_SITE_TITLE", file: true},
	setting.SiteLanguage:     {flag: "site-language", env: "CUREX_SITE_LANGUAGE", file: true},
	setting.SiteLogo:         {flag: "site-logo", env: "CUREX_SITE_LOGO", file: true},
	setting.SiteFavicon:      {flag: "site-favicon", env: "CUREX_SITE_FAVICON", file: true},
	setting.SiteImage:        {flag: "site-image", env: "CUREX_SITE_IMAGE", file: true},
	setting.SiteAccent:       {flag: "site-accent", env: "CUREX_SITE_ACCENT", file: true},
	setting.SiteFooter:       {flag: "site-footer", env: "CUREX_SITE_FOOTER", file: true},
	setting.SiteScripts:      {flag: "site-script", env: "CUREX_SITE_SCRIPTS", file: true},
}

// maxConfigBytes bounds a configuration file.
const maxConfigBytes = 1 << 20

// registerConfig adds --config to a command.
func registerConfig(cmd *cobra.Command) {
	cmd.Flags().String("config", "", "a YAML file of settings (curex.yaml); flags and environment win over it")
}

// applyConfig reads the file --config names, if any, and sets every flag
// that neither the command line nor the environment set. It returns the
// flags the file set, for messages that name a setting as the user gave
// it.
func applyConfig(cmd *cobra.Command) (map[string]fromFile, error) {
	f := cmd.Flags().Lookup("config")
	if f == nil || f.Value.String() == "" {
		return nil, nil
	}
	path := f.Value.String()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr(fmt.Errorf("--config: %w", err))
	}
	vals, err := parseConfig(data)
	if err != nil {
		return nil, usageErr(fmt.Errorf("--config %s: %w", path, err))
	}
	set := map[string]fromFile{}
	for _, v := range vals {
		fl := cmd.Flags().Lookup(v.flag)
		if fl == nil || fl.Changed {
			continue // not this command's, or the command line set it
		}
		if env := settings[v.key].env; env != "" && os.Getenv(env) != "" {
			continue
		}
		for _, s := range v.values {
			if err := cmd.Flags().Set(v.flag, s); err != nil {
				return nil, usageErr(fmt.Errorf("--config %s line %d: %s: %w", path, v.line, v.key, err))
			}
		}
		set[v.flag] = fromFile{key: v.key, path: path}
	}
	return set, nil
}

// fromFile is a flag a configuration file set: the key it was given under,
// and the file.
type fromFile struct{ key, path string }

// fileSetting is one key of a configuration file: the flag it sets and the
// values to set it to (several for a repeatable flag).
type fileSetting struct {
	key, flag string
	line      int
	values    []string
}

// parseConfig reads a configuration file: a YAML mapping of the keys in
// settings to scalars or lists of scalars. It names the line of every
// problem, and refuses a token: secrets come from the environment or
// token_file only.
func parseConfig(data []byte) ([]fileSetting, error) {
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("%d bytes, more than %d", len(data), maxConfigBytes)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty file
		}
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want a mapping of settings (key: value)", m.Line)
	}
	seen := map[string]bool{}
	var out []fileSetting
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if key == "token" || key == "api_token" {
			return nil, fmt.Errorf("line %d: %s: the token never goes in a file of settings; set CURRICULUM_API_TOKEN or token_file", k.Line, key)
		}
		if structuredSiteKeys[key] {
			continue // a mapping or a list of mappings: siteconfig.go reads it
		}
		src, ok := settings[key]
		if !ok || !src.file || k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: unknown setting %q (known: %s)", k.Line, key, strings.Join(knownSettings(), ", "))
		}
		if seen[key] {
			return nil, fmt.Errorf("line %d: %s given twice", k.Line, key)
		}
		seen[key] = true
		flag := src.flag
		s := fileSetting{key: key, flag: flag, line: k.Line}
		switch v.Kind {
		case yaml.ScalarNode:
			s.values = []string{v.Value}
		case yaml.SequenceNode:
			var items []string
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					return nil, fmt.Errorf("line %d: %s: want a list of plain values", it.Line, key)
				}
				items = append(items, it.Value)
			}
			if flag == "curriculum" {
				s.values = items // a repeatable flag
			} else {
				s.values = []string{strings.Join(items, ",")}
			}
		default:
			return nil, fmt.Errorf("line %d: %s: want a value or a list of values", v.Line, key)
		}
		out = append(out, s)
	}
	return out, nil
}

func knownSettings() []string {
	out := make([]string, 0, len(settings))
	for k, src := range settings {
		if src.file {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
