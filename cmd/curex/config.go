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
)

// settings maps the keys of a configuration file (curex.yaml) to the flags
// they set. A key that names a flag the running command does not have is
// ignored, so one file serves export, plan and build; a key not listed
// here is an error.
var settings = map[string]string{
	"base_url":            "base-url",
	"token_file":          "token-file",
	"allow_http":          "allow-http",
	"rate_limit":          "rate-limit",
	"cache_dir":           "cache-dir",
	"output":              "output",
	"formats":             "formats",
	"curricula":           "curriculum",
	"variants":            "variants",
	"locales":             "locales",
	"min_translation":     "min-translation",
	"include_unpublished": "include-unpublished",
	"concurrency":         "concurrency",
	"max_tree_nodes":      "max-tree-nodes",
	"site_url":            "site-url",
	"theme":               "theme",
	"paper":               "paper",
	"markdown_layout":     "markdown-layout",
	"max_requests":        "max-requests",
	"deadline":            "deadline",
	"revalidate":          "revalidate",
	"revalidate_within":   "revalidate-within",
	"progress":            "progress",
	"gzip":                "gzip",
	"allow_mass_delete":   "allow-mass-delete",
	"publish_concurrency": "publish-concurrency",
	"log_level":           "log-level",
	"log_format":          "log-format",
}

// flagOf names the flag of a setting key (exporter/setting): the one
// settings lists, else the key with dashes.
func flagOf(key string) string {
	if key == "token" {
		return "token-file" // the token itself is never a flag
	}
	if f, ok := settings[key]; ok {
		return f
	}
	return strings.ReplaceAll(key, "_", "-")
}

// envOf names the environment variable that outranks a setting of the
// configuration file (flag > environment > file > default).
var envOf = map[string]string{"base-url": "CUREX_BASE_URL"}

// maxConfigBytes bounds a configuration file.
const maxConfigBytes = 1 << 20

// registerConfig adds --config to a command.
func registerConfig(cmd *cobra.Command) {
	cmd.Flags().String("config", "", "a YAML file of settings (curex.yaml); flags and environment win over it")
}

// applyConfig reads the file --config names, if any, and sets every flag
// that neither the command line nor the environment set.
func applyConfig(cmd *cobra.Command) error {
	f := cmd.Flags().Lookup("config")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	path := f.Value.String()
	data, err := os.ReadFile(path)
	if err != nil {
		return usageErr(fmt.Errorf("--config: %w", err))
	}
	vals, err := parseConfig(data)
	if err != nil {
		return usageErr(fmt.Errorf("--config %s: %w", path, err))
	}
	for _, v := range vals {
		fl := cmd.Flags().Lookup(v.flag)
		if fl == nil || fl.Changed {
			continue // not this command's, or the command line set it
		}
		if env := envOf[v.flag]; env != "" && os.Getenv(env) != "" {
			continue
		}
		for _, s := range v.values {
			if err := cmd.Flags().Set(v.flag, s); err != nil {
				return usageErr(fmt.Errorf("--config %s line %d: %s: %w", path, v.line, v.key, err))
			}
		}
	}
	return nil
}

// setting is one key of a configuration file: the flag it sets and the
// values to set it to (several for a repeatable flag).
type setting struct {
	key, flag string
	line      int
	values    []string
}

// parseConfig reads a configuration file: a YAML mapping of the keys in
// settings to scalars or lists of scalars. It names the line of every
// problem, and refuses a token: secrets come from the environment or
// token_file only.
func parseConfig(data []byte) ([]setting, error) {
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
	var out []setting
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if key == "token" || key == "api_token" {
			return nil, fmt.Errorf("line %d: %s: the token never goes in a file of settings; set CURRICULUM_API_TOKEN or token_file", k.Line, key)
		}
		flag, ok := settings[key]
		if !ok || k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: unknown setting %q (known: %s)", k.Line, key, strings.Join(knownSettings(), ", "))
		}
		if seen[key] {
			return nil, fmt.Errorf("line %d: %s given twice", k.Line, key)
		}
		seen[key] = true
		s := setting{key: key, flag: flag, line: k.Line}
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
	for k := range settings {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
