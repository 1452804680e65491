package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
)

// TestCartridgeVersionSetting: --cartridge-version and cartridge_version
// choose the Common Cartridge version; an unknown one is a usage error
// naming the setting as the user gave it, before any request.
func TestCartridgeVersionSetting(t *testing.T) {
	url := sandboxURL(t)
	t.Setenv(api.EnvToken, "sandbox-riverbend-token")
	t.Setenv("CUREX_BASE_URL", "")
	cfg := writeConfig(t, "cartridge_version: \"1.2\"\n")
	one := []string{"--curriculum", "101", "--variants", "base", "--locales", "en", "--formats", "cartridge", "--progress", "none"}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stderr, or the manifest's namespace
	}{
		{"default", nil, exitOK, "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"},
		{"flag 1.3", []string{"--cartridge-version", "1.3"}, exitOK, "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1"},
		{"flag unknown", []string{"--cartridge-version", "2.0"}, exitUsage, `--cartridge-version: "2.0": want 1.1 or 1.3`},
		{"file unknown", []string{"--config", cfg}, exitUsage, `:1: cartridge_version: "1.2": want 1.1 or 1.3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"export", "--base-url", url, "--output", out, "--cache-dir", t.TempDir()}, append(one, tc.args...)...)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr.String())
			}
			if code != exitOK {
				if !strings.Contains(stderr.String(), tc.want) {
					t.Errorf("stderr %q, want %q", stderr.String(), tc.want)
				}
				return
			}
			zr, err := zip.OpenReader(filepath.Join(out, "bundles", "algebra-1", "base", "en", "course.imscc"))
			if err != nil {
				t.Fatal(err)
			}
			defer zr.Close()
			f, err := zr.Open("imsmanifest.xml")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(f)
			if !strings.Contains(string(b), `xmlns="`+tc.want+`"`) {
				t.Errorf("the manifest is not in %s:\n%.400s", tc.want, b)
			}
		})
	}
}
