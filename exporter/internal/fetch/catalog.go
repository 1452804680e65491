package fetch

import "github.com/curex/curex/exporter/internal/model"

// Catalog converts the plan into the model's catalog, once per run: the
// curricula, their variants and locales as renderers see them. Names
// become one-line texts (PlainText), each locale gets its folder
// (LocaleSlug) and is primary when the API marks it so or it is the
// curriculum's primary locale. The plan's API types stay here.
func (p *Plan) Catalog() *model.Catalog {
	c := &model.Catalog{Curricula: make([]model.Curriculum, 0, len(p.Curricula))}
	for i := range p.Curricula {
		cp := &p.Curricula[i]
		mc := model.Curriculum{
			ID: cp.Curriculum.ID, Name: PlainText(cp.Curriculum.Name), Description: cp.Curriculum.Description,
			Slug: cp.Slug, PrimaryLocale: cp.PrimaryLocale,
			Locales:  make([]model.Locale, 0, len(cp.Locales)),
			Variants: make([]model.Variant, 0, len(cp.Variants)),
			Exports:  cp.Exports,
		}
		for _, l := range cp.Locales {
			mc.Locales = append(mc.Locales, model.Locale{
				Code: l.Code, Name: PlainText(l.Name), Slug: LocaleSlug(l.Code),
				IsPrimary:           l.IsPrimary || l.Code == cp.PrimaryLocale,
				TranslationProgress: l.TranslationProgress, PublishedProgress: l.PublishedProgress,
			})
		}
		for _, v := range cp.Variants {
			mc.Variants = append(mc.Variants, model.Variant{ID: v.ID, ParentID: v.ParentID, Name: PlainText(v.Name), Depth: v.Depth})
		}
		c.Curricula = append(c.Curricula, mc)
	}
	return c
}
