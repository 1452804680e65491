package main

import (
	"errors"
	"os"
	"strings"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/setting"
)

// spell returns the setting key as the user gave it to this run, by the
// table settings: the flag ("--max-tree-nodes") when the command line set
// it, the key and the file ("max_tree_nodes in curex.yaml") when a
// configuration file did, the environment variable ("CUREX_BASE_URL")
// when that gave it, and else the flag that would set it. ok is false for
// a key the table does not know. Values are never shown: the message says
// what it needs of them, and the token's must not appear.
func (g *globals) spell(key string) (string, bool) {
	src, ok := settings[key]
	if !ok {
		return "", false
	}
	if src.flag != "" && g.cmd != nil {
		if fl := g.cmd.Flags().Lookup(src.flag); fl != nil && fl.Changed {
			if f, ok := g.fromFile[src.flag]; ok {
				return f.key + " in " + f.path, true
			}
			return "--" + src.flag, true
		}
	}
	if src.env != "" && (src.flag == "" || os.Getenv(src.env) != "") {
		return src.env, true
	}
	return "--" + src.flag, true
}

// describe returns err's message with the setting it names, if any,
// spelled as the user gave it (see spell): the library says
// "max_tree_nodes: the tree has more than 5 nodes ...", the user reads
// "--max-tree-nodes: the tree has more than 5 nodes ...".
func (g *globals) describe(err error) string {
	msg := err.Error()
	se, ok := setting.Of(err)
	if !ok {
		return msg
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
