//go:build eval

package engine

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

var (
	evalSets  = flag.String("sets", strings.Join(corpusSets, ","), "comma-separated corpus sets")
	evalKinds = flag.String("kinds", "", "comma-separated kinds: text_pdf, scan_pdf (scan), png, photo_jpg (photo), negative, or text (text_pdf and negative) and images (the rest); all when empty")
	evalOut   = flag.String("out", "/tmp/passbook-eval", "where each file's JSON download body is written (SET/FILE.json)")
)

// TestEvalCorpus is `make eval`: every file of every set, text and images,
// with the table of corpusTable. It fails when a statement says ok while
// it is wrong.
func TestEvalCorpus(t *testing.T) {
	var kinds []string
	for _, k := range strings.Split(*evalKinds, ",") {
		switch k {
		case "":
		case "text":
			kinds = append(kinds, "text_pdf", "negative")
		case "images":
			kinds = append(kinds, "scan_pdf", "png", "photo_jpg")
		case "scan", "photo": // eval-random's names
			kinds = append(kinds, map[string]string{"scan": "scan_pdf", "photo": "photo_jpg"}[k])
		default:
			kinds = append(kinds, k)
		}
	}
	if err := os.RemoveAll(*evalOut); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results := evalCorpus(t, corpusDir(t), strings.Split(*evalSets, ","), kinds, *evalOut)
	fmt.Printf("corpus evaluation: sets %s, kinds %s, %d files in %s (outputs in %s)\n%s",
		*evalSets, strings.Join(kinds, ","), len(results), time.Since(start).Round(time.Second), *evalOut, corpusTable(results))
	for _, r := range results {
		if r.falseOK() {
			t.Errorf("%s says ok while wrong", r.key())
		}
	}
}
