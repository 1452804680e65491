package main

import (
	"strconv"
	"testing"

	"github.com/curex/curex/exporter"
)

// TestAssetsConfig: --assets and --allow-private-assets, or their
// environment variables; the flag wins.
func TestAssetsConfig(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name          string
		flag          string
		allow         *bool
		env, envAllow string
		want          string
		wantAllow     bool
		err           string
	}{
		{name: "default", want: exporter.AssetsLocal},
		{name: "flag", flag: "remote", want: exporter.AssetsRemote},
		{name: "environment", env: "remote", want: exporter.AssetsRemote},
		{name: "flag beats the environment", flag: "local", env: "remote", want: exporter.AssetsLocal},
		{name: "allow from the flag", allow: &yes, want: exporter.AssetsLocal, wantAllow: true},
		{name: "a false flag beats a true environment", allow: &no, envAllow: "true", want: exporter.AssetsLocal},
		{name: "allow from the environment", envAllow: "true", want: exporter.AssetsLocal, wantAllow: true},
		{name: "bad flag", flag: "inline", err: `--assets "inline": want local or remote`},
		{name: "bad environment", env: "both", err: `CUREX_ASSETS "both": want local or remote`},
		{name: "bad allow", envAllow: "yes please", err: `CUREX_ALLOW_PRIVATE_ASSETS "yes please": want true or false`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(envAssets, tc.env)
			t.Setenv(envAllowPrivateAssets, tc.envAllow)
			f := &exportFlags{assets: tc.flag}
			if tc.allow != nil {
				if err := f.allowPrivateAssets.Set(strconv.FormatBool(*tc.allow)); err != nil {
					t.Fatal(err)
				}
			}
			var c exporter.Config
			err := f.assetsConfig(&c)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err = %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Assets != tc.want || c.AllowPrivateAssets != tc.wantAllow {
				t.Errorf("got %q, %v; want %q, %v", c.Assets, c.AllowPrivateAssets, tc.want, tc.wantAllow)
			}
		})
	}
}
