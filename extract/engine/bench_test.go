package engine

import (
	"bytes"
	"fmt"
	"os"
	"passbook/extract"
	"passbook/extract/integrity"
	"passbook/extract/pdf"
	"passbook/extract/source"
	"syscall"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
)

// statementPDF writes a text PDF statement of the given pages (35 rows a
// page, some descriptions wrapped, a repeated heading on each page), protected
// with password when it is not empty. It returns the PDF and the closing balance.
func statementPDF(tb testing.TB, pages int, password string) ([]byte, string) {
	tb.Helper()
	pdf := fpdf.New("P", "pt", "Letter", "")
	if password != "" {
		pdf.SetProtection(fpdf.CnProtectPrint, password, "owner-"+password)
	}
	pdf.SetFont("Helvetica", "", 9)
	bal := int64(100000) // cents
	money := func(c int64) string {
		s := fmt.Sprintf("%d.%02d", abs64(c)/100, abs64(c)%100)
		if c < 0 {
			s = "-" + s
		}
		return s
	}
	right := func(x, y float64, s string) {
		pdf.Text(x-pdf.GetStringWidth(s), y, s)
	}
	n := 0
	for p := 0; p < pages; p++ {
		pdf.AddPage()
		y := 50.0
		if p == 0 {
			pdf.Text(40, y, "Example Bank   Statement period 01/01/2024 to 31/12/2024")
			y += 14
			pdf.Text(40, y, "Account number: 12-3456-7890   Currency: USD")
			y += 14
			pdf.Text(40, y, "Opening balance")
			right(200, y, money(bal))
			y += 24
		}
		pdf.Text(40, y, "Date")
		pdf.Text(100, y, "Description")
		pdf.Text(330, y, "Withdrawals")
		pdf.Text(420, y, "Deposits")
		pdf.Text(510, y, "Balance")
		y += 16
		for r := 0; r < 35; r++ {
			n++
			day := n%28 + 1
			month := (n/90)%12 + 1
			amt := int64(n*137%50000 + 100)
			in := n%4 == 0
			if in {
				bal += amt
			} else {
				bal -= amt
			}
			pdf.Text(40, y, fmt.Sprintf("%02d/%02d/2024", day, month))
			pdf.Text(100, y, fmt.Sprintf("PAYEE NUMBER %d", n))
			if in {
				right(470, y, money(amt))
			} else {
				right(380, y, money(amt))
			}
			right(560, y, money(bal))
			y += 12
			if n%3 == 0 {
				pdf.Text(100, y, "CARD 4921 XXXX 0021")
				y += 12
			}
		}
		pdf.Text(40, 760, fmt.Sprintf("Page %d of %d. Please check this statement carefully.", p+1, pages))
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), money(bal)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkConvertPage measures Convert on a 10-page text statement, per
// page. Compare with MuPDF's own text extraction of the same file:
//
//	PASSBOOK_BENCH_PDF=/tmp/stmt10.pdf go test -run '^$' -bench ConvertPage ./extract/engine/
//	hyperfine 'mutool draw -F stext -o /dev/null /tmp/stmt10.pdf'
func BenchmarkConvertPage(b *testing.B) {
	data, _ := statementPDF(b, 10, "")
	if path := os.Getenv("PASSBOOK_BENCH_PDF"); path != "" {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := New().Convert(data, extract.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Transactions) != 350 {
			b.Fatalf("got %d transactions, want 350", len(res.Transactions))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*10)/1000, "ms/page")
}

// BenchmarkWordsPage measures only the MuPDF walk that yields word boxes.
func BenchmarkWordsPage(b *testing.B) {
	data, _ := statementPDF(b, 10, "")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		doc, err := pdf.Open(data, "")
		if err != nil {
			b.Fatal(err)
		}
		for p := 0; p < doc.PageCount(); p++ {
			if _, err := doc.Words(p); err != nil {
				b.Fatal(err)
			}
		}
		doc.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*10)/1000, "ms/page")
}

// BenchmarkRenderPage draws the sample's page as the review shows it, in
// process.
func BenchmarkRenderPage(b *testing.B) {
	data, err := os.ReadFile("../../testdata/sample_statement.pdf")
	if err != nil {
		b.Fatal(err)
	}
	eng := New()
	for b.Loop() {
		r, err := eng.RenderPage(data, "", 1, 1000)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(r.PNG)))
	}
}

// BenchmarkIntegrity measures the integrity report's share of a text
// PDF's conversion (issue 44: at most 10%): "convert" is Convert, report
// included (its file read beside the words and rows: ScanFile);
// "unreported" is the same conversion without the report; "report" is
// integrity.Check alone on the same file, its words and its reading. The
// share of time is convert / unreported - 1, wall (ns/op) and CPU
// (cpu-ms/op); report / unreported is its CPU share. A file of another
// producer can be given:
//
//	PASSBOOK_BENCH_INTEGRITY=../../../shared/corpus/chromium/maple_ca_04.pdf go test -run '^$' -bench Integrity ./extract/engine/
func BenchmarkIntegrity(b *testing.B) {
	data, _ := statementPDF(b, 10, "")
	if path := os.Getenv("PASSBOOK_BENCH_INTEGRITY"); path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
	res, err := New().Convert(data, extract.Options{})
	if err != nil {
		b.Fatal(err)
	}
	doc, err := pdf.Open(data, "")
	if err != nil {
		b.Fatal(err)
	}
	var pages []source.Page
	for i := range doc.PageCount() {
		pg, err := doc.Words(i)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, pg)
	}
	doc.Close()
	// CPU time (getrusage) beside the wall time: on a shared machine the
	// wall time of either moves by 2x from one run to the next.
	b.Run("convert", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			if _, err := New().Convert(data, extract.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	b.Run("unreported", func(b *testing.B) {
		cpu := cpuTime()
		e := New()
		for b.Loop() {
			doc, _, err := e.pages(data, extract.Options{})
			if err != nil {
				b.Fatal(err)
			}
			extract.AnalyzeDocument(doc, nil)
		}
		b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	b.Run("report", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			if r := integrity.Check(integrity.Input{Data: data, Pages: pages, Result: res}); r.Profile == nil {
				b.Fatalf("no profile: %s", r.Summary)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
