package cartridge

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/curex/curex/exporter/internal/testtrees"
)

// imsSchemas are the official schemas of each version, kept unchanged
// with their notices under testdata/ims (see its README.md): the folder,
// and the files of the manifest's three namespaces and of a web link.
var imsSchemas = map[Version]struct{ dir, cp, lomManifest, lomResource, webLink string }{
	Version11: {"cc11", "ccv1p1_imscp_v1p2_v1p0.xsd", "ccv1p1_lommanifest_v1p0.xsd", "ccv1p1_lomresource_v1p0.xsd", "ccv1p1_imswl_v1p1.xsd"},
	Version13: {"cc13", "ccv1p3_imscp_v1p2_v1p0.xsd", "ccv1p3_lommanifest_v1p0.xsd", "ccv1p3_lomresource_v1p0.xsd", "ccv1p3_imswl_v1p3.xsd"},
}

// TestVersionsValidateAgainstIMSSchemas writes the sample's cartridges in
// every version and validates each manifest (its LOM metadata included)
// and every web link against the official IMS schemas with xmllint,
// offline. Skipped without xmllint (Debian's libxml2-utils) unless
// CUREX_REQUIRE_TOOLS=1. xmllint does not apply the Schematron rules the
// schemas embed.
func TestVersionsValidateAgainstIMSSchemas(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal("xmllint is missing (make tools installs libxml2-utils)")
		}
		t.Skip("no xmllint (libxml2-utils)")
	}
	for _, v := range []Version{Version11, Version13} {
		t.Run(string(v), func(t *testing.T) {
			s := imsSchemas[v]
			dir, _ := filepath.Abs(filepath.Join("testdata", "ims", s.dir))
			// One schema importing the manifest's three namespaces:
			// xmllint validates against one, and does not follow the
			// instance's xsi:schemaLocation.
			p := profileOf(v)
			both := filepath.Join(t.TempDir(), "manifest.xsd")
			var imports strings.Builder
			for _, ns := range [][2]string{{p.cp, s.cp}, {p.lomManifest, s.lomManifest}, {p.lomResource, s.lomResource}} {
				fmt.Fprintf(&imports, "  <xs:import namespace=%q schemaLocation=%q/>\n", ns[0], "file://"+filepath.Join(dir, ns[1]))
			}
			if err := os.WriteFile(both, []byte("<?xml version=\"1.0\"?>\n<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"+imports.String()+"</xs:schema>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			var manifests, links []string
			for _, d := range []string{"algebra-1/houston-isd/ar", "algebra-1/texas/es", "introduction-to-computer-science/base/ja"} {
				tr := testtrees.Sample(t).Find(t, d).PublishedOnly()
				a := open(t, makeCartridge(t, New(Options{SiteURL: testSite, Version: v}), tr))
				name := strings.ReplaceAll(d, "/", "-")
				for f, data := range a.files {
					var dst string
					switch {
					case f == ManifestFile:
						dst = filepath.Join(out, name+"-"+f)
						manifests = append(manifests, dst)
					case strings.HasPrefix(f, LinksDir):
						dst = filepath.Join(out, name+"-"+strings.ReplaceAll(f, "/", "-"))
						links = append(links, dst)
					default:
						continue
					}
					if err := os.WriteFile(dst, data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if len(links) == 0 {
				t.Fatal("no web links written")
			}
			for _, run := range []struct {
				schema string
				files  []string
			}{{both, manifests}, {filepath.Join(dir, s.webLink), links}} {
				cmd := exec.Command(xmllint, append([]string{"--nonet", "--noout", "--schema", run.schema}, run.files...)...)
				cmd.Env = append(os.Environ(), "XML_CATALOG_FILES="+filepath.Join(dir, "catalog.xml"))
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("xmllint --schema %s: %v\n%s", filepath.Base(run.schema), err, b)
				}
			}
		})
	}
}

// TestDefaultVersionIsOneMoodleImports: Moodle's core converters
// recognize a cartridge by its manifest's namespace, 1.0's or 1.1's
// (backup/converter/imscc1, imscc11); a 1.3 package is "Unknown backup
// format". The default must be 1.1, and 1.3 stays a choice.
func TestDefaultVersionIsOneMoodleImports(t *testing.T) {
	tr := testtrees.Sample(t).Find(t, "algebra-1/texas/es").PublishedOnly()
	for _, tc := range []struct {
		version Version
		ns      string
	}{
		{"", "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"},
		{Version11, "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"},
		{Version13, "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1"},
	} {
		a := open(t, makeCartridge(t, New(Options{Version: tc.version}), tr))
		if got := a.man.XMLName.Space; got != tc.ns {
			t.Errorf("version %q: manifest namespace %q, want %q", tc.version, got, tc.ns)
		}
	}
	for _, bad := range []string{"1.2", "2", "v1.1"} {
		if _, err := ParseVersion(bad); err == nil || !strings.Contains(err.Error(), "1.1 or 1.3") {
			t.Errorf("ParseVersion(%q): %v, want an error listing 1.1 or 1.3", bad, err)
		}
	}
}
