// Package integrity reports signs, found in a statement's file itself,
// that it was altered after its bank made it: text changed in a later
// revision or after a signature, an editor's marks, an opaque box with new
// text typed over old, a text layer that says other figures than the glyphs
// drawn, a figure in a font or place its column does not use, a balance
// break that one changed figure explains, and the metadata of an editor.
//
// It is pure Go. The PDF's objects are read with pdfcpu (Apache-2.0),
// which keeps the report free of C (it can be fuzzed and tested without
// MuPDF, and a hostile file's worst is a recovered panic in the worker);
// the earlier revisions are read by cutting the file at each %%EOF of its
// cross-reference chain and reading that prefix. Objects are parsed only
// when the report asks for them (lazy.go). Content streams are run with
// extract/pdfcontent (content.go) for the glyphs, fonts and filled boxes
// they draw: MuPDF's text layer has no fonts and no fills. The file's part
// (ScanFile) needs no rows, and the engine runs it beside its reading.
// Rows and their boxes are the engine's reading (ledger.Result); the
// report never reads a statement again.
//
// Severity is earned: a signal is medium or high only where genuine files
// of the producers we test against (extract/integrity's tests and the
// shared corpus) do not show it. What banks and offices also do (save
// incrementally, print from a browser, re-save with qpdf or mutool) is
// info.
package integrity

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"passbook/extract/ledger"
	"passbook/extract/source"
)

// Codes of the signals.
const (
	CodeRevisionTextChanged = "revision_text_changed" // high: a later incremental update changed a page's text
	CodeRevisionTextAdded   = "revision_text_added"   // medium: a later incremental update added text to a page
	CodeSignedThenChanged   = "changed_after_signature"
	CodeTouchUp             = "touchup_textedit"   // high: Acrobat's text-edit marks
	CodeCoveringBox         = "covering_box"       // high: an opaque box over text, new text inside
	CodeHiddenText          = "hidden_text"        // low: an opaque box over text
	CodeToUnicode           = "tounicode_mismatch" // high: the text layer says other figures than the glyphs
	CodeBalanceOneFigure    = "balance_break_one_figure"
	CodeEditorMetadata      = "editor_metadata"
	CodeMetadataMismatch    = "metadata_mismatch"
	CodeFontOutlier         = "font_outlier"
	CodeMisaligned          = "cell_misaligned"
	CodePageMisfit          = "page_misfit"
	CodeDuplicateRow        = "duplicate_row"
	CodeIncremental         = "incremental_update"
	CodeModifiedLater       = "modified_after_creation"
	CodeUnreferenced        = "unreferenced_objects"
	CodeBrowserPrint        = "browser_print"
	CodeOfficeResave        = "office_resave"
	CodeUnread              = "structure_unread"
	CodeMonthDiffers        = ledger.CodeMonthDiffers // a folder's statement built unlike its neighbours (ledger.CompareMonths)
)

// Input is what the report reads: the file, the password that opens it,
// and the engine's reading of it.
type Input struct {
	Data     []byte
	Password string
	// Pages are the words the engine read, with their boxes.
	Pages []source.Page
	// Result is the engine's reading: rows with their pages and boxes.
	Result *ledger.Result
	// Scan is the file read already (ScanFile), or nil to read it here.
	Scan *Scan
}

// Scan is what the report reads of the file alone, before it knows the
// rows: its objects, and the glyphs, fills and marks its pages draw. The
// engine runs ScanFile while it reads the words and the rows, so that on
// a machine with a core to spare the report adds little to a conversion's
// time.
type Scan struct {
	f       *pdfFile
	content []pageContent
	err     error // why the file's structure could not be read
	panic   any   // what reading it panicked with, raised again in Check
}

// ScanFile reads data for the report; nil when data is no PDF.
func ScanFile(data []byte, password string) *Scan {
	return scanFile(data, password, false)
}

func scanFile(data []byte, password string, whole bool) (s *Scan) {
	if source.Sniff(data) != "pdf" {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			s = &Scan{panic: p}
		}
	}()
	s = &Scan{}
	if s.f, s.err = readPDF(data, password, whole); s.err != nil {
		s.f = nil
		return s
	}
	s.content = make([]pageContent, len(s.f.pages))
	for i, p := range s.f.pages {
		s.content[i] = s.f.readPage(p)
	}
	return s
}

// report gathers signals.
type report struct {
	signals []ledger.Signal
	whole   bool // read every object up front, as pdfcpu.Read does (tests compare)
}

func (r *report) add(code, severity string, page int, box *[4]float64, format string, args ...any) {
	r.signals = append(r.signals, ledger.Signal{Code: code, Severity: severity, Page: page, BBox: box, Evidence: fmt.Sprintf(format, args...)})
}

// Check makes the integrity report of a document. A file the report
// cannot follow fails the report, never the conversion: what was found
// stands, with a note.
func Check(in Input) (out *ledger.Integrity) {
	r := &report{}
	defer func() {
		if p := recover(); p != nil {
			r.add(CodeUnread, ledger.SeverityInfo, 0, nil, "the file's structure could not be read to the end (%v)", p)
			out = &ledger.Integrity{Signals: r.signals, Summary: Summary(r.signals)}
		}
	}()
	return r.check(in)
}

// check is Check without its recovery, for the fuzz test to see panics.
func (r *report) check(in Input) *ledger.Integrity {
	var prof *ledger.Profile
	sc := in.Scan
	if sc == nil {
		sc = scanFile(in.Data, in.Password, r.whole)
	}
	var f *pdfFile
	var content []pageContent
	if sc != nil {
		if sc.panic != nil {
			panic(sc.panic)
		}
		if sc.err != nil {
			r.add(CodeUnread, ledger.SeverityInfo, 0, nil, "the file's structure could not be read (%v): only its rows were examined", firstLine(sc.err.Error()))
		}
		f, content = sc.f, sc.content
	}
	var cells [nRoles][]cell
	if in.Result != nil {
		cells = findCells(in, content)
	}
	if f != nil {
		prof = r.structure(in, f, content, cells)
	}
	r.rows(in, content, cells)
	slices.SortStableFunc(r.signals, func(a, b ledger.Signal) int {
		return ledger.SeverityRank(b.Severity) - ledger.SeverityRank(a.Severity)
	})
	out := &ledger.Integrity{Signals: r.signals, Profile: prof}
	if out.Signals == nil {
		out.Signals = []ledger.Signal{}
	}
	out.Summary = Summary(out.Signals)
	return out
}

// Summary is the report in one line.
func Summary(signals []ledger.Signal) string {
	var strong []ledger.Signal
	for _, s := range signals {
		if ledger.SeverityRank(s.Severity) >= ledger.SeverityRank(ledger.SeverityMedium) {
			strong = append(strong, s)
		}
	}
	if len(strong) == 0 {
		if len(signals) == 0 {
			return "No sign of alteration found."
		}
		return fmt.Sprintf("No sign of alteration found (%d note%s on how the file was made).", len(signals), plural(len(signals)))
	}
	worst := strong[0]
	for _, s := range strong {
		if ledger.SeverityRank(s.Severity) > ledger.SeverityRank(worst.Severity) {
			worst = s
		}
	}
	where := "the file"
	if worst.Page > 0 {
		where = fmt.Sprintf("page %d", worst.Page)
	}
	return fmt.Sprintf("%d sign%s of alteration (%s on %s: %s).", len(strong), plural(len(strong)), worst.Severity, where, worst.Evidence)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// structure reads the file's revisions, metadata, fonts and contents.
func (r *report) structure(in Input, f *pdfFile, content []pageContent, cells [nRoles][]cell) *ledger.Profile {
	revs := revisions(in.Data)
	m := f.meta()
	r.metadata(m)
	for i := range content {
		if content[i].touchUp > 0 {
			r.add(CodeTouchUp, ledger.SeverityHigh, i+1, nil, "Acrobat's text-edit marks (/TouchUp_TextEdit) on this page: its text was edited in Acrobat")
		}
		r.coveringBoxes(i+1, content[i])
		r.fontLies(i+1, content[i], figurePlaces(in.Result, cells, i+1))
	}
	r.revisions(in, revs, f, content)
	if n := f.unreferenced(); n > 0 {
		r.add(CodeUnreferenced, ledger.SeverityInfo, 0, nil, "%d object%s that nothing refers to (left by an editor, or by a writer that saves loosely)", n, plural(n))
	}
	prof := &ledger.Profile{Producer: m.producer, Creator: m.creator, Version: f.x.VersionString(), Structure: structureName(in.Data, revs)}
	fonts := map[string]bool{}
	for _, c := range content {
		for _, g := range c.glyphs {
			if g.font.base != "" {
				fonts[g.font.base] = true
			}
		}
	}
	for k := range fonts {
		prof.Fonts = append(prof.Fonts, k)
	}
	slices.Sort(prof.Fonts)
	if len(f.pages) > 0 {
		b := f.pages[0].box
		prof.PageSize = fmt.Sprintf("%.0fx%.0f", b[2]-b[0], b[3]-b[1])
	}
	return prof
}

// figurePlaces are the boxes of page p's figures that the reading found,
// those of rows whose balance breaks first.
func figurePlaces(res *ledger.Result, cells [nRoles][]cell, p int) [][4]float64 {
	var broken, rest [][4]float64
	for _, cs := range cells {
		for _, c := range cs {
			if c.page != p {
				continue
			}
			if slices.ContainsFunc(res.Transactions[c.row].Warnings, func(w ledger.Warning) bool { return w.Kind == ledger.WarnBalanceBreak }) {
				broken = append(broken, c.box)
			} else {
				rest = append(rest, c.box)
			}
		}
	}
	return append(broken, rest...)
}

func structureName(data []byte, revs []revision) string {
	var parts []string
	if bytes.Contains(data, []byte("/XRefStm")) || bytes.Contains(data, []byte("/Type/XRef")) || bytes.Contains(data, []byte("/Type /XRef")) {
		parts = append(parts, "xref-stream")
	} else {
		parts = append(parts, "xref")
	}
	if linearized(data) {
		parts = append(parts, "linearized")
	}
	if len(revs) > 1 {
		parts = append(parts, "incremental")
	}
	return strings.Join(parts, " ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}

// Explain writes the report for `passbook extract --explain`: its summary
// on one line, then each signal with its severity, code, page and box.
func Explain(w io.Writer, r *ledger.Integrity) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "integrity: %s\n", r.Summary)
	for _, s := range r.Signals {
		where := "the file"
		if s.Page > 0 {
			where = fmt.Sprintf("page %d", s.Page)
			if s.BBox != nil {
				b := *s.BBox
				where += fmt.Sprintf(" at %.0f,%.0f-%.0f,%.0f", b[0], b[1], b[2], b[3])
			}
		}
		fmt.Fprintf(w, "  %s %s on %s: %s\n", s.Severity, s.Code, where, s.Evidence)
	}
}
