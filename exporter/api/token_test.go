package api_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/api"
	"github.com/curex/curex/exporter/internal/localfile"
)

const fileToken = "cca_live_9f8e7d6c5b4a"

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string
		want          string // "" for an error
		errLike       string
		noToken       bool // the error wraps ErrNoToken
	}{
		{"plain", fileToken, fileToken, "", false},
		{"trailing newline", fileToken + "\n", fileToken, "", false},
		{"CRLF", fileToken + "\r\n", fileToken, "", false},
		{"surrounding space", "  \t" + fileToken + " \n\n", fileToken, "", false},
		{"byte-order mark", "\uFEFF" + fileToken + "\n", fileToken, "", false},
		{"empty", "", "", "is empty", true},
		{"blank", " \n\t\n", "", "is empty", true},
		{"two lines", fileToken + "\n" + fileToken + "2\n", "", "more than one line", false},
		{"key=value", "CURRICULUM_API_TOKEN = " + fileToken, "", "white space", false},
		{"non-ASCII", fileToken + "é", "", "non-ASCII", false},
		{"too large", strings.Repeat(fileToken, 500), "", "larger than 4 KiB", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := api.ReadTokenFile(path)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Errorf("ReadTokenFile = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("ReadTokenFile = %q, want an error", got)
			}
			if !strings.Contains(err.Error(), tc.errLike) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not say %q about %s", err, tc.errLike, path)
			}
			if errors.Is(err, api.ErrNoToken) != tc.noToken {
				t.Errorf("errors.Is(%v, ErrNoToken) = %v", err, !tc.noToken)
			}
			noToken(t, err, fileToken)
		})
	}
	if _, err := api.ReadTokenFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := api.ReadTokenFile(dir); err == nil {
		t.Error("a directory was read as a token file")
	}
}

func TestTokenFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        string
		noToken     bool
	}{
		{"plain", fileToken, fileToken, false},
		{"padded", "  " + fileToken + "\n", fileToken, false},
		{"blank", "  ", "", true},
		{"two lines", fileToken + "\n" + fileToken, "", false},
		{"inner space", "Bearer " + fileToken, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(api.EnvToken, tc.value)
			got, err := api.TokenFromEnv()
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Errorf("TokenFromEnv = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), api.EnvToken) {
				t.Fatalf("TokenFromEnv = %q, %v; want an error naming %s", got, err, api.EnvToken)
			}
			if errors.Is(err, api.ErrNoToken) != tc.noToken {
				t.Errorf("errors.Is(%v, ErrNoToken) = %v", err, !tc.noToken)
			}
			noToken(t, err, fileToken)
		})
	}
	t.Run("unset", func(t *testing.T) {
		t.Setenv(api.EnvToken, "") // restored after the test
		os.Unsetenv(api.EnvToken)
		_, err := api.TokenFromEnv()
		if !errors.Is(err, api.ErrNoToken) || !strings.Contains(err.Error(), "not set") {
			t.Errorf("TokenFromEnv unset = %v", err)
		}
	})
}

// TestTokenFileSymlinkRefused: a token file that is a symlink is refused
// (issue 23), even to a real token file, and the error shows no token.
func TestTokenFileSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "token")
	if err := os.WriteFile(real, []byte(fileToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{real, "/proc/self/environ"} {
		link := filepath.Join(t.TempDir(), "token-link")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		_, err := api.ReadTokenFile(link)
		if !errors.Is(err, localfile.ErrSymlink) {
			t.Errorf("ReadTokenFile(symlink to %s) = %v, want ErrSymlink", target, err)
		}
		if err != nil && strings.Contains(err.Error(), fileToken) {
			t.Errorf("the error shows the token: %v", err)
		}
	}
}
