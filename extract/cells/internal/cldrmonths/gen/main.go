// Command gen writes extract/cells/months_cldr.go from package cldrmonths; run it
// with go generate in extract/cells.
package main

import (
	"log"
	"os"

	"passbook/extract/cells/internal/cldrmonths"
)

func main() {
	src, err := cldrmonths.Source()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("months_cldr.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
