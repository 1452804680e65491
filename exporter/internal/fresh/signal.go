package fresh

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/curex/curex/exporter/internal/fetch"
	"github.com/curex/curex/exporter/internal/model"
)

// Signal sums up the cheap signals that shape e's tree, as discovery read
// them: the updated_at of every curriculum of its variant chain (base
// first), the variant's name, and the progress of its locale. Two runs
// that compute the same signal saw no change to any of them.
//
// A signal can miss a change: a record of the alternate shape carries no
// updated_at, and an edit of a translation need not move the progress.
// The rolling revalidation of Policy is there for what it misses.
func Signal(cp *fetch.CurriculumPlan, e model.Export) string {
	var b strings.Builder
	fmt.Fprintf(&b, "v1\nprimary %s\nvariant %q\n", cp.PrimaryLocale, e.Variant)
	for _, id := range chain(cp, e.VariantID) {
		t, ok := cp.Updated[id]
		stamp := "?"
		if ok && !t.IsZero() {
			stamp = t.UTC().Format(time.RFC3339Nano)
		}
		fmt.Fprintf(&b, "curriculum %q %s\n", id, stamp)
	}
	for _, l := range cp.Locales {
		if strings.EqualFold(l.Code, e.Locale) {
			fmt.Fprintf(&b, "locale %q primary=%t translated=%d published=%d\n", l.Code, l.IsPrimary, l.TranslationProgress, l.PublishedProgress)
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:16])
}

// chain returns the ids from the base curriculum to variantID, following
// the variants' parents; a broken or cyclic chain ends where it breaks.
func chain(cp *fetch.CurriculumPlan, variantID string) []string {
	base := cp.Curriculum.ID
	parent := map[string]string{}
	for _, v := range cp.Variants {
		parent[v.ID] = v.ParentID
	}
	var ids []string
	for id := variantID; id != "" && id != base && len(ids) <= len(cp.Variants); id = parent[id] {
		ids = append(ids, id)
	}
	ids = append(ids, base)
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}
