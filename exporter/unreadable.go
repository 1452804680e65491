package exporter

import (
	"strings"

	"github.com/curex/curex/exporter/fetch"
	"github.com/curex/curex/exporter/model"
	"github.com/curex/curex/exporter/output"
)

// keepUnreadable handles the curricula discovery could not read (403 on
// their variants or locales; see fetch.Unreadable). Each export the
// previous output holds of them is a failure whose files (pages, bundles
// and the curriculum's landing page) are carried over and whose manifest
// entry is the previous one, marked kept. A curriculum without a previous
// export is one failure, marked missing, whose folder is "<slug>/*/*": its
// variants and locales are unknown.
//
// It runs after Run's own failures are carried over, and adds to sum,
// entries and exports.
func keepUnreadable(w *output.Writer, plan *fetch.Plan, prev *output.Manifest, sum *Summary, entries map[string]output.ManifestExport, exports *[]model.Export) error {
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
			sum.Planned++
			sum.Failures = append(sum.Failures, Failure{Export: e, Err: u.Err})
			entries[e.Key()] = failedEntry(prev, e, false, u.Err)
			*exports = append(*exports, e)
			continue
		}
		landings := map[string]bool{}
		for _, e := range found {
			kept := false
			for _, dir := range []string{"bundles/" + e.Dir(), e.Dir()} {
				k, err := w.CarryOver(dir)
				if err != nil {
					return err
				}
				kept = kept || k
			}
			if l := e.CurriculumSlug + "/index.html"; !landings[l] {
				landings[l] = true
				if _, err := w.CarryOver(l); err != nil {
					return err
				}
			}
			sum.Planned++
			sum.Failures = append(sum.Failures, Failure{Export: e, Err: u.Err, Kept: kept})
			entries[e.Key()] = failedEntry(prev, e, kept, u.Err)
			*exports = append(*exports, e)
		}
	}
	return nil
}

// previousDir returns the folder (curriculum/variant/locale) of an export
// of the previous manifest, from the paths it lists.
func previousDir(p output.ManifestExport) string {
	for _, f := range []string{p.JSON, p.Markdown, p.HTML, p.Handbook, p.PDF} {
		f = strings.TrimPrefix(f, "bundles/")
		if segs := strings.SplitN(f, "/", 4); len(segs) == 4 {
			return strings.Join(segs[:3], "/")
		}
	}
	return ""
}
