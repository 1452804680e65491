package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/setting"
)

// source says how a user gives one setting.
type source struct {
	// flag is the flag that sets it, without the dashes ("" for none).
	flag string
	// env is the environment variable that gives it, when it is not the
	// one envName derives from the key (CUREX_ and the key in capitals).
	// The variable outranks the configuration file, and the flag
	// outranks the variable.
	env string
	// file tells whether a configuration file may give it (under its key).
	file bool
	// structured marks a key of curex.yaml whose value is a mapping or a
	// list of mappings, with no flag: siteconfig.go reads it, from the
	// file or from its variable (JSON or YAML).
	structured bool
	// trust is what a file found in the working folder may do with it
	// (trust.go): give it, never give it, or give it a place inside the
	// working folder only.
	trust trust
}

// settings is the one table between the names the library gives settings
// and the names users give them: each key (a key of curex.yaml, and the
// Name of a setting.Error) maps to its flag, and to its environment
// variable (CUREX_ and the key in capitals, unless env names another). A
// key of a file, or a variable, that names a flag the running command
// does not have is ignored, so one file serves export, plan, build and
// publish; a key not listed here, or not allowed in a file, is an error.
// The token has no flag and never goes in a file: it comes from the
// environment (CURRICULUM_API_TOKEN, the one name curex shows; the
// older CUREX_TOKEN is still read) or token_file.
//
// A curex.yaml found in the working folder is the repository's, not the
// operator's: a row's trust says what such a file may do with the
// setting (checkDiscovered).
//
// Adding a setting is adding a line here (and a row to
// docs/configuration.md): the file key and the variable follow.
var settings = map[string]source{
	setting.BaseURL:          {flag: "base-url", file: true},
	setting.Token:            {env: envToken},
	"token_file":             {flag: "token-file", file: true, trust: choosesSecret},
	setting.AllowHTTP:        {flag: "allow-http", file: true, trust: lowersGuard},
	"rate_limit":             {flag: "rate-limit", file: true},
	setting.CacheDir:         {flag: "cache-dir", file: true, trust: writesHere},
	setting.Output:           {flag: "output", file: true, trust: writesHere},
	setting.Formats:          {flag: "formats", file: true},
	setting.Curricula:        {flag: "curriculum", file: true},
	setting.Variants:         {flag: "variants", file: true},
	setting.Locales:          {flag: "locales", file: true},
	setting.MinTranslation:   {flag: "min-translation", file: true},
	"include_unpublished":    {flag: "include-unpublished", file: true, trust: lowersGuard},
	setting.Concurrency:      {flag: "concurrency", file: true},
	setting.MaxTreeNodes:     {flag: "max-tree-nodes", file: true},
	setting.SiteURL:          {flag: "site-url", file: true},
	setting.Theme:            {flag: "theme", file: true},
	setting.Paper:            {flag: "paper", file: true},
	setting.PDFTimeout:       {flag: "pdf-timeout", file: true},
	setting.MarkdownLayout:   {flag: "markdown-layout", file: true},
	setting.CartridgeVersion: {flag: "cartridge-version", file: true},
	setting.Assets:           {flag: "assets", file: true},
	setting.PrivateAssets:    {flag: "allow-private-assets", file: true, trust: lowersGuard},
	setting.MaxRequests:      {flag: "max-requests", file: true},
	setting.Deadline:         {flag: "deadline", file: true},
	setting.Revalidate:       {flag: "revalidate", file: true},
	setting.RevalidateWithin: {flag: "revalidate-within", file: true},
	setting.SourceDate:       {env: "SOURCE_DATE_EPOCH"},
	"progress":               {flag: "progress", file: true},
	"gzip":                   {flag: "gzip", file: true},
	"allow_mass_delete":      {flag: "allow-mass-delete", file: true, trust: lowersGuard},
	"publish_concurrency":    {flag: "publish-concurrency", file: true},
	"log_level":              {flag: "log-level", file: true},
	"log_format":             {flag: "log-format", file: true},
	"quiet":                  {flag: "quiet", file: true},
	"summary_json":           {flag: "summary-json", file: true, trust: writesHere},
	setting.SiteTitle:        {flag: "site-title", file: true},
	setting.SiteLanguage:     {flag: "site-language", file: true},
	setting.SiteLogo:         {flag: "site-logo", file: true},
	setting.SiteFavicon:      {flag: "site-favicon", file: true},
	setting.SiteImage:        {flag: "site-image", file: true},
	setting.SiteAccent:       {flag: "site-accent", file: true},
	setting.SiteFooter:       {flag: "site-footer", file: true},
	setting.SiteScripts:      {flag: "site-script", file: true},
	setting.SiteFooterLinks:  {file: true, structured: true},
	setting.SiteLocales:      {file: true, structured: true},
	// The look the publisher owns (issue 26, part 3).
	setting.SiteStyles:        {flag: "site-style", file: true},
	setting.SiteGeneratorLine: {flag: "site-generator-line", file: true},
	setting.HideAttributes:    {flag: "hide-attribute", file: true},
	setting.AttributeOrder:    {flag: "attribute-order", file: true},
	setting.AttributeLabels:   {file: true, structured: true},
}

// Environment variables that are not a row's derived name.
const (
	// envToken is an older name of the token variable, still read beside
	// api.EnvToken (CURRICULUM_API_TOKEN), the one name help, banners,
	// errors and docs show (see tokenFromEnv).
	envToken = "CUREX_TOKEN"
	// envConfig names the configuration file when --config does not.
	envConfig = "CUREX_CONFIG"
)

// configNames are the files a command looks for in the working folder
// when neither --config nor CUREX_CONFIG names one. Both spellings are
// found (YAML tools use both), but both at once is an error: which one
// wins would be a guess.
var configNames = []string{"curex.yaml", "curex.yml"}

// settingAnnotation, on a flag, names the setting the flag gives when
// that is not the one the table maps the flag's name to: publish's
// --concurrency is publish_concurrency, not concurrency.
const settingAnnotation = "curex-setting"

// envName returns the environment variable of the setting key.
func envName(key string) string {
	if src, ok := settings[key]; ok && src.env != "" {
		return src.env
	}
	return "CUREX_" + strings.ToUpper(key)
}

// settingFlag returns the flag of fs that gives the setting key, or nil
// when the command has none.
func settingFlag(fs *pflag.FlagSet, key string) *pflag.Flag {
	var annotated *pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) {
		if a := f.Annotations[settingAnnotation]; len(a) == 1 && a[0] == key {
			annotated = f
		}
	})
	if annotated != nil {
		return annotated
	}
	src, ok := settings[key]
	if !ok || src.flag == "" {
		return nil
	}
	f := fs.Lookup(src.flag)
	if f == nil {
		return nil
	}
	if a := f.Annotations[settingAnnotation]; len(a) == 1 && a[0] != key {
		return nil // the flag gives another setting on this command
	}
	return f
}

// maxConfigBytes bounds a configuration file.
const maxConfigBytes = 1 << 20

// registerConfig adds --config to a command: the commands that have it
// read settings from a file and from CUREX_ variables.
func registerConfig(cmd *cobra.Command) {
	cmd.Flags().String("config", "", "a YAML file of settings (default: curex.yaml or curex.yml in the working folder, or $"+envConfig+`; --config '' reads none); flags and environment win over it`)
}

// applyConfig fills in the flags the command line left unset, from the
// environment (CUREX_ variables) and then from the configuration file:
// the one --config names, else the one CUREX_CONFIG names, else curex.yaml
// or curex.yml in the working folder. It does nothing for a command
// without --config. It returns where each flag it set came from, for
// messages that name a setting as the user gave it, and logs which file it
// read (at info level when it found the file by itself, at debug level
// when told).
func applyConfig(cmd *cobra.Command) (map[string]fromFile, error) {
	if cmd.Flags().Lookup("config") == nil {
		return nil, nil
	}
	path, found, err := configPath(cmd)
	if err != nil {
		return nil, err
	}
	var vals map[string]fileSetting
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, usageErr(fmt.Errorf("configuration file: %w", err))
		}
		list, err := parseConfig(data)
		if err != nil {
			return nil, usageErr(fmt.Errorf("%s:%w", path, err)) // "curex.yaml:3: ..." or "curex.yaml: ..."
		}
		if found {
			if err := checkDiscovered(path, list); err != nil {
				return nil, err
			}
		}
		vals = map[string]fileSetting{}
		for _, v := range list {
			vals[v.key] = v
		}
	}
	set := map[string]fromFile{}
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		fl := settingFlag(cmd.Flags(), key)
		if fl == nil || fl.Changed {
			continue // not this command's, or the command line set it
		}
		if env := envName(key); os.Getenv(env) != "" {
			v := os.Getenv(env)
			if err := setFlag(fl, splitEnv(fl, v)); err != nil {
				return nil, usageErr(fmt.Errorf("%s=%q: %w", env, v, err))
			}
			set[fl.Name] = fromFile{key: key, env: env}
			continue
		}
		v, ok := vals[key]
		if !ok {
			continue
		}
		if err := setFlag(fl, v.values); err != nil {
			return nil, usageErr(fmt.Errorf("%s:%d: %s: %w", path, v.line, key, err))
		}
		set[fl.Name] = fromFile{key: key, path: path, line: v.line}
	}
	if path != "" {
		logConfig(cmd, path, found, set, leftOut(cmd, vals))
	}
	return set, nil
}

// leftOutAnnotation marks a command that reads a configuration file
// written for another (curex demo reads export's): it warns of the
// settings of the file it does not take.
const leftOutAnnotation = "curex-warn-settings-left-out"

// warnLeftOut makes cmd warn of the settings of its configuration file it
// does not take (leftOutAnnotation).
func warnLeftOut(cmd *cobra.Command) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[leftOutAnnotation] = "true"
}

// leftOut returns, for a command marked by warnLeftOut, the keys of vals
// (the settings of its file) that are none of its flags, sorted.
func leftOut(cmd *cobra.Command, vals map[string]fileSetting) []string {
	if cmd.Annotations[leftOutAnnotation] != "true" {
		return nil
	}
	var out []string
	for key := range vals {
		if settingFlag(cmd.Flags(), key) == nil {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// configPath returns the configuration file to read ("" for none), and
// whether it was found in the working folder rather than named.
func configPath(cmd *cobra.Command) (path string, found bool, err error) {
	if f := cmd.Flags().Lookup("config"); f.Changed {
		return f.Value.String(), false, nil // --config '' reads none
	}
	if v, ok := os.LookupEnv(envConfig); ok {
		return v, false, nil
	}
	if namedConfigOnly(cmd) {
		return "", false, nil
	}
	var have []string
	for _, name := range configNames {
		st, err := os.Stat(name)
		switch {
		case err == nil && st.Mode().IsRegular():
			have = append(have, name)
		case err == nil:
			return "", false, usageErr(fmt.Errorf("%s in the working folder is not a file", name))
		case !errors.Is(err, fs.ErrNotExist):
			return "", false, usageErr(fmt.Errorf("configuration file: %w", err))
		}
	}
	switch len(have) {
	case 0:
		return "", false, nil
	case 1:
		return have[0], true, nil
	}
	return "", false, usageErr(fmt.Errorf("both %s are in the working folder: keep one, or name one with --config", strings.Join(have, " and ")))
}

// logConfig says which configuration file the command read: at info
// level when the command found it by itself (a file in the working folder
// changes a run, so the user is told, with the origin its base_url sends
// the token to), at debug level when --config or CUREX_CONFIG named it.
// The log flags are read as the file left them, except that a found
// file's quiet and log_level do not silence its own announcement (see
// announceLevel).
func logConfig(cmd *cobra.Command, path string, found bool, set map[string]fromFile, left []string) {
	level, _ := cmd.Flags().GetString("log-level")
	format, _ := cmd.Flags().GetString("log-format")
	quiet, _ := cmd.Flags().GetBool("quiet")
	if found {
		level, quiet = announceLevel(level, quiet, set)
	}
	log, err := (&globals{logLevel: level, logFormat: format, quiet: quiet, stderr: cmd.ErrOrStderr(), cmd: cmd}).logger()
	if err != nil {
		return // the command reports the bad flag itself
	}
	if len(left) > 0 {
		log.Warn(cmd.Name()+" does not use these settings of the file", "file", path, "settings", strings.Join(left, ", "))
	}
	if found {
		attrs := []any{"file", path}
		if o := discoveredOrigin(cmd, set); o != "" {
			attrs = append(attrs, "token_origin", o)
		}
		log.Info("read settings from the working folder", attrs...)
		return
	}
	log.Debug("read settings", "file", path)
}

// setFlag sets fl to each of values in turn (several for a repeatable
// flag).
func setFlag(fl *pflag.Flag, values []string) error {
	for _, s := range values {
		if err := fl.Value.Set(s); err != nil {
			return err
		}
	}
	fl.Changed = true
	return nil
}

// splitEnv returns the values a variable gives fl: its comma-separated
// items for a repeatable flag (CUREX_CURRICULA=101,201), else the value.
func splitEnv(fl *pflag.Flag, v string) []string {
	if !repeatable(fl) {
		return []string{v}
	}
	var out []string
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// repeatable tells whether fl takes one value per use.
func repeatable(fl *pflag.Flag) bool {
	t := fl.Value.Type()
	return strings.HasSuffix(t, "Array") || strings.HasSuffix(t, "Slice")
}

// fromFile is a flag that the environment or a configuration file set:
// the key of the setting, and the variable (env) or the file and line.
type fromFile struct {
	key, env, path string
	line           int
}

// spelled returns how the user gave the setting: "CUREX_PAPER", or
// "curex.yaml:3: paper".
func (f fromFile) spelled() string {
	if f.env != "" {
		return f.env
	}
	if f.line > 0 {
		return fmt.Sprintf("%s:%d: %s", f.path, f.line, f.key)
	}
	return f.key + " in " + f.path
}

// tokenFromEnv returns the token from CUREX_TOKEN or CURRICULUM_API_TOKEN,
// and the variable it came from. When both are set they must agree: two
// different tokens are refused rather than one picked, since a run with
// the wrong account's token exports the wrong curricula. No error shows a
// token. It wraps api.ErrNoToken when neither is set.
func tokenFromEnv() (token, from string, err error) {
	ours, legacy := os.Getenv(envToken), os.Getenv(api.EnvToken)
	switch {
	case ours == "" && legacy == "":
		return "", "", fmt.Errorf("%s is not set: %w", api.EnvToken, api.ErrNoToken)
	case ours != "" && legacy != "" && strings.TrimSpace(ours) != strings.TrimSpace(legacy):
		return "", envToken, fmt.Errorf("%s and %s hold different tokens: unset one", envToken, api.EnvToken)
	case ours != "":
		from = envToken
	default:
		from = api.EnvToken
	}
	token, err = api.TokenFromVar(from)
	return token, from, err
}

// tokenEnv returns the variable the token comes from when no file gives
// it: CUREX_TOKEN when set, else CURRICULUM_API_TOKEN.
func tokenEnv() string {
	if os.Getenv(envToken) != "" {
		return envToken
	}
	return api.EnvToken
}

// fileSetting is one key of a configuration file: the flag it sets and the
// values to set it to (several for a repeatable flag).
type fileSetting struct {
	key, flag string
	line      int
	values    []string
}

// parseConfig reads a configuration file: a YAML mapping of the keys in
// settings to scalars or lists of scalars. Its errors begin with the line
// of the problem and a colon ("3: ..."), or a space when no line is known,
// so that the caller's "curex.yaml:" before them reads as an editor
// expects. It refuses a token: secrets come from the environment or
// token_file only.
func parseConfig(data []byte) ([]fileSetting, error) {
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf(" %d bytes, more than %d", len(data), maxConfigBytes)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty file
		}
		return nil, fmt.Errorf(" not valid YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%d: want a mapping of settings (key: value)", m.Line)
	}
	seen := map[string]bool{}
	var out []fileSetting
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if key == "token" || key == "api_token" {
			return nil, fmt.Errorf("%d: %s: the token never goes in a file of settings; set %s or token_file", k.Line, key, api.EnvToken)
		}
		if settings[key].structured {
			continue // a mapping or a list of mappings: siteconfig.go reads it
		}
		src, ok := settings[key]
		if !ok || !src.file || k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%d: unknown setting %q (known: %s)", k.Line, key, strings.Join(knownSettings(), ", "))
		}
		if seen[key] {
			return nil, fmt.Errorf("%d: %s given twice", k.Line, key)
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
					return nil, fmt.Errorf("%d: %s: want a list of plain values", it.Line, key)
				}
				items = append(items, it.Value)
			}
			if flag == "curriculum" {
				s.values = items // a repeatable flag
			} else {
				s.values = []string{strings.Join(items, ",")}
			}
		default:
			return nil, fmt.Errorf("%d: %s: want a value or a list of values", v.Line, key)
		}
		out = append(out, s)
	}
	return out, nil
}

// knownSettings lists every key a configuration file may give, from the
// table settings alone, so that a new row can never be missing from the
// error of an unknown key.
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
