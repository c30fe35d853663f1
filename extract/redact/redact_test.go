package redact_test

import (
	"passbook/extract"
	"passbook/extract/engine"
	"passbook/extract/redact"
)

// read is the engine's reading, as the command line makes it.
func read(data []byte, password string) (redact.Reading, error) {
	doc, res, err := engine.New().Read(data, extract.Options{Password: password})
	return redact.Reading{Doc: doc, Result: res}, err
}
