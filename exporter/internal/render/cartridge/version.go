package cartridge

import (
	"fmt"
	"strings"
)

// Version is a Common Cartridge version curex writes: "1.1" or "1.3".
// Both hold the same content (web content, web links, the LOM metadata
// curex fills); they differ in namespaces and in which systems import
// them. Moodle's core converters know 1.0 and 1.1 only (they detect a
// package by its namespace), so 1.1 is the default.
type Version string

// The versions curex writes.
const (
	// Version11 is IMS Common Cartridge 1.1, the default: Canvas, Moodle,
	// Schoology, Brightspace and Blackboard import it.
	Version11 Version = "1.1"
	// Version13 is IMS Common Cartridge 1.3, for a system that asks for
	// it (Moodle refuses it: "Unknown backup format").
	Version13 Version = "1.3"
	// DefaultVersion is the version written when none is chosen.
	DefaultVersion = Version11
)

// Versions lists the versions curex writes, the default first.
func Versions() []string { return []string{string(Version11), string(Version13)} }

// ParseVersion returns the Version s names ("" is the default), or an
// error listing the versions.
func ParseVersion(s string) (Version, error) {
	switch v := Version(strings.TrimSpace(s)); v {
	case "":
		return DefaultVersion, nil
	case Version11, Version13:
		return v, nil
	}
	return "", fmt.Errorf("%q: want %s", s, strings.Join(Versions(), " or "))
}

// profile is what a version spells differently: its namespaces, the
// schemas instances name, and the web link's resource type.
type profile struct {
	// schemaVersion is the manifest's <schemaversion>.
	schemaVersion string
	// cp, lomManifest, lomResource and webLink are the namespaces of the
	// manifest, of its metadata, of a resource's metadata and of a web
	// link document.
	cp, lomManifest, lomResource, webLink string
	// webLinkType is a web link resource's type.
	webLinkType string
	// schemaLocation and webLinkSchemaLocation pair each namespace with
	// its official schema's URL.
	schemaLocation, webLinkSchemaLocation string
}

// profileOf returns v's profile; an unknown version is the default's.
// Each is spelled out as IMS publishes it: a namespace is matched
// exactly by the importing system.
func profileOf(v Version) profile {
	if v == Version13 {
		return profile{
			schemaVersion: "1.3.0",
			cp:            "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1",
			lomManifest:   "http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest",
			lomResource:   "http://ltsc.ieee.org/xsd/imsccv1p3/LOM/resource",
			webLink:       "http://www.imsglobal.org/xsd/imsccv1p3/imswl_v1p3",
			webLinkType:   "imswl_xmlv1p3",
			schemaLocation: "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1 http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_imscp_v1p2_v1p0.xsd " +
				"http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest http://www.imsglobal.org/profile/cc/ccv1p3/LOM/ccv1p3_lommanifest_v1p0.xsd " +
				"http://ltsc.ieee.org/xsd/imsccv1p3/LOM/resource http://www.imsglobal.org/profile/cc/ccv1p3/LOM/ccv1p3_lomresource_v1p0.xsd",
			webLinkSchemaLocation: "http://www.imsglobal.org/xsd/imsccv1p3/imswl_v1p3 http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_imswl_v1p3.xsd",
		}
	}
	return profile{
		schemaVersion: "1.1.0",
		cp:            "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1",
		lomManifest:   "http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest",
		lomResource:   "http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource",
		webLink:       "http://www.imsglobal.org/xsd/imsccv1p1/imswl_v1p1",
		webLinkType:   "imswl_xmlv1p1",
		schemaLocation: "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1 http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_imscp_v1p2_v1p0.xsd " +
			"http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lommanifest_v1p0.xsd " +
			"http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lomresource_v1p0.xsd",
		webLinkSchemaLocation: "http://www.imsglobal.org/xsd/imsccv1p1/imswl_v1p1 http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_imswl_v1p1.xsd",
	}
}
