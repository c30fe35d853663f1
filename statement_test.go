package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"
)

var update = flag.Bool("update", false, "rewrite testdata/sample_statement.pdf")

// writeStatement writes a plain statement of the given pages, each with
// rows transactions: date, description, debit, credit, balance columns.
// It returns the closing balance.
func writeStatement(w io.Writer, pages, rows int) (decimal.Decimal, error) {
	return writeStatementProtected(w, pages, rows, "")
}

// writeStatementProtected is writeStatement encrypted with a user password
// when password is not empty.
func writeStatementProtected(w io.Writer, pages, rows int, password string) (decimal.Decimal, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	if password != "" {
		pdf.SetProtection(fpdf.CnProtectPrint, password, "owner-"+password)
	}
	pdf.SetCreationDate(time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC))
	pdf.SetCatalogSort(true)
	bal := decimal.RequireFromString("1000.00")
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for p := 1; p <= pages; p++ {
		pdf.AddPage()
		pdf.SetFont("Helvetica", "B", 14)
		pdf.Text(15, 20, "Sample Community Bank")
		pdf.SetFont("Helvetica", "", 9)
		pdf.Text(15, 27, "Account number: 12-3456-7890123   Statement period: 01/03/2024 to 31/03/2024   Currency: GBP")
		if p == 1 {
			pdf.Text(15, 33, "Opening balance 1,000.00")
		}
		y := 45.0
		pdf.SetFont("Helvetica", "B", 9)
		drawCells(pdf, y, []cell{{15, "Date", false}, {40, "Description", false}, {130, "Debit", true}, {160, "Credit", true}, {190, "Balance", true}})
		pdf.SetFont("Helvetica", "", 9)
		for r := 0; r < rows; r++ {
			n++
			y += 6
			amt := decimal.New(int64(1000+n*37%900), -2).Add(decimal.New(int64(n%7), 0))
			debit := n%3 != 0
			if debit {
				bal = bal.Sub(amt)
			} else {
				bal = bal.Add(amt)
			}
			d := day.AddDate(0, 0, (n-1)*28/(pages*rows))
			pdf.Text(15, y, d.Format("02/01/2006"))
			pdf.Text(40, y, fmt.Sprintf("PAYMENT %04d TO SHOP %d", n, n%13))
			col := 160.0
			if debit {
				col = 130
			}
			pdf.Text(col-pdf.GetStringWidth(amt.StringFixed(2)), y, amt.StringFixed(2))
			pdf.Text(190-pdf.GetStringWidth(bal.StringFixed(2)), y, bal.StringFixed(2))
		}
		pdf.Text(15, 285, fmt.Sprintf("Page %d of %d", p, pages))
	}
	return bal, pdf.Output(w)
}

// cell is a text a statement prints at x (mm), or ending at x when right.
type cell struct {
	x     float64
	t     string
	right bool
}

// drawCells prints cells on the line at y.
func drawCells(pdf *fpdf.Fpdf, y float64, cells []cell) {
	for _, c := range cells {
		x := c.x
		if c.right {
			x -= pdf.GetStringWidth(c.t)
		}
		pdf.Text(x, y, c.t)
	}
}

// TestSampleStatementIsCurrent keeps the statements other packages' tests
// read: a one-page sample and the same encrypted with the password s3cret.
func TestSampleStatementIsCurrent(t *testing.T) {
	for path, password := range map[string]string{
		"testdata/sample_statement.pdf":    "",
		"testdata/encrypted_statement.pdf": "s3cret",
	} {
		if *update {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := writeStatementProtected(f, 1, 8, password); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%v (run go test -run TestSampleStatementIsCurrent -update)", err)
		}
	}
}
