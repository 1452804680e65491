package chromium

import (
	"slices"
	"testing"
)

// TestBrowserEnvIsMinimal: Chromium's environment is PATH, the locale,
// the time zone, TMPDIR, fontconfig's variables and a HOME of its own;
// never the API token, curex's settings or cloud credentials, whatever
// else curex's environment holds.
func TestBrowserEnvIsMinimal(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin:/bin", "HOME=/root", "LANG=en_US.UTF-8", "LC_ALL=C.UTF-8", "TZ=Europe/Paris",
		"FONTCONFIG_PATH=/etc/fonts", "TMPDIR=/tmp",
		"CURRICULUM_API_TOKEN=secret-token", "CUREX_BASE_URL=https://api.example.org", "CUREX_CHROMIUM=/usr/bin/chromium",
		"AWS_ACCESS_KEY_ID=AKIA", "AWS_SECRET_ACCESS_KEY=s3cr3t", "AWS_SESSION_TOKEN=tok",
		"AZURE_STORAGE_KEY=az", "AZURE_CLIENT_SECRET=az2", "GOOGLE_APPLICATION_CREDENTIALS=/k.json",
		"GITHUB_TOKEN=gh", "HTTPS_PROXY=http://user:pass@proxy:3128", "SSH_AUTH_SOCK=/tmp/agent",
		"MALFORMED", "=empty-name",
	}
	got := browserEnv(environ, "/tmp/curex-chromium-home-1")
	want := []string{
		"PATH=/usr/bin:/bin", "LANG=en_US.UTF-8", "LC_ALL=C.UTF-8", "TZ=Europe/Paris",
		"FONTCONFIG_PATH=/etc/fonts", "TMPDIR=/tmp", "HOME=/tmp/curex-chromium-home-1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("browserEnv = %q\nwant %q", got, want)
	}
}
