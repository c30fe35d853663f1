package extract

import "slices"

// hasKind reports a row that carries a warning of kind k.
func hasKind(tx Transaction, k WarningKind) bool {
	return slices.ContainsFunc(tx.Warnings, func(w Warning) bool { return w.Kind == k })
}
