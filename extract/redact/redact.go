// Package redact makes a copy of a statement that reads as the original
// does and shows nothing of its client, for reporting a layout the
// converter reads wrong. A scan's or a photo's copy is made on its page
// images (images.go); what follows is a text PDF's.
//
// The copy is the original's own pages, rewritten in place: every word
// the reading does not rely on (descriptions, names, addresses, account
// and card numbers, references, telephone numbers) is replaced letter
// for letter, digit for digit, with the same case and script, by glyphs
// the embedded font already draws, each put back where the original's
// stood; amounts and balances are the original's times one factor
// chosen at random for each copy, drawn in the figure's own style with
// its right edge kept (in Helvetica, at the figure's size, where no font
// of the page holds a digit it needs); dates, headings, column labels, the lexicon's
// words and the bank's name stay. What to replace comes from the
// engine's own reading: its words, lines and tokens (extract/layout)
// and its rows (Result). Metadata, revisions, annotations, attachments,
// scripts, thumbnails and the structure tree are dropped, pictures but
// a logo are painted over, and one revision is written.
//
// Nothing is written unless the copy, read again, gives the same rows
// (amounts times the factor), the same boxes within a point and the same
// status, and none of the original's replaced words remains anywhere in
// its bytes, its decoded streams or its text; otherwise Copy refuses
// with an error that says what could not be made safe.
//
// The PDF's objects are read with pdfcpu (pure Go, Apache-2.0): its
// parser, decryption, object model and stream filters carry the rewrite,
// which keeps the package free of cgo. The content streams are
// interpreted here, because a rewrite must know where each glyph stands
// to match it to the reading's words; and the copy is written here, by
// walking every reference from the catalog (pdfcpu's own writer left out
// objects it did not know the kind of). MuPDF, which the engine links,
// could filter text operators but only remove glyphs, not replace them;
// the reading (the caller's Reader) still runs on MuPDF.
package redact

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	mrand "math/rand/v2"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/fault"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/shopspring/decimal"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/source"
)

// Reading is a document's words and the engine's reading of them.
type Reading struct {
	Doc    extract.Document
	Result *ledger.Result
	// Images are the recognised pages' images, as recognition read them
	// (ocr.ReadPrepared), their words' boxes in their pixels; nil for a
	// page read from its text layer.
	Images []*image.Gray
}

// Reader reads a PDF as the engine does (extract/engine, in the caller's
// process or a worker's).
type Reader func(pdf []byte, password string) (Reading, error)

// Options tune one copy.
type Options struct {
	Password string
	// Seed, when not zero, makes the factor and the replacements
	// repeatable (tests); otherwise they are drawn from crypto/rand.
	Seed uint64
	// Version is the converter's, for the sidecar.
	Version string
	// ShiftWeeks, when not 0, moves every date by that many weeks.
	ShiftWeeks int
}

// Sidecar is what the copy should read, for whoever receives it: nothing
// of the original.
type Sidecar struct {
	ConverterVersion string  `json:"converter_version"`
	Rows             int     `json:"rows"`
	OpeningBalance   *string `json:"opening_balance"`
	ClosingBalance   *string `json:"closing_balance"`
	Reconciliation   string  `json:"reconciliation"`
	// Failure is the reading's own account of where its arithmetic
	// breaks, as the copy's reading gives it; "" when it holds.
	Failure string   `json:"failure,omitempty"`
	Pages   int      `json:"pages"`
	Removed []string `json:"removed"`
	// ImagesPainted counts the pictures painted over (all but a logo at
	// the top of a page).
	ImagesPainted int `json:"images_painted"`
	// Scan is true for the copy of a scan or photo, which Fidelity
	// says is less faithful; LowConfidence says what became of the
	// words recognised at low confidence.
	Scan          bool   `json:"scan,omitempty"`
	Fidelity      string `json:"fidelity,omitempty"`
	LowConfidence string `json:"low_confidence,omitempty"`
}

// ErrRefused is what every RefusedError is (errors.Is), across a
// worker's process boundary too.
var ErrRefused = errors.New("no copy written")

// RefusedError says why no copy was written.
type RefusedError struct {
	Reason string
	leak   bool // the copy would have held a word of the original's
}

func (e *RefusedError) Error() string { return "no copy written: " + e.Reason }

// Unwrap makes a RefusedError an ErrRefused, and errLeak when it is one.
func (e *RefusedError) Unwrap() []error {
	if e.leak {
		return []error{ErrRefused, errLeak}
	}
	return []error{ErrRefused}
}

// errLeak is a refusal for a word of the original's the copy held.
var errLeak = errors.New("the copy would hold a word of the original's")

func refuse(format string, a ...any) error { return &RefusedError{Reason: fmt.Sprintf(format, a...)} }

// redactor is one copy in the making.
type redactor struct {
	ctx     *model.Context
	in      *interp
	painted int // images painted over
}

// factorTries bounds the factors tried in turn until one draws with the
// fonts' digits; checkTries, the copies made and checked.
const (
	factorTries = 8
	checkTries  = 3
)

// imageTries bounds the copies of a scan made and checked: one more
// than a text copy's, since a copy whose redrawn words recognition read
// in doubt is drawn again with other letters.
const imageTries = checkTries + 1

// ReadsAtMost is how many readings a copy takes at most: the original's
// and each checked copy's (a scan's each a recognition), for a worker's
// time budget.
const ReadsAtMost = 1 + imageTries

// Copy makes the copy of a statement (a text PDF, a scan or a photo)
// and its sidecar.
func Copy(data []byte, read Reader, opts Options) ([]byte, Sidecar, error) {
	if source.Sniff(data) == "" {
		return nil, Sidecar{}, source.ErrUnsupported
	}
	orig, err := read(data, opts.Password)
	if err != nil {
		return nil, Sidecar{}, err
	}
	// A scan or a photo, every page recognised from its pixels: copied
	// as images (images.go). A PDF with text pages too is copied as
	// text, its scanned pages' pictures painted over (clean.go): the
	// check refuses it when they held rows.
	scan := len(orig.Doc.Pages) > 0 && len(orig.Images) == len(orig.Doc.Pages) && !slices.Contains(orig.Images, nil)
	if !scan && source.Sniff(data) != "pdf" {
		return nil, Sidecar{}, refuse("no page of the picture could be recognised: it is too small to hold a line of print")
	}
	if scan && opts.ShiftWeeks != 0 {
		return nil, Sidecar{}, refuse("the dates of a scan or a photo stay as printed: copy it without --shift-weeks")
	}
	seed := opts.Seed
	if seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	rnd := mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	if scan {
		out, side, err := copyImages(orig, read, rnd)
		if err != nil {
			return nil, Sidecar{}, err
		}
		side.ConverterVersion = opts.Version
		return out, side, nil
	}
	var lastErr error
	checks := 0
	for try := 0; try < factorTries; try++ {
		// Between 1.1 and 1.9: never 1, and above 1 so that a cent
		// stays a cent and no amount rounds to nothing.
		factor := drawFactor(rnd)
		if checks > 0 {
			// A copy read otherwise: most often a figure that grew a
			// digit into its neighbour or its label. The next draws
			// prefer a factor that changes fewer figures' lengths.
			factor = steadyFactor(rnd, orig.Result)
		}
		out, want, err := build(data, orig, factor, rnd, opts)
		if err != nil {
			var fe *fontError
			if errors.As(err, &fe) {
				lastErr = err
				continue
			}
			return nil, Sidecar{}, err
		}
		side, err := check(out, orig, want, read)
		if err != nil {
			// Another factor and other letters may read as they should
			// (a figure that grew a digit into its neighbour, a word
			// that happened to read as a heading): a few more draws,
			// each checked whole, before refusing.
			if checks++; checks < checkTries {
				lastErr = err
				continue
			}
			return nil, Sidecar{}, err
		}
		side.ConverterVersion = opts.Version
		return out, side, nil
	}
	var re *RefusedError
	if errors.As(lastErr, &re) {
		return nil, Sidecar{}, lastErr
	}
	return nil, Sidecar{}, refuse("%v", lastErr)
}

// drawFactor is a factor between 1.1 and 1.9, to the thousandth.
func drawFactor(rnd *mrand.Rand) decimal.Decimal {
	return decimal.NewFromInt(int64(1100 + rnd.IntN(800))).Shift(-3)
}

// steadyDraws is how many factors steadyFactor chooses among.
const steadyDraws = 16

// steadyFactor is, of a few factors drawn at random, the one that gives
// the fewest of the reading's figures (amounts, balances, opening,
// closing, totals) another number of digits before the mark.
func steadyFactor(rnd *mrand.Rand, res *ledger.Result) decimal.Decimal {
	var figs []decimal.Decimal
	add := func(d *decimal.Decimal) {
		if d != nil && !d.IsZero() {
			figs = append(figs, d.Abs())
		}
	}
	for _, t := range res.Transactions {
		add(t.AmountIn)
		add(t.AmountOut)
		if !t.Provenance.BalanceComputed && !t.Provenance.BalanceFromZero {
			b := t.Balance
			add(&b)
		}
	}
	st := res.Statement
	for _, d := range []*decimal.Decimal{st.OpeningBalance, st.ClosingBalance, st.TotalIn, st.TotalOut} {
		add(d)
	}
	for _, a := range st.Accounts {
		add(a.OpeningBalance)
		add(a.ClosingBalance)
	}
	digits := func(d decimal.Decimal) int { return len(d.Truncate(0).String()) }
	var best decimal.Decimal
	bestN := -1
	for range steadyDraws {
		f := drawFactor(rnd)
		n := 0
		for _, x := range figs {
			if digits(x) != digits(x.Mul(f)) {
				n++
			}
		}
		if bestN < 0 || n < bestN {
			best, bestN = f, n
		}
	}
	return best
}

// fontError is a figure a font cannot draw: another factor may.
type fontError struct{ msg string }

func (e *fontError) Error() string { return e.msg }

// expected is what the copy must read.
type expected struct {
	rows     []ledger.Transaction
	named    map[string]decimal.Decimal
	personal []string
	painted  int
	// recognised: a scan's copy, recognised again; its rows' boxes move
	// with the recognition of redrawn words and are not compared.
	recognised bool
}

// build rewrites the document with one factor.
func build(data []byte, orig Reading, factor decimal.Decimal, rnd *mrand.Rand, opts Options) ([]byte, expected, error) {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.UserPW, conf.OwnerPW = opts.Password, opts.Password
	ctx, err := readObjects(bytes.NewReader(data), conf)
	if err != nil {
		return nil, expected{}, refuse("the PDF's objects cannot be read: %v", err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return nil, expected{}, refuse("the PDF's page tree cannot be read: %v", err)
	}
	if ctx.PageCount != len(orig.Doc.Pages) {
		return nil, expected{}, refuse("the PDF's page tree holds %d pages where the reading found %d", ctx.PageCount, len(orig.Doc.Pages))
	}
	r := &redactor{ctx: ctx, in: &interp{fc: &fontCache{ctx: ctx, fonts: map[string]*font{}}, streams: map[string]*stream{}}}
	var pageDicts []types.Dict
	var pageStreams []*stream
	var sizes [][2]float64
	for pn := 1; pn <= ctx.PageCount; pn++ {
		d, _, inh, err := ctx.PageDict(pn, false)
		if err != nil || d == nil {
			return nil, expected{}, refuse("page %d cannot be read: %v", pn, err)
		}
		content, err := ctx.PageContent(d, pn)
		if err != nil && !errors.Is(err, model.ErrNoContent) {
			return nil, expected{}, refuse("page %d's content cannot be decoded: %v", pn, err)
		}
		ops, err := parseOps(content)
		if err != nil {
			return nil, expected{}, refuse("page %d's content cannot be parsed: %v", pn, err)
		}
		s := &stream{key: fmt.Sprintf("page %d", pn), data: content, ops: ops, page: pn - 1}
		res := inh.Resources
		if res == nil {
			res = types.Dict{}
		}
		pm, w, h := r.pageMatrix(d, inh)
		sizes = append(sizes, [2]float64{w, h})
		if err := r.in.run(s, res, identity, pm, pn-1); err != nil {
			return nil, expected{}, refuse("page %d: %v", pn, err)
		}
		pageDicts = append(pageDicts, d)
		pageStreams = append(pageStreams, s)
	}
	p := &planner{pages: orig.Doc.Pages, res: orig.Result, factor: factor, rnd: rnd, glyphs: r.in.glyphs,
		groupSep: groupSep(orig), fc: r.in.fc}
	p.keep, p.heads = keptWords(bankName(orig))
	if opts.ShiftWeeks != 0 {
		p.shift = &dateShift{days: 7 * opts.ShiftWeeks}
	}
	if err := p.plan(); err != nil {
		return nil, expected{}, err
	}
	for f := range p.alpha {
		if f.err != nil && p.fontEdited(f) {
			return nil, expected{}, refuse("%v", f.err)
		}
	}
	fonts := map[opKey]*font{}
	for _, g := range r.in.glyphs {
		fonts[opKey{g.s, g.op}] = g.f
	}
	for i, s := range pageStreams {
		if p.resAdded[s] {
			// The page's resources (inherited ones gathered), with the
			// standard font a figure borrows.
			pageDicts[i].Update("Resources", s.res)
		}
		if err := r.setContent(pageDicts[i], rewrite(s, p.edits, fonts)); err != nil {
			return nil, expected{}, refuse("page %d: %v", i+1, err)
		}
	}
	for _, s := range r.in.order {
		if err := r.setForm(s, rewrite(s, p.edits, fonts)); err != nil {
			return nil, expected{}, refuse("%v", err)
		}
	}
	r.paintImages(sizes)
	if err := r.clean(pageDicts, pageStreams); err != nil {
		return nil, expected{}, err
	}
	out, err := r.write()
	if err != nil {
		return nil, expected{}, refuse("the copy cannot be written: %v", err)
	}
	return out, expected{rows: p.want, named: p.named, personal: p.personal, painted: r.painted}, nil
}

// bankName is the bank's name the reading found, to keep as printed;
// "" when it found it in the file's Author or Title, which name the
// client as often as the bank.
func bankName(orig Reading) string {
	bank := orig.Result.Statement.Bank
	m := orig.Doc.Meta
	if bank == "" || strings.Contains(m.Author, bank) || strings.Contains(m.Title, bank) {
		return ""
	}
	return bank
}

// fontEdited reports a font some glyph of which the plan changes.
func (p *planner) fontEdited(f *font) bool {
	for _, g := range p.glyphs {
		if g.f == f {
			if _, ok := p.edits[keyOf(g)]; ok {
				return true
			}
		}
	}
	return false
}

// groupSep is the thousands separator the statement's figures print,
// for a figure that grows past a thousand: 0 when none does.
func groupSep(orig Reading) rune {
	count := map[rune]int{}
	for _, pg := range orig.Doc.Pages {
		for _, w := range pg.Words {
			rs := []rune(w.Text)
			for i := 1; i+3 < len(rs); i++ {
				if (rs[i] == ',' || rs[i] == '.' || rs[i] == '\'') && isDigits(rs[i-1:i]) && isDigits(rs[i+1:i+4]) && (i+4 == len(rs) || !isDigit(rs[i+4])) && i+4 < len(rs) {
					count[rs[i]]++
				}
			}
		}
	}
	best, n := rune(0), 0
	for r, c := range count {
		if c > n {
			best, n = r, c
		}
	}
	return best
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isDigits(rs []rune) bool {
	for _, r := range rs {
		if !isDigit(r) {
			return false
		}
	}
	return true
}

// pageMatrix maps a page's user space to points from its top-left
// corner, as the engine's words are placed (its crop box, rotated), and
// gives the page's width and height as shown.
func (r *redactor) pageMatrix(d types.Dict, inh *model.InheritedPageAttrs) (matrix, float64, float64) {
	box := inh.MediaBox
	if cb := r.rect(d, "CropBox"); cb != nil {
		box = cb
	} else if mb := r.rect(d, "MediaBox"); mb != nil {
		box = mb
	} else if inh.CropBox != nil {
		box = inh.CropBox
	}
	if box == nil {
		box = types.NewRectangle(0, 0, 612, 792)
	}
	x0, y0, x1, y1 := box.LL.X, box.LL.Y, box.UR.X, box.UR.Y
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	m := matrix{1, 0, 0, -1, -x0, y1}
	w, h := x1-x0, y1-y0
	rot := inh.Rotate
	if v := d.IntEntry("Rotate"); v != nil {
		rot = *v
	}
	switch ((rot % 360) + 360) % 360 {
	case 90:
		return m.Mul(matrix{0, 1, -1, 0, h, 0}), h, w
	case 180:
		return m.Mul(matrix{-1, 0, 0, -1, w, h}), w, h
	case 270:
		return m.Mul(matrix{0, -1, 1, 0, 0, w}), h, w
	}
	return m, w, h
}

func (r *redactor) rect(d types.Dict, key string) *types.Rectangle {
	a, err := r.ctx.DereferenceArray(d[key])
	if err != nil || len(a) != 4 {
		return nil
	}
	var v [4]float64
	for i := range v {
		v[i], _ = r.ctx.DereferenceNumber(a[i])
	}
	return types.NewRectangle(v[0], v[1], v[2], v[3])
}

// joinNames is a list for a person: "a, b and c".
func joinNames(ns []string) string {
	if len(ns) <= 1 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// readObjects reads a PDF's objects as pdfcpu's api.ReadContext does
// (its panics become errors), without importing pdfcpu's api package:
// that package pulls in its form filling and with it go-runewidth, whose
// package init fills 2.2 MB of width tables, about 20 ms at every start
// of the binary, for nothing redact uses.
func readObjects(rs io.ReadSeeker, conf *model.Configuration) (ctx *model.Context, err error) {
	defer fault.Catch(&err)
	return pdfcpu.Read(rs, conf)
}
