package cli

import (
	"errors"
	"strings"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/setting"
)

// spell returns the setting key as the user gave it to this run, by the
// table settings: the flag ("--max-tree-nodes") when the command line set
// it, the file, line and key ("curex.yaml:3: max_tree_nodes") when a
// configuration file did, the environment variable ("CUREX_BASE_URL")
// when that gave it, and else the flag that would set it. ok is false for
// a key the table does not know. Values are never shown: the message says
// what it needs of them, and the token's must not appear.
func (g *globals) spell(key string) (string, bool) {
	src, ok := settings[key]
	if !ok {
		return "", false
	}
	if key == setting.Token { // from token_file when given, else a variable
		if s, given := g.given("token_file"); given {
			return s, true
		}
		return tokenEnv(), true
	}
	if s, given := g.given(key); given {
		return s, true
	}
	if src.flag == "" {
		return envName(key), true
	}
	return "--" + src.flag, true
}

// given returns how the user gave the setting key to this run's command
// (see spell), if they did.
func (g *globals) given(key string) (string, bool) {
	if g.cmd == nil {
		return "", false
	}
	fl := settingFlag(g.cmd.Flags(), key)
	if fl == nil {
		return "", false
	}
	if f, ok := g.fromFile[fl.Name]; ok {
		return f.spelled(), true
	}
	if fl.Changed {
		return "--" + fl.Name, true
	}
	return "", false
}

// respellFlag returns msg with the flag it begins with ("--paper ..."),
// when the environment or a configuration file set that flag, spelled as
// the user gave it ("CUREX_PAPER ...", "curex.yaml:4: paper ..."): the
// command's own checks name flags, and the user may have given none.
func (g *globals) respellFlag(msg string) string {
	if !strings.HasPrefix(msg, "--") {
		return msg
	}
	name := msg[2:]
	if i := strings.IndexAny(name, " :="); i >= 0 {
		name = name[:i]
	}
	f, ok := g.fromFile[name]
	if !ok {
		return msg
	}
	return f.spelled() + msg[2+len(name):]
}

// describe returns err's message with the setting it names, if any,
// spelled as the user gave it (see spell): the library says
// "max_tree_nodes: the tree has more than 5 nodes ...", the user reads
// "--max-tree-nodes: the tree has more than 5 nodes ...".
func (g *globals) describe(err error) string {
	msg := err.Error()
	se, ok := setting.Of(err)
	if !ok {
		return g.respellFlag(msg)
	}
	name, ok := g.spell(se.Name)
	if !ok {
		return msg
	}
	i := strings.LastIndex(msg, se.Error())
	if i < 0 {
		return msg
	}
	msg = msg[:i] + name + msg[i+len(se.Name):]
	for _, h := range lifts {
		if errors.Is(err, h.err) {
			if by, ok := g.spell(h.key); ok {
				msg += " (" + by + ")"
			}
		}
	}
	return msg
}

// lifts names the setting that lets through what a library refuses, for
// refusals whose message says so in words: the library knows its own
// option (api.WithAllowHTTP), the user the setting (--allow-http).
var lifts = []struct {
	err error
	key string
}{
	{api.ErrPlainHTTP, setting.AllowHTTP},
}

// describeSkip returns why an export was left out, with the setting that
// left it out, if any, spelled as the user gave it.
func (g *globals) describeSkip(reason, key string) string {
	if key == "" {
		return reason
	}
	name, ok := g.spell(key)
	if !ok {
		name = key
	}
	return name + ": " + reason
}
