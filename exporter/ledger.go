package exporter

import (
	"sync"

	"github.com/curex/curex/exporter/internal/model"
	"github.com/curex/curex/exporter/internal/output"
)

// ledger is what a run knows of its exports, and its Summary: plan makes
// it, every later stage adds to it, commit writes the manifest from it.
type ledger struct {
	// exports lists every export in manifest order.
	exports []model.Export
	// mu guards records (not the records themselves): the website's
	// early rendering reads it (run.treeOf) while the run goes on.
	mu      sync.Mutex
	records map[model.Key]*record
	sum     *Summary
}

// record is what a run knows of one export.
type record struct {
	// arrived is set once the fetcher delivered the tree (or its failure),
	// or when the export could not be fetched at all.
	arrived bool
	// entry is its manifest entry, once written, carried over or failed.
	entry    output.ManifestExport
	hasEntry bool
	// pages is set when its pages are in the output (written or kept),
	// for the website's links.
	pages bool
	// prev is its entry in the previous manifest, if hasPrev.
	prev    output.ManifestExport
	hasPrev bool
	// held is its tree held back as unchanged (see reuse), until every
	// tree of its curriculum is in.
	held *pendingTree
	// body is where its tree is kept once written, for the website,
	// which renders it later (run.treeOf).
	body bodyRef
}

// newLedger returns the ledger of exports, each with its entry in prev
// (the previous manifest, if any).
func newLedger(exports []model.Export, sum *Summary, prev *output.Manifest) *ledger {
	l := &ledger{exports: exports, records: map[model.Key]*record{}, sum: sum}
	for _, e := range exports {
		l.rec(e)
	}
	if prev != nil {
		for _, e := range prev.Exports {
			if rc, ok := l.records[entryKey(e)]; ok {
				rc.prev, rc.hasPrev = e, true
			}
		}
	}
	return l
}

// rec returns the record of e, made on first use.
func (l *ledger) rec(e model.Export) *record {
	k := e.Key()
	l.mu.Lock()
	defer l.mu.Unlock()
	rc := l.records[k]
	if rc == nil {
		rc = &record{}
		l.records[k] = rc
	}
	return rc
}

// setEntry records e's manifest entry.
func (l *ledger) setEntry(e model.Export, entry output.ManifestExport) {
	rc := l.rec(e)
	rc.entry, rc.hasEntry = entry, true
}

// fail records a failure of e; settle carries its previous files over.
func (l *ledger) fail(e model.Export, err error) {
	l.sum.Failures = append(l.sum.Failures, Failure{Export: e, Err: err})
}

// manifest is the manifest of the exports, in order.
func (l *ledger) manifest(generator string) *output.Manifest {
	m := &output.Manifest{Generator: generator}
	for _, e := range l.exports {
		m.Exports = append(m.Exports, l.rec(e).entry)
	}
	return m
}

// manifestEntry is the manifest entry of e, before any format lists its
// files.
func manifestEntry(e model.Export, chain []string, etag string, nodes int) output.ManifestExport {
	return output.ManifestExport{
		CurriculumID: e.CurriculumID, CurriculumName: e.CurriculumName, Variant: e.Variant,
		VariantChain: chain, Locale: e.Locale, PrimaryLocale: e.PrimaryLocale,
		NodeCount: nodes, ETag: etag,
	}
}

// failedEntry describes an export this run could not refresh, from the
// previous manifest when the previous files were kept.
func failedEntry(prev *output.Manifest, e model.Export, kept bool, err error) output.ManifestExport {
	entry := manifestEntry(e, nil, "", 0)
	if kept && prev != nil {
		for _, p := range prev.Exports {
			if p.CurriculumID == e.CurriculumID && p.Variant == e.Variant && p.Locale == e.Locale {
				entry = p
				break
			}
		}
	}
	entry.State, entry.Error = output.StateMissing, err.Error()
	if kept {
		entry.State = output.StateKept
	}
	if entry.VariantChain == nil {
		entry.VariantChain = []string{}
	}
	return entry
}

// entryKey is the key of the export a manifest entry describes.
func entryKey(e output.ManifestExport) model.Key {
	return model.Key{CurriculumID: e.CurriculumID, Variant: e.Variant, Locale: e.Locale}
}
