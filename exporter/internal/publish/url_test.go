//go:build !nopublish

package publish

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/output"
)

func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"s3://bucket":           true,
		"s3://bucket/prefix?x":  true,
		"file:///srv/www":       true,
		"azblob://container":    true,
		"output":                false,
		"./output":              false,
		"/srv/www":              false,
		`C:\site`:               false,
		"C://site":              false,
		"3s://bucket":           false,
		"s 3://bucket":          false,
		"":                      false,
		"relative/dir://weird":  false,
		"git+ssh://example.org": true,
	} {
		if got := IsURL(s); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestParseURL(t *testing.T) {
	abs, err := filepath.Abs("rel/www")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		raw                        string
		display, open, prefix, dir string
	}{
		{"s3://bucket", "s3://bucket", "s3://bucket", "", ""},
		{"s3://bucket/", "s3://bucket/", "s3://bucket", "", ""},
		{"s3://bucket/site/prod?region=eu-west-1&endpoint=http://127.0.0.1:9000&use_path_style=true",
			"s3://bucket/site/prod", "s3://bucket?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=eu-west-1&use_path_style=true", "site/prod/", ""},
		{"s3://bucket?prefix=site/", "s3://bucket", "s3://bucket", "site/", ""},
		{"S3://bucket/a", "s3://bucket/a", "s3://bucket", "a/", ""},
		{"file:///srv/www", "file:///srv/www", "file:///srv/www?create_dir=true", "", "/srv/www"},
		{"file:///srv/www?prefix=site&create_dir=", "file:///srv/www", "file:///srv/www?create_dir=", "site/", "/srv/www"},
		{"file://./rel/www", "file://./rel/www", "file://./rel/www?create_dir=true", "", abs},
		{"mem://", "mem:", "mem:", "", ""},
		{"mem:///site", "mem:///site", "mem:", "site/", ""},
		{"azblob://$web", "azblob://$web", "azblob://$web", "", ""},
		{"azblob://site-2024/www/en?storage_account=curexdocs&domain=blob.core.usgovcloudapi.net",
			"azblob://site-2024/www/en", "azblob://site-2024?domain=blob.core.usgovcloudapi.net&storage_account=curexdocs", "www/en/", ""},
		{"azblob://site?prefix=www&localemu=true&protocol=http&domain=127.0.0.1:10000&storage_account=devstoreaccount1",
			"azblob://site", "azblob://site?domain=127.0.0.1%3A10000&localemu=true&protocol=http&storage_account=devstoreaccount1", "www/", ""},
		{"AZBLOB://site/www?cdn=false", "azblob://site/www", "azblob://site?cdn=false", "www/", ""},
	}
	for _, tt := range tests {
		got, err := parseURL(tt.raw)
		if err != nil {
			t.Errorf("parseURL(%q): %v", tt.raw, err)
			continue
		}
		want := target{display: tt.display, open: tt.open, prefix: tt.prefix, dir: tt.dir}
		if got != want {
			t.Errorf("parseURL(%q)\n got %+v\nwant %+v", tt.raw, got, want)
		}
	}
}

func TestBadURLs(t *testing.T) {
	tests := []struct {
		raw, words  string
		unsupported bool
	}{
		{"azblob:///www", "no bucket name", false},
		{"azblob://Site/www", `container name "Site": character 'S'`, false},
		{"azblob://ab", `container name "ab": wrong length`, false},
		{"azblob://a--b", "single hyphens", false},
		{"azblob://-ab", "single hyphens", false},
		{"azblob://site/../x", "unsafe prefix", false},
		{"azblob://site?sas_token=sv%3D2024", `unknown query parameter "sas_token"`, false},
		{"azblob://site?storage_account=Bad_Name", "storage_account", false},
		{"azblob://site?protocol=ftp", "want http or https", false},
		{"azblob://site?localemu=maybe", "want true or false", false},
		{"azblob://site?cdn=1&cdn=0", "given 2 times", false},
		{"azblob://key:secret@site", "credentials", false},
		{"ftp://host/dir", `"ftp"`, true},
		{"output", "scheme://", false},
		{"s3:///prefix", "no bucket name", false},
		{"s3://bucket/../up", "unsafe prefix", false},
		{"s3://bucket/a//b", "unsafe prefix", false},
		{"s3://bucket/.hidden/x", "unsafe prefix", false},
		{"s3://bucket/a?prefix=b", "not both", false},
		{"s3://bucket?key=index.html", "key", false},
		{"s3://AKIA:secret@bucket/site", "credentials", false},
		{"file://host/srv", "file:///absolute", false},
		{"file://", "no folder", false},
	}
	for _, tt := range tests {
		err := CheckURL(context.Background(), tt.raw)
		if !errors.Is(err, ErrBadURL) || errors.Is(err, ErrUnsupportedScheme) != tt.unsupported || !strings.Contains(err.Error(), tt.words) {
			t.Errorf("CheckURL(%q) = %v: want ErrBadURL (unsupported scheme: %v) mentioning %s", tt.raw, err, tt.unsupported, tt.words)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("CheckURL(%q) shows the credentials: %v", tt.raw, err)
		}
	}
	if err := CheckURL(context.Background(), "ftp://b"); err == nil || !strings.Contains(err.Error(), "s3://, "+strings.Join(gcsSchemes, "")) || !strings.Contains(err.Error(), "azblob://, file://, mem://") {
		t.Errorf("unsupported scheme error %v does not list the supported ones", err)
	}
}

func TestRedact(t *testing.T) {
	for raw, want := range map[string]string{
		"s3://b/p?endpoint=http://x&profile=p": "s3://b/p",
		"s3://user:pw@b/p":                     "s3://b/p",
		"file:///srv/www?create_dir=1":         "file:///srv/www",
		"%zz?secret":                           "%zz",
	} {
		if got := Redact(raw); got != want {
			t.Errorf("Redact(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestSchemes(t *testing.T) {
	s := Schemes()
	s[0] = "changed"
	if Schemes()[0] != "s3" {
		t.Error("Schemes shares its slice")
	}
}

// FuzzParseURL checks that whatever the URL, a prefix that parses is a
// safe output path: keys never leave it.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://b/p", "s3://b/../x", "file:///tmp/x?prefix=a/b", "mem://", "s3://b?prefix=%2e%2e/x", "s3://b/a%2F..%2Fb", "azblob://$web/a?storage_account=acct"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, err := parseURL(raw)
		if err != nil {
			return
		}
		if tg.prefix != "" {
			p := strings.TrimSuffix(tg.prefix, "/")
			if !strings.HasSuffix(tg.prefix, "/") || output.CheckPath(p) != nil || hiddenSegment(p) {
				t.Fatalf("parseURL(%q) gave unsafe prefix %q", raw, tg.prefix)
			}
		}
		if strings.Contains(tg.display, "?") {
			t.Fatalf("parseURL(%q) display %q has a query", raw, tg.display)
		}
	})
}
