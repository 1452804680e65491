package model

// Catalog is what discovery knows of a run's curricula, renderer-neutral:
// each base curriculum with its variants, its locales and the exports
// planned. The fetcher builds it once from the API's answers (see
// fetch.Plan.Catalog); renderers read it and never the API's types.
type Catalog struct {
	// Curricula are the base curricula in plan order.
	Curricula []Curriculum
}

// Curriculum is one base curriculum of a catalog.
type Curriculum struct {
	// ID is the base curriculum's id as the API gives it.
	ID string
	// Name is its name as a one-line text safe to show anywhere (no
	// control characters, no bidirectional control left open); the
	// manifest keeps the name as served (Export.CurriculumName).
	Name string
	// Description is its description as the API gives it.
	Description string
	// Slug is the curriculum's folder.
	Slug string
	// PrimaryLocale is the language tag its content is written in.
	PrimaryLocale string
	// Locales are the enabled locales, in the API's order.
	Locales []Locale
	// Variants are every variant of the curriculum, in the API's order
	// (parents before their variants); the base is not among them.
	Variants []Variant
	// Exports are the variant × locale pairs planned, in plan order.
	Exports []Export
}

// Locale is an enabled locale of a curriculum.
type Locale struct {
	// Code is the language tag (normalized: "pt-BR" for a served
	// "pt_BR").
	Code string
	// Name is the locale's display name ("Español"), a one-line text
	// safe to show anywhere.
	Name string
	// Slug is the locale's folder.
	Slug string
	// IsPrimary reports the locale the content is written in: marked so
	// by the API, or the curriculum's primary locale.
	IsPrimary bool
	// TranslationProgress and PublishedProgress are the API's figures for
	// the base curriculum, in percent.
	TranslationProgress, PublishedProgress int
}

// Variant is a variant of a base curriculum.
type Variant struct {
	// ID is the variant's id; ParentID the curriculum it derives from.
	ID, ParentID string
	// Name is its name, a one-line text safe to show anywhere.
	Name string
	// Depth is 1 for a direct variant of the base, 2 for a variant of
	// one, and so on.
	Depth int
}

// Curriculum returns the catalog's base curriculum of that id, or nil.
func (c *Catalog) Curriculum(id string) *Curriculum {
	for i := range c.Curricula {
		if c.Curricula[i].ID == id {
			return &c.Curricula[i]
		}
	}
	return nil
}
