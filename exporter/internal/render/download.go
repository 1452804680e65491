package render

import (
	"cmp"
	"slices"

	"github.com/curex/curex/exporter/internal/model"
)

// Download is a file a format writes for each export that the website
// offers for download (Format.Download), as data: the website lists the
// downloads of the selected formats (Options.Downloads) and `curex serve`
// sends each with its media type (Registry.MediaTypes), without either
// knowing the format.
type Download struct {
	// Format is the format's name; the registry sets it. The website
	// uses it as the link's kind (a class name, for styling).
	Format string
	// Path is where the file of export e is, from the output root (a
	// path of package layout).
	Path func(e model.Export) string
	// Ext is the file's extension (".pdf"), Type its media type
	// ("application/pdf"): `curex serve` sends Type for files with Ext
	// when its own table has no type for Ext.
	Ext, Type string
	// LabelKey is the i18n key of the link's text in the page's
	// language (package i18n); Label is the text when the catalogs do
	// not have the key, so that a new format brings its label along.
	LabelKey, Label string
	// Opens is set for a file the browser shows rather than saves (the
	// handbook): its link has no download attribute.
	Opens bool
	// Rank orders the website's list of downloads, lowest first; formats
	// of one rank keep the registry's order.
	Rank int
}

// Downloads lists the downloads of the formats of names (those
// selected), in the website's order (Download.Rank).
func (r *Registry) Downloads(names []string) []Download {
	var out []Download
	for _, f := range r.formats {
		if f.Download == nil || !slices.Contains(names, f.Name) {
			continue
		}
		d := *f.Download
		d.Format = f.Name
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b Download) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// MediaTypes maps the extension of every format's download (whether
// selected or not: a folder served may hold the files of an earlier
// export) to its media type.
func (r *Registry) MediaTypes() map[string]string {
	out := map[string]string{}
	for _, f := range r.formats {
		if d := f.Download; d != nil && d.Ext != "" {
			if _, ok := out[d.Ext]; !ok {
				out[d.Ext] = d.Type
			}
		}
	}
	return out
}
