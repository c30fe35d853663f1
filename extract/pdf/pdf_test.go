package pdf

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"passbook/extract/pdf/hostile"
	"passbook/extract/source"
)

// pageText is the text of a page's words, joined by spaces.
func pageText(t *testing.T, d *Doc, page int) string {
	t.Helper()
	pg, err := d.Words(page)
	if err != nil {
		t.Fatalf("page %d: %v", page+1, err)
	}
	var words []string
	for _, w := range pg.Words {
		words = append(words, w.Text)
	}
	return strings.Join(words, " ")
}

// TestPageCountWalksTree counts pages by the page tree, not by what its
// /Count claims, and every page counted loads, in order, with what it
// inherits from the tree.
func TestPageCountWalksTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pdf   []byte
		pages int
		// check maps a page (from 0) to the text it must show.
		check map[int]string
	}{
		{"true counts", hostile.PageTree(3, 3), 3, map[int]string{2: "Page 3 of the statement"}},
		{"1 page claiming 499", hostile.PageTree(1, 499), 1, map[int]string{0: "Page 1 of the statement"}},
		{"900 pages claiming 1", hostile.PageTree(900, 1), 900,
			map[int]string{0: "Page 1 of the statement", 450: "Page 451 of the statement", 899: "Page 900 of the statement"}},
		{"inner counts wrong, root right", hostile.Tree(map[string][]string{"root": {"a", "b"}, "a": {"1", "2"}, "b": {"3"}},
			map[string]int{"a": 7, "b": 0}, nil), 3, map[int]string{1: "Page 2 of the statement", 2: "Page 3 of the statement"}},
		{"a node that is its own descendant", hostile.Tree(map[string][]string{"root": {"1", "a"}, "a": {"2", "root"}}, nil, nil),
			2, map[int]string{1: "Page 2 of the statement"}},
		{"a font among the kids", hostile.Tree(map[string][]string{"root": {"1", "font", "2"}},
			map[string]int{"root": 3}, map[string]string{"font": "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"}),
			2, map[int]string{1: "Page 2 of the statement"}},
		{"a kid that is not there", hostile.Tree(map[string][]string{"root": {"1", "gone", "2"}},
			map[string]int{"root": 3}, map[string]string{"gone": "null"}), 2, map[int]string{1: "Page 2 of the statement"}},
		{"64 levels deep", hostile.DeepTree(64), 1, map[int]string{0: "Page 1 of the statement"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(tc.pdf, "")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if got := d.PageCount(); got != tc.pages {
				t.Fatalf("PageCount = %d, want %d", got, tc.pages)
			}
			for page, want := range tc.check {
				if got := pageText(t, d, page); got != want {
					t.Errorf("page %d reads %q, want %q", page+1, got, want)
				}
			}
			if _, err := d.Words(tc.pages); !errors.Is(err, source.ErrCorrupt) {
				t.Errorf("page %d of %d: %v, want ErrCorrupt", tc.pages+1, tc.pages, err)
			}
		})
	}
}

// TestPageTreeBounds refuses page trees built to make the walk itself
// expensive: too deep, or sharing subtrees until they name millions of
// pages.
func TestPageTreeBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		pdf  []byte
		want string
	}{
		{"65 levels deep", hostile.DeepTree(65), "more than 64 levels deep"},
		{"2^24 pages from 24 objects", hostile.WideDAG(24), "more than 100000 nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(tc.pdf, "")
			if err == nil {
				d.Close()
				t.Fatalf("opened, with %d pages", d.PageCount())
			}
			if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want ErrTooLarge saying %q", err, tc.want)
			}
		})
	}
}

// TestInflateCap: a PDF of a few KB whose page holds a gigabyte of spaces
// behind two Flate layers fails on that page with ErrTooLarge, having
// decoded no more than its caps allow; so does one whose catalog hides in
// an object stream behind a gigabyte, as it is opened. The same context
// then reads a good document.
func TestInflateCap(t *testing.T) {
	caps := DefaultCaps()
	bomb := hostile.FlateBomb(hostile.GiB)
	d, err := Open(bomb, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Words(0)
	inflated := d.Inflated()
	d.Close()
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), "content expands past 32 MB") {
		t.Errorf("page 1 of a %d-byte flate bomb: %v, want ErrTooLarge for the page's content", len(bomb), err)
	}
	if limit := caps.DocBase + caps.DocPerPage; inflated > limit {
		t.Errorf("decoded %d bytes, want at most the document's cap %d", inflated, limit)
	}

	probe := hostile.ProbeBomb(hostile.GiB)
	if d, err := Open(probe, ""); err == nil {
		d.Close()
		t.Errorf("opened a catalog behind a gigabyte")
	} else if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), "compressed stream expands past 128 MB") {
		t.Errorf("catalog behind a gigabyte: %v, want ErrTooLarge for a compressed stream", err)
	}

	d, err = Open(hostile.PageTree(2, 2), "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := pageText(t, d, 1); got != "Page 2 of the statement" {
		t.Errorf("a good document after the bombs reads %q", got)
	}
}

// TestDocumentCap: each page's content is within its caps, but together
// they pass the document's.
func TestDocumentCap(t *testing.T) {
	defer SetCaps(DefaultCaps())
	SetCaps(Caps{Stream: 1 << 20, Content: 1 << 20, DocBase: 3 << 20, DocPerPage: 0})
	var b hostile.Builder
	catalog := b.Reserve()
	root := b.Reserve()
	var kids []string
	for i := range 4 {
		content := b.AddStream("/Filter /FlateDecode", hostile.Spaces(fmt.Sprintf("BT /F1 24 Tf 72 700 Td (Page %d) Tj ET ", i+1), 900<<10, ""))
		kids = append(kids, fmt.Sprintf("%d 0 R", b.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", root, content))))
	}
	b.Set(root, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 4 /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>", strings.Join(kids, " ")))
	b.Set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", root))
	d, err := Open(b.PDF(catalog), "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := pageText(t, d, 0); got != "Page 1" {
		t.Errorf("page 1 reads %q", got)
	}
	var failed error
	for page := 1; page < 4 && failed == nil; page++ {
		_, failed = d.Words(page)
	}
	if !errors.Is(failed, source.ErrTooLarge) || !strings.Contains(failed.Error(), "the document expands past 3 MB") {
		t.Errorf("four pages of 1.8 MB decoded each against a 3 MB document cap: %v, want ErrTooLarge for the document", failed)
	}
}

// TestContextReuse: documents opened one after another share one MuPDF
// context; one that failed does not hand its context on.
func TestContextReuse(t *testing.T) {
	good := hostile.PageTree(2, 2)
	open := func() {
		d, err := Open(good, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := pageText(t, d, 1); got != "Page 2 of the statement" {
			t.Errorf("page 2 reads %q", got)
		}
		d.Close()
	}
	open()
	before := ContextsMade()
	for range 10 {
		open()
	}
	if made := ContextsMade() - before; made != 0 {
		t.Errorf("10 documents in turn built %d new contexts, want 0", made)
	}
	d, err := Open(hostile.FlateBomb(hostile.GiB), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Words(0); err == nil {
		t.Error("read a flate bomb's page")
	}
	d.Close()
	open()
	if made := ContextsMade() - before; made != 1 {
		t.Errorf("after a failed document, %d new contexts, want 1 (its context dropped)", made)
	}
}

// BenchmarkOpen opens and closes a 1-page document: the per-job cost of a
// worker's MuPDF context and document.
func BenchmarkOpen(b *testing.B) {
	data := hostile.PageTree(1, 1)
	for b.Loop() {
		d, err := Open(data, "")
		if err != nil {
			b.Fatal(err)
		}
		d.Close()
	}
}

// flatFontPDF draws text in a Type 3 font that declares no ascent or
// descent (a FontBBox of zeros) and whose glyphs draw nothing, as Figma's
// PDFs do (they draw the letters as paths apart): MuPDF gives its glyphs
// flat boxes.
func flatFontPDF(text string) []byte {
	var b hostile.Builder
	glyph := b.AddStream("", []byte("0.5 0 0.05 0 0.45 0.7 d1"))
	var widths []string
	for range 256 {
		widths = append(widths, "0.5")
	}
	font := b.Add(fmt.Sprintf(`<< /Type /Font /Subtype /Type3 /FontBBox [0 0 0 0] /FontMatrix [1 0 0 1 0 0]
/CharProcs << /g %d 0 R >> /Encoding << /Type /Encoding /Differences [32 /space 33 /g] >>
/FirstChar 0 /LastChar 255 /Widths [%s] /Resources << >> >>`, glyph, strings.Join(widths, " ")))
	content := b.AddStream("", []byte(fmt.Sprintf("BT 10 0 0 10 72 700 Tm /T3 1 Tf (%s) Tj ET", text)))
	pages := b.Reserve()
	page := b.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /T3 %d 0 R >> >> >>", pages, content, font))
	b.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	return b.PDF(b.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)))
}

// A font with no ascent or descent still gives words a height (from the
// font's size), so its lines are read.
func TestFlatGlyphsGetHeight(t *testing.T) {
	d, err := Open(flatFontPDF("Date Amount"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	pg, err := d.Words(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pg.Words) != 2 {
		t.Fatalf("got %d words (%+v), want 2", len(pg.Words), pg.Words)
	}
	for _, w := range pg.Words {
		if h := w.Y1 - w.Y0; h < 7 || h > 13 {
			t.Errorf("word %q is %.1f points tall, want about the font's 10", w.Text, h)
		}
		if w.Y0 < 80 || w.Y1 > 100 {
			t.Errorf("word %q spans y %.1f-%.1f, want it about the baseline at 92", w.Text, w.Y0, w.Y1)
		}
	}
}

// Created reads when the file says it was made: its XMP CreateDate first,
// else its Info dictionary's CreationDate.
func TestCreated(t *testing.T) {
	build := func(info, xmp string) []byte {
		if info != "" {
			info = fmt.Sprintf("/CreationDate (%s)", info)
		}
		return infoPDF(info, xmp)
	}
	for _, tc := range []struct {
		name, info, xmp, want string
	}{
		{"info", "D:20240115103000+01'00'", "", "2024-01-15"},
		{"xmp element", "", `<x:xmpmeta><rdf:Description><xmp:CreateDate>2023-07-01T10:00:00Z</xmp:CreateDate></rdf:Description></x:xmpmeta>`, "2023-07-01"},
		{"xmp attribute over info", "D:20240115", `<rdf:Description xmp:CreateDate="2022-12-31T23:00:00+01:00"/>`, "2022-12-31"},
		{"none", "", "", "0001-01-01"},
		{"not a date", "yesterday", "", "0001-01-01"},
	} {
		d, err := Open(build(tc.info, tc.xmp), "")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := d.Created().Format("2006-01-02"); got != tc.want {
			t.Errorf("%s: Created = %s, want %s", tc.name, got, tc.want)
		}
		d.Close()
	}
}

// A document whose producer or creator is recognition software is made by
// OCR; one made by an office suite or a browser is not.
func TestMadeByOCR(t *testing.T) {
	build := func(info string) []byte { return infoPDF(info, "") }
	for _, tc := range []struct {
		info string
		want bool
	}{
		{"/Producer (Adobe Acrobat Pro \\(64-bit\\) 23 Paper Capture Plug-in) /Creator (Adobe Acrobat 23.3)", true},
		{"/Producer (pikepdf 8.4.1) /Creator (ocrmypdf 15.4.0 / Tesseract OCR-PDF 5.3.0)", true},
		{"/Producer (LibreOffice 7.4) /Creator (Writer)", false},
		{"/Producer (Skia/PDF m120)", false},
		{"", false},
	} {
		d, err := Open(build(tc.info), "")
		if err != nil {
			t.Fatalf("%s: %v", tc.info, err)
		}
		if got := d.MadeByOCR(); got != tc.want {
			t.Errorf("%q: MadeByOCR = %v, want %v", tc.info, got, tc.want)
		}
		d.Close()
	}
}

// infoPDF is a one-page PDF with info in its Info dictionary ("" for none)
// and xmp as its metadata packet ("" for none).
func infoPDF(info, xmp string) []byte {
	var b hostile.Builder
	content := b.AddStream("", []byte("BT /F1 10 Tf 72 700 Td (Statement) Tj ET"))
	pages := b.Reserve()
	page := b.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>", pages, content))
	b.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	meta := ""
	if xmp != "" {
		meta = fmt.Sprintf("/Metadata %d 0 R", b.AddStream("/Type /Metadata /Subtype /XML", []byte(xmp)))
	}
	if info != "" {
		b.Trailer = fmt.Sprintf("/Info %d 0 R ", b.Add("<< "+info+" >>"))
	}
	return b.PDF(b.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R %s >>", pages, meta)))
}

// TestMaxPagesStopsTheWalk (issue 41, 9): with a page limit set, a
// document past it fails with source.ErrTooManyPages as soon as the walk
// finds the page past it; one within it opens with its true count.
func TestMaxPagesStopsTheWalk(t *testing.T) {
	SetMaxPages(50)
	defer SetMaxPages(0)
	if _, err := Open(hostile.PageTree(100000, 100000), ""); !errors.Is(err, source.ErrTooManyPages) {
		t.Errorf("100,000 pages past a limit of 50: %v, want ErrTooManyPages", err)
	}
	if _, err := Open(hostile.PageTree(51, 1), ""); !errors.Is(err, source.ErrTooManyPages) {
		t.Errorf("51 pages claiming 1 past a limit of 50: %v, want ErrTooManyPages", err)
	}
	d, err := Open(hostile.PageTree(50, 50), "")
	if err != nil {
		t.Fatalf("50 pages within a limit of 50: %v", err)
	}
	defer d.Close()
	if d.PageCount() != 50 {
		t.Errorf("PageCount = %d, want 50", d.PageCount())
	}
}
