package layout

import "path/filepath"

// Folders and files of the cache folder.
const (
	// ScopesDir holds one folder per scope (an API origin and an identity
	// there): the ETag cache and the run state of that scope.
	ScopesDir = "api"
	// PrintsDir holds the printed PDFs (printcache's diskcache.Store).
	PrintsDir = "pdf"
	// ETagsDir is a scope's ETag cache (the disk cache).
	ETagsDir = "etag"
	// ScopeRecord describes a scope's folder, for people and for build.
	ScopeRecord = "scope.json"
	// StateDir is a scope's run state (the freshness store).
	StateDir = "state"
	// SnapshotsDir, in StateDir, holds the snapshots of the trees last
	// exported, which the history of changes compares with.
	SnapshotsDir = "snapshots"
	// PrintExt ends the name of every printed PDF in PrintsDir.
	PrintExt = ".pdf"
	// AssetsDir holds the answers for the images content refers to, by
	// URL with their ETags (package assets, in the ETag cache's format),
	// each naming its checked file in content/ (by SHA-256).
	AssetsDir = "assets"
	// MathDir holds Temml's output by key (a diskcache.Store).
	MathDir = "math"
	// CodeDir holds highlighted code by key (a diskcache.Store).
	CodeDir = "code"
	// StagingDir holds the local copies export --output URL builds into
	// before publishing, one per bucket and prefix.
	StagingDir = "publish"
)

// Cache is the layout of a cache folder (--cache-dir), given by its path:
//
//	api/<scope>/scope.json         the scope (ScopeDir.Record)
//	api/<scope>/etag/ab/ab…        the ETag cache (ScopeDir.ETags, ETagEntry)
//	api/<scope>/state/             the run state (ScopeDir.State)
//	api/<scope>/state/snapshots/   the trees' snapshots (ScopeDir.Snapshots)
//	pdf/<key>.pdf                  the printed PDFs (Cache.Prints, PrintExt)
//	assets/ab/ab…                  the answers for images of content (Cache.Assets)
//	assets/content/<sha256>.<ext>  the images of content, checked
//	math/ab/ab…                    Temml's output by key (Cache.Math)
//	code/ab/ab…                    highlighted code by key (Cache.Code)
//	publish/<name>/                a copy to publish (Cache.Staging)
type Cache string

// Scopes is the folder of the scopes' folders.
func (c Cache) Scopes() string { return filepath.Join(string(c), ScopesDir) }

// Scope is the folder of the scope whose folder name is name.
func (c Cache) Scope(name string) ScopeDir { return ScopeDir(filepath.Join(c.Scopes(), name)) }

// Prints is the folder of the printed PDFs.
func (c Cache) Prints() string { return filepath.Join(string(c), PrintsDir) }

// Assets is the cache of the images content refers to.
func (c Cache) Assets() string { return filepath.Join(string(c), AssetsDir) }

// Math is the cache of formulas converted to MathML.
func (c Cache) Math() string { return filepath.Join(string(c), MathDir) }

// Code is the cache of highlighted code.
func (c Cache) Code() string { return filepath.Join(string(c), CodeDir) }

// Staging is the folder export --output URL builds into before
// publishing, for the bucket and prefix whose folder name is name.
func (c Cache) Staging(name string) string { return filepath.Join(string(c), StagingDir, name) }

// ScopeDir is the layout of one scope's folder, given by its path.
type ScopeDir string

// ETags is the scope's ETag cache.
func (s ScopeDir) ETags() string { return filepath.Join(string(s), ETagsDir) }

// Record is the file that describes the scope.
func (s ScopeDir) Record() string { return filepath.Join(string(s), ScopeRecord) }

// State is the scope's run state.
func (s ScopeDir) State() string { return filepath.Join(string(s), StateDir) }

// Snapshots is the folder of the snapshots of the trees last exported.
func (s ScopeDir) Snapshots() string { return filepath.Join(string(s), StateDir, SnapshotsDir) }

// ETagEntry is the file of the ETag cache in dir that holds the entry
// whose name (the hex SHA-256 of its key) is name: one of 256 subfolders,
// named by the name's first two digits. name has at least two bytes.
func ETagEntry(dir, name string) string { return filepath.Join(dir, name[:2], name) }
