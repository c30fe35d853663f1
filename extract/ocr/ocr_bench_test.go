package ocr

import (
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Benchmarks of OCR on one statement page rendered at the PDF render
// resolution (benchDPI, extract/engine's), against the tesseract command on the same pixels.
// Run them with OMP_THREAD_LIMIT=1 in the environment, as the worker runs:
//
//	OMP_THREAD_LIMIT=1 go test ./extract/ocr -run '^$' -bench 'OCR|TesseractCLI' -benchtime 5x

// BenchmarkOCRPage is the whole per-page cost: clean-up (crop, contrast,
// orientation, deskew) and recognition, the model already loaded.
// benchDPI is the resolution extract/engine renders PDF pages at for OCR.
const benchDPI = 200

func BenchmarkOCRPage(b *testing.B) { benchRead(b, "en_signed_amount") }

// benchRead times Read on a fixture's first page, its models loaded first.
func benchRead(b *testing.B, fixture string) {
	g, _ := renderFixture(b, fixture, benchDPI)
	if _, err := Read(g, benchDPI, 1); err != nil { // load the models outside the timing
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(g, benchDPI, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOCRPrepare is the clean-up alone.
func BenchmarkOCRPrepare(b *testing.B) {
	g, _ := renderFixture(b, "en_signed_amount", benchDPI)
	for b.Loop() {
		preparePage(g, benchDPI)
	}
}

// BenchmarkTesseractCLI runs the tesseract command on the same page as a PGM
// file, at the same resolution and page segmentation mode, with
// OMP_THREAD_LIMIT=1. It includes the command's start-up and model load,
// which BenchmarkTesseractCLIEmpty measures alone.
func BenchmarkTesseractCLI(b *testing.B) {
	g, _ := renderFixture(b, "en_signed_amount", benchDPI)
	benchCLI(b, g)
}

// BenchmarkTesseractCLIEmpty is the command's fixed cost: a blank 32x32 image.
func BenchmarkTesseractCLIEmpty(b *testing.B) {
	g := image.NewGray(image.Rect(0, 0, 32, 32))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	benchCLI(b, g)
}

func benchCLI(b *testing.B, g *image.Gray) {
	b.Helper()
	bin, err := exec.LookPath("tesseract")
	if err != nil {
		b.Fatalf("the tesseract command is needed for this comparison (Debian: tesseract-ocr): %v", err)
	}
	dir := b.TempDir()
	img := filepath.Join(dir, "page.pgm")
	if err := os.WriteFile(img, encodePGM(g), 0o600); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command(bin, img, filepath.Join(dir, "out"), "--dpi", "200", "--psm", "11", "tsv")
		cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("tesseract: %v: %s", err, out)
		}
	}
}

// BenchmarkOCRPageFrench is the whole per-page cost of a page in a language
// of the lexicon other than English: the English reading, and the reading
// again with the language's model beside English.
func BenchmarkOCRPageFrench(b *testing.B) { benchRead(b, "fr_debit_credit") }

// BenchmarkCost300 is the cost comparison: a page of 300 dpi in
// English, French and Greek, read by Read (every pass) and by the
// tesseract command in one pass with the page's languages, each
// reporting the CPU it used (cpu-ms/op: the process's user and system
// time, the command's start-up and model load included), which the
// machine's other load does not inflate as it does the wall time:
//
//	OMP_THREAD_LIMIT=1 go test ./extract/ocr -run '^$' -bench Cost300 -benchtime 3x
func BenchmarkCost300(b *testing.B) {
	pages := []struct{ name, pdf, langs string }{
		{"english", filepath.Join("..", "..", "testdata", "statements", "en_signed_amount.pdf"), "eng"},
		{"french", filepath.Join("..", "..", "testdata", "statements", "fr_debit_credit.pdf"), "eng+fra"},
		{"greek", filepath.Join("testdata", "scripts", "greek.pdf"), "ell+eng"},
	}
	for _, p := range pages {
		data, err := os.ReadFile(p.pdf)
		if err != nil {
			b.Fatal(err)
		}
		g, _ := renderPDF(b, data, 300)
		b.Run(p.name+"/passbook", func(b *testing.B) {
			if _, err := Read(g, 300, 1); err != nil { // models loaded outside the count
				b.Fatal(err)
			}
			t0 := processCPU()
			for b.Loop() {
				if _, err := Read(g, 300, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU()-t0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
		b.Run(p.name+"/tesseract", func(b *testing.B) {
			bin, err := exec.LookPath("tesseract")
			if err != nil {
				b.Fatalf("the tesseract command is needed for this comparison (Debian: tesseract-ocr): %v", err)
			}
			dir := b.TempDir()
			img := filepath.Join(dir, "page.pgm")
			if err := os.WriteFile(img, encodePGM(g), 0o600); err != nil {
				b.Fatal(err)
			}
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, img, filepath.Join(dir, "out"), "--dpi", "300", "--psm", "11", "-l", p.langs, "tsv")
				cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1", "TESSDATA_PREFIX="+tessdataDir(b, p.langs))
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("tesseract: %v: %s", err, out)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// tessdataDir writes the embedded models of langs to a directory the
// tesseract command reads them from, the same models Read uses.
func tessdataDir(b *testing.B, langs string) string {
	dir, err := installModels(b.TempDir(), strings.Split(langs, "+"))
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// processCPU is the user and system time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
