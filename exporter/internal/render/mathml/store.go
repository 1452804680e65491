package mathml

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// storeVersion changes when what a Store keeps under a key changes
// meaning (its recipe below, or what render returns).
const storeVersion = "curex-mathml-store-1"

// codeSum is the SHA-256 of everything besides the expression that shapes
// Temml's output: its code and its mhchem extension's, as patched, the call's options and the budgets.
// A new Temml, a new option or a new budget gives new keys, and the
// entries of the old ones are pruned when unused.
func codeSum() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d:%s\n%d:%s\n%d:%s\n", storeVersion, len(temmlJS), temmlJS, len(mhchemJS), mhchemJS, len(renderJS), renderJS)
	fmt.Fprintf(h, "expand=%d steps=%d nodes=%d bytes=%d patches=%q mhchem=%q\n",
		maxExpand, maxTokenSteps, maxNodes, maxMarkupBytes, budgetPatches, mhchemPatches)
	return hex.EncodeToString(h.Sum(nil))
}

// storeKey is the key under which the output of tex is kept; code is
// codeSum's.
func storeKey(code, tex string, display bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%t\n%d:%s", code, display, len(tex), tex)
	return hex.EncodeToString(h.Sum(nil))
}
