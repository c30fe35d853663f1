package ocr

import "passbook/extract/internal/golden"

// The golden statements' shape and comparison (extract/internal/golden).
type (
	goldenTxn       = golden.Txn
	goldenStatement = golden.Statement
	goldenDoc       = golden.Doc
)

var (
	compareFixture        = golden.Compare
	goldenFromTransaction = golden.FromTransaction
	strOrNull             = golden.StrOrNull
)
