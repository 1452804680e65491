package localfile

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pngBytes is a 1x1 PNG.
func pngBytes(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const goodSVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 32 32">
<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs>
<rect width="32" height="32" fill="url(#g)" style="stroke: red"/><use xlink:href="#g"/></svg>`

// tree writes files (name -> content) under a new folder; a content of
// "->target" makes a symlink to target.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(data, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadFile(t *testing.T) {
	good := string(pngBytes(t))
	dir := tree(t, map[string]string{
		"cfg/curex.yaml":       "",
		"cfg/brand/logo.png":   good,
		"cfg/brand/logo.svg":   goodSVG,
		"cfg/brand/env.png":    "->/proc/self/environ",
		"cfg/brand/passwd.ico": "->/etc/passwd",
		"cfg/linked/logo.png":  "->../brand/logo.png",
		"cfg/alias":            "->brand",
		"cfg/text.png":         "HOME=/root\nCUREX_TOKEN=s3cr3t\n",
		"cfg/big.png":          good + strings.Repeat("x", MaxImage),
		"cfg/polyglot.png":     good + "<html><script>alert(1)</script></html>",
		"cfg/png.gif":          good,
		"cfg/script.svg":       `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
		"cfg/folder.png/x":     "",
		"outside.png":          good,
		"token":                "abc\n",
		"token-link":           "->token",
	})
	cfg := filepath.Join(dir, "cfg", "curex.yaml")
	for _, tc := range []struct {
		name string
		ref  Ref
		kind Kind
		want error // nil: read
	}{
		{"file-named image", FileRef("brand/logo.png", cfg), Image, nil},
		{"file-named svg", FileRef("brand/logo.svg", cfg), Image, nil},
		{"symlink to environ", FileRef("brand/env.png", cfg), Image, ErrSymlink},
		{"symlink to passwd", FileRef("brand/passwd.ico", cfg), Image, ErrSymlink},
		{"symlink inside the folder", FileRef("linked/logo.png", cfg), Image, ErrSymlink},
		{"symlinked folder", FileRef("alias/logo.png", cfg), Image, ErrSymlink},
		{"operator symlink", OperatorRef(filepath.Join(dir, "cfg", "brand", "env.png")), Image, ErrSymlink},
		{"text named png", FileRef("text.png", cfg), Image, ErrContent},
		{"over the cap", FileRef("big.png", cfg), Image, ErrTooLarge},
		{"png with HTML after IEND", FileRef("polyglot.png", cfg), Image, ErrContent},
		{"png named gif", FileRef("png.gif", cfg), Image, ErrContent},
		{"svg with script", FileRef("script.svg", cfg), Image, ErrContent},
		{"folder", FileRef("folder.png", cfg), Image, ErrNotRegular},
		{"dot-dot from a file", FileRef("../outside.png", cfg), Image, ErrEscapes},
		{"absolute from a file", FileRef(filepath.Join(dir, "outside.png"), cfg), Image, ErrEscapes},
		{"dot-dot from the operator", Ref{Path: "../outside.png", Base: filepath.Join(dir, "cfg"), Operator: true}, Image, nil},
		{"absolute from the operator", OperatorRef(filepath.Join(dir, "outside.png")), Image, nil},
		{"missing", FileRef("nope.png", cfg), Image, fs.ErrNotExist},
		{"token file", OperatorRef(filepath.Join(dir, "token")), Token, nil},
		{"token symlink", OperatorRef(filepath.Join(dir, "token-link")), Token, ErrSymlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadFile(context.Background(), tc.ref, tc.kind)
			if tc.want == nil {
				if err != nil || len(data) == 0 {
					t.Fatalf("ReadFile: %d bytes, %v", len(data), err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("ReadFile: %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.ref.Path) {
				t.Errorf("error %q does not name %s", err, tc.ref.Path)
			}
			if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "root:") {
				t.Errorf("error %q shows the file", err)
			}
		})
	}
}

// TestResolveAgainstTheConfigFolder: a path in a configuration file is
// relative to that file's folder, not the working folder.
func TestResolveAgainstTheConfigFolder(t *testing.T) {
	dir := tree(t, map[string]string{"other/logo.png": string(pngBytes(t)), "other/curex.yaml": ""})
	t.Chdir(dir)
	got, err := Resolve(context.Background(), FileRef("logo.png", filepath.Join("other", "curex.yaml")))
	if err != nil || got != filepath.Join("other", "logo.png") {
		t.Fatalf("Resolve = %q, %v; want other/logo.png", got, err)
	}
	if _, err := Resolve(context.Background(), OperatorRef("logo.png")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the operator's logo.png resolves against the working folder: %v", err)
	}
}

func TestDir(t *testing.T) {
	dir := tree(t, map[string]string{
		"theme/base.html":           "{{define \"x\"}}{{end}}",
		"theme/assets/site.css":     "body{}",
		"theme/assets/font.woff2":   "wOF2....",
		"theme/.git/config":         "",
		"linked/base.html":          "->/etc/passwd",
		"deep/assets/site.css":      "->../../theme/assets/site.css",
		"badfont/assets/font.woff2": "not a font",
		"latin1/base.html":          "caf\xe9",
		"odd/x.exe":                 "MZ",
		"alias":                     "->theme",
	})
	ctx := context.Background()
	d, err := OpenDir(ctx, OperatorRef(filepath.Join(dir, "theme")))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	files, err := d.Files(ctx)
	if err != nil || strings.Join(files, " ") != "assets/font.woff2 assets/site.css base.html" {
		t.Fatalf("Files = %q, %v", files, err)
	}
	for _, f := range files {
		if _, err := d.ReadFile(ctx, f); err != nil {
			t.Errorf("ReadFile %s: %v", f, err)
		}
	}
	if _, err := d.ReadFile(ctx, "../linked/base.html"); !errors.Is(err, ErrEscapes) {
		t.Errorf("ReadFile ..: %v", err)
	}
	if _, err := d.ReadFile(ctx, "handbook.html"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
	for _, tc := range []struct {
		folder, file string
		want         error
	}{
		{"linked", "base.html", ErrSymlink},
		{"deep", "assets/site.css", ErrSymlink},
		{"badfont", "assets/font.woff2", ErrContent},
		{"latin1", "base.html", ErrContent},
		{"odd", "x.exe", ErrContent},
	} {
		t.Run(tc.folder, func(t *testing.T) {
			d, err := OpenDir(ctx, OperatorRef(filepath.Join(dir, tc.folder)))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.ReadFile(ctx, tc.file); !errors.Is(err, tc.want) {
				t.Errorf("ReadFile: %v, want %v", err, tc.want)
			}
			if tc.want == ErrSymlink {
				if _, err := d.Files(ctx); !errors.Is(err, ErrSymlink) {
					t.Errorf("Files: %v, want %v", err, ErrSymlink)
				}
			}
		})
	}
	if _, err := OpenDir(ctx, OperatorRef(filepath.Join(dir, "alias"))); !errors.Is(err, ErrSymlink) {
		t.Errorf("OpenDir of a symlink: %v", err)
	}
	if _, err := OpenDir(ctx, FileRef("../theme", filepath.Join(dir, "odd", "curex.yaml"))); !errors.Is(err, ErrEscapes) {
		t.Errorf("OpenDir ../theme from a file: %v", err)
	}
}

func TestCheckSVG(t *testing.T) {
	const open = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">`
	for _, tc := range []struct {
		name, svg string
		ok        bool
	}{
		{"good", goodSVG, true},
		{"inkscape", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" inkscape:version="1.0"><sodipodi:namedview/><metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata><path d="M0 0"/></svg>`, true},
		{"style element", open + `<style>.a{fill:url(#g)}</style></svg>`, true},
		{"script", open + `<script>alert(1)</script></svg>`, false},
		{"event handler", open + `<rect onload="alert(1)"/></svg>`, false},
		{"foreignObject", open + `<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`, false},
		{"xhtml script", open + `<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>`, false},
		{"external href", open + `<use xlink:href="https://evil.example/x.svg#a"/></svg>`, false},
		{"javascript href", open + `<use href="javascript:alert(1)"/></svg>`, false},
		{"data href", open + `<use href="data:image/svg+xml,..."/></svg>`, false},
		{"image", open + `<image href="#x"/></svg>`, false},
		{"anchor", open + `<a href="#x"/></svg>`, false},
		{"animate", open + `<set attributeName="href" to="javascript:alert(1)"/></svg>`, false},
		{"external url", open + `<rect fill="url(https://evil.example/p)"/></svg>`, false},
		{"import", open + `<style>@import "https://evil.example/x.css";</style></svg>`, false},
		{"import split by CDATA", open + `<style>@imp<![CDATA[ort "https://evil.example/x.css";]]></style></svg>`, false},
		{"import split by a comment", open + `<style>@imp<!-- -->ort "https://evil.example/x.css";</style></svg>`, false},
		{"element in style", open + `<style><g/></style></svg>`, false},
		{"escaped url", open + `<rect style="background:\75rl(https://evil.example/)"/></svg>`, false},
		{"doctype", `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>` + open + `&x;</svg>`, false},
		{"stylesheet PI", `<?xml-stylesheet href="https://evil.example/x.css"?>` + open + `</svg>`, false},
		{"not svg root", `<html xmlns="http://www.w3.org/1999/xhtml"/>`, false},
		{"no namespace", `<svg><rect/></svg>`, false},
		{"not xml", `HOME=/root`, false},
		{"two roots", open + `</svg>` + open + `</svg>`, false},
		{"latin1", open + "<title>caf\xe9</title></svg>", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckSVG([]byte(tc.svg))
			if tc.ok != (err == nil) {
				t.Fatalf("CheckSVG: %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrContent) {
				t.Errorf("error %v does not wrap ErrContent", err)
			}
		})
	}
}

// FuzzCheckSVG: no input panics, and an accepted one has no script, no
// event handler and no external reference a browser would follow.
func FuzzCheckSVG(f *testing.F) {
	f.Add([]byte(goodSVG))
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect onclick="x" style="fill:url(#a)"/></svg>`))
	f.Add([]byte(`<!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg"/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if CheckSVG(data) != nil {
			return
		}
		d := xml.NewDecoder(bytes.NewReader(data))
		for {
			tok, err := d.Token()
			if err != nil {
				return
			}
			switch tk := tok.(type) {
			case xml.Directive:
				t.Fatalf("accepted a declaration: %q", data)
			case xml.StartElement:
				if n := strings.ToLower(tk.Name.Local); n == "script" || n == "foreignobject" || n == "iframe" {
					t.Fatalf("accepted <%s>: %q", n, data)
				}
				for _, a := range tk.Attr {
					n := strings.ToLower(a.Name.Local)
					if strings.HasPrefix(n, "on") || n == "href" && !strings.HasPrefix(strings.TrimSpace(a.Value), "#") {
						t.Fatalf("accepted %s=%q: %q", n, a.Value, data)
					}
				}
			}
		}
	})
}
