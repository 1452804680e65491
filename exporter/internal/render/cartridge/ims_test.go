package cartridge

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/testtrees"
)

// imsSchemas are the official schemas of each version, kept unchanged
// with their notices under testdata/ims (see its README.md): the folder,
// the files of the manifest's three namespaces and of a web link, and
// those of them that embed Schematron rules for what curex writes (the
// web link schemas embed none; 1.1's LOM resource schema neither; the
// QTI and LTI schemas' rules are for documents curex does not write).
var imsSchemas = map[Version]struct {
	dir, cp, lomManifest, lomResource, webLink string
	rules                                      []string
}{
	Version11: {"cc11", "ccv1p1_imscp_v1p2_v1p0.xsd", "ccv1p1_lommanifest_v1p0.xsd", "ccv1p1_lomresource_v1p0.xsd", "ccv1p1_imswl_v1p1.xsd",
		[]string{"ccv1p1_imscp_v1p2_v1p0.xsd", "ccv1p1_lommanifest_v1p0.xsd"}},
	Version13: {"cc13", "ccv1p3_imscp_v1p2_v1p0.xsd", "ccv1p3_lommanifest_v1p0.xsd", "ccv1p3_lomresource_v1p0.xsd", "ccv1p3_imswl_v1p3.xsd",
		[]string{"ccv1p3_imscp_v1p2_v1p0.xsd", "ccv1p3_lommanifest_v1p0.xsd", "ccv1p3_lomresource_v1p0.xsd"}},
}

// TestVersionsValidateAgainstIMSSchemas writes the sample's cartridges in
// every version and validates each manifest (its LOM metadata included)
// and every web link against the official IMS schemas with xmllint,
// offline, then applies the Schematron rules the schemas embed to the
// same manifests (.ci/schematron.py, with lxml: xmllint applies the XSD
// only), with zero failed asserts. Skipped without xmllint (Debian's
// libxml2-utils), the Schematron part without python3-lxml, unless
// CUREX_REQUIRE_TOOLS=1.
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
			t.Run("schematron", func(t *testing.T) {
				if out, err := schematron(t, v, manifests); err != nil {
					t.Errorf("Schematron rules of %s: %v\n%s", s.dir, err, out)
				}
			})
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

// schematronScript applies the Schematron rules an XSD embeds (see its
// doc string), from this package's folder.
const schematronScript = "../../../../.ci/schematron.py"

// schematron applies the Schematron rules of version v's schemas
// (imsSchemas' rules) to files with .ci/schematron.py, returning its
// report (one line per failed assert, "FILE: PATTERN: TEXT (at XPATH)")
// and its error (an *exec.ExitError: 1 when an assert fails). It skips
// the test when no Python with lxml is found, or fails it under
// CUREX_REQUIRE_TOOLS=1.
func schematron(t *testing.T, v Version, files []string) (string, error) {
	t.Helper()
	python := lxmlPython()
	if python == "" {
		if os.Getenv("CUREX_REQUIRE_TOOLS") == "1" {
			t.Fatal("no python3 with lxml (make tools installs python3-lxml)")
		}
		t.Skip("no python3 with lxml (python3-lxml)")
	}
	s := imsSchemas[v]
	args := []string{schematronScript}
	for _, r := range s.rules {
		args = append(args, "-s", filepath.Join("testdata", "ims", s.dir, r))
	}
	var stdout, stderr strings.Builder
	cmd := exec.Command(python, append(args, files...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("%s: %v\n%s%s", schematronScript, err, stdout.String(), stderr.String())
	}
	return stdout.String(), err
}

// lxmlPython returns the first of Debian's /usr/bin/python3 and the
// python3 on PATH (which may be another interpreter) that imports
// lxml's isoschematron, or "" when neither does; looked for once.
var lxmlPython = sync.OnceValue(func() string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import lxml.isoschematron").Run() == nil {
			return path
		}
	}
	return ""
})

// TestSchematronRulesBite breaks one embedded rule at a time in a
// cartridge's manifest and expects .ci/schematron.py to name that rule,
// and nothing in the manifest as written: proof that the rules
// TestVersionsValidateAgainstIMSSchemas applies are applied. One run of
// the script a version checks every case. The rule sets of a resource
// type (2: web links, 5: web content) are checked in 1.3 only: the 1.1
// schema's rules name CC 1.0's resource types (imswl_xmlv1p0,
// imsdt_xmlv1p0, ...), which no 1.1 package uses.
func TestSchematronRulesBite(t *testing.T) {
	tr := tree("en", node("u1", "Unit", nil, node("l1", "Lesson", map[string]string{"summary": `"S"`})))
	unit, lesson := resourceIDs(t, tr)
	cases := []struct {
		name, old, new, want string
		only                 Version
	}{
		{"as written", "", "", "", ""},
		{"web link with two files", `<file href="links/l1.xml"/>`,
			`<file href="links/l1.xml"/><file href="links/l2.xml"/>`, "[RULE 2b]", Version13},
		{"web content depending on a web link", `<file href="pages/l1.html"/>`,
			`<file href="pages/l1.html"/><dependency identifierref="RW_` + lesson + `"/>`, "[RULE 5b]", Version13},
		{"dependency on its own resource", `<file href="pages/u1.html"/>`,
			`<file href="pages/u1.html"/><dependency identifierref="R_` + unit + `"/>`, "[RULE 7a]", ""},
		{"two dependencies on one resource", `<file href="pages/l1.html"/>`,
			`<file href="pages/l1.html"/><dependency identifierref="R_STYLE"/>`, "[RULE 7b]", ""},
		{"learning object item with a child item", `identifierref="R_` + lesson + `">`,
			`identifierref="R_` + lesson + `"><item identifier="X"><title>X</title></item>`, "[RULE 8b]", ""},
		{"one file twice", `<file href="style.css"/>`, `<file href="style.css"/><file href="style.css"/>`, "[RULE 9a]", ""},
		{"href without its file", `href="pages/u1.html">`, `href="pages/u2.html">`, "[RULE 10b]", ""},
		{"two LOM titles", `</lomimscc:title>`, `</lomimscc:title><lomimscc:title/>`, "General.Type: [RULE for Local Attribute", ""},
	}
	for _, v := range []Version{Version11, Version13} {
		t.Run(string(v), func(t *testing.T) {
			man := string(open(t, makeCartridge(t, New(Options{SiteURL: testSite, Version: v}), tr)).files[ManifestFile])
			dir := t.TempDir()
			var files []string
			for i, tc := range cases {
				broken := strings.Replace(man, tc.old, tc.new, 1)
				if tc.old != "" && broken == man {
					t.Fatalf("%s: the manifest has no %s", tc.name, tc.old)
				}
				files = append(files, filepath.Join(dir, fmt.Sprintf("%d.xml", i)))
				if err := os.WriteFile(files[i], []byte(broken), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, _ := schematron(t, v, files)
			for i, tc := range cases {
				var got []string
				for _, line := range strings.Split(out, "\n") {
					if rest, ok := strings.CutPrefix(line, files[i]+": "); ok {
						got = append(got, rest)
					}
				}
				switch want := tc.want != "" && (tc.only == "" || tc.only == v); {
				case !want && len(got) > 0 && tc.only == "":
					t.Errorf("%s: failed asserts %q, want none", tc.name, got)
				case want && !strings.Contains(strings.Join(got, "\n"), tc.want):
					t.Errorf("%s: failed asserts %q, want %s", tc.name, got, tc.want)
				}
			}
		})
	}
}

// resourceIDs returns the suffixes of the resource identifiers of tr's
// unit and lesson, as the manifest writes them (R_<suffix>).
func resourceIDs(t *testing.T, tr *model.Tree) (unit, lesson string) {
	t.Helper()
	a := open(t, makeCartridge(t, New(Options{SiteURL: testSite}), tr))
	for _, r := range a.man.Resources {
		switch r.Href {
		case "pages/u1.html":
			unit = strings.TrimPrefix(r.Identifier, "R_")
		case "pages/l1.html":
			lesson = strings.TrimPrefix(r.Identifier, "R_")
		}
	}
	if unit == "" || lesson == "" {
		t.Fatalf("no pages/u1.html and pages/l1.html among %+v", a.man.Resources)
	}
	return unit, lesson
}
