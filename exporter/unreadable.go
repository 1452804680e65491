package exporter

import (
	"strings"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/layout"
	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
)

// keepUnreadable handles the curricula discovery could not read (403 on
// their variants or locales; see fetch.Unreadable). Each export the
// previous output holds of them is a failure whose files (pages, bundles
// and the curriculum's landing page) are carried over and whose manifest
// entry is the previous one, marked kept. A curriculum without a previous
// export is one failure, marked missing, whose folder is "<slug>/*/*": its
// variants and locales are unknown.
//
// It runs after the run's own failures are carried over, and returns the
// failures, each with its manifest entry, for the run to add.
func keepUnreadable(w *output.Writer, plan *fetch.Plan, prev *output.Manifest) ([]unreadable, error) {
	var out []unreadable
	for _, u := range plan.Unreadable {
		var found []model.Export
		if prev != nil {
			for _, p := range prev.Exports {
				if p.CurriculumID != u.Curriculum.ID {
					continue
				}
				dir := previousDir(p)
				segs := strings.Split(dir, "/")
				if len(segs) != 3 || output.CheckPath(dir) != nil {
					continue // no files of it to keep
				}
				found = append(found, model.Export{
					CurriculumID: p.CurriculumID, CurriculumName: p.CurriculumName,
					Variant: p.Variant, Locale: p.Locale, PrimaryLocale: p.PrimaryLocale,
					CurriculumSlug: segs[0], VariantSlug: segs[1], LocaleSlug: segs[2],
				})
			}
		}
		if len(found) == 0 {
			e := model.Export{CurriculumID: u.Curriculum.ID, CurriculumName: u.Curriculum.Name,
				CurriculumSlug: u.Slug, VariantSlug: "*", LocaleSlug: "*"}
			out = append(out, unreadable{Failure{Export: e, Err: u.Err}, failedEntry(prev, e, false, u.Err)})
			continue
		}
		landings := map[string]bool{}
		for _, e := range found {
			kept := false
			for _, dir := range layout.Trees(e) {
				k, err := w.CarryOver(dir)
				if err != nil {
					return nil, err
				}
				kept = kept || k
			}
			if l := layout.CurriculumIndex(e.CurriculumSlug); !landings[l] {
				landings[l] = true
				if _, err := w.CarryOver(l); err != nil {
					return nil, err
				}
			}
			out = append(out, unreadable{Failure{Export: e, Err: u.Err, Kept: kept}, failedEntry(prev, e, kept, u.Err)})
		}
	}
	return out, nil
}

// unreadable is an export of a curriculum the token could not read.
type unreadable struct {
	failure Failure
	entry   output.ManifestExport
}

// previousDir returns the folder (curriculum/variant/locale) of an export
// of the previous manifest, from the paths it lists.
func previousDir(p output.ManifestExport) string {
	for _, f := range p.Paths() {
		f = strings.TrimPrefix(f, layout.BundlesRoot+"/")
		if segs := strings.SplitN(f, "/", 4); len(segs) == 4 {
			return strings.Join(segs[:3], "/")
		}
	}
	return ""
}
