package synth

// The world's other producers (issue 39 point 2): each prints the same
// laid-out statement (worldDoc) through a program of its own, so each
// PDF has its own kind of text layer: wkhtmltopdf (QtWebKit) prints the
// HTML Chromium prints; ReportLab (Python) and PDFKit (Node) draw the
// lines with their own fonts and line breaking; groff typesets them as
// troff; pdflatex as a longtable (worldlatex.go); Ghostscript turns hand-written PostScript into PDF. A statement
// a producer cannot print whole (a script its fonts lack) is left out and
// counted, never printed wrong: worldHeld checks that the PDF's text
// holds what the truth says it prints.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/gen2brain/go-fitz"
	"github.com/go-pdf/fpdf"
	"golang.org/x/text/unicode/norm"
)

// WorldProducers are the producers eval-world prints through: Producers
// and the world's own.
var WorldProducers = append(slices.Clone(Producers), "wkhtmltopdf", "reportlab", "pdfkit", "groff", "postscript", "latex")

// ErrUnprintable marks a statement a producer could not print whole.
var ErrUnprintable = errors.New("the producer cannot print the statement whole")

// docJSON is a laid-out statement as the ReportLab and PDFKit scripts
// read it.
type docJSON struct {
	Widths   []float64  `json:"widths"`
	Lines    []lineJSON `json:"lines"`
	Size     float64    `json:"size"`
	Regular  string     `json:"regular"`
	Bold     string     `json:"bold"`
	Script   string     `json:"script,omitempty"`
	Web      bool       `json:"web"`
	PageWord string     `json:"pageWord"`
	Bank     string     `json:"bank"`
}

type lineJSON struct {
	Cells     []cellJSON `json:"cells,omitempty"`
	Bold      bool       `json:"bold,omitempty"`
	Boxed     bool       `json:"boxed,omitempty"`
	Title     bool       `json:"title,omitempty"`
	Rule      bool       `json:"rule,omitempty"`
	Shade     bool       `json:"shade,omitempty"`
	PageBreak bool       `json:"pageBreak,omitempty"`
	Gap       float64    `json:"gap,omitempty"`
}

type cellJSON struct {
	Col    int    `json:"col"`
	Span   int    `json:"span"`
	Text   string `json:"text"`
	Right  bool   `json:"right,omitempty"`
	Script bool   `json:"script,omitempty"`
}

// json is the document for the scripts.
func (d *worldDoc) json() (docJSON, error) {
	face := worldFaces[d.st.face]
	reg, err := fontPath(face.regular)
	if err != nil {
		return docJSON{}, err
	}
	bold, err := fontPath(face.bold)
	if err != nil {
		return docJSON{}, err
	}
	out := docJSON{Widths: d.widths, Size: d.st.size, Regular: reg, Bold: bold, Script: scriptFaces[d.script], Web: d.web, PageWord: d.pageWord, Bank: d.bank}
	for _, l := range d.lines {
		jl := lineJSON{Bold: l.bold, Boxed: l.boxed, Title: l.title, Rule: l.rule, Shade: l.shade, PageBreak: l.pageBreak, Gap: l.gap}
		for _, c := range l.cells {
			jl.Cells = append(jl.Cells, cellJSON{c.col, c.span, c.text, c.right, d.script != "" && scriptOf(c.text) == d.script})
		}
		out.Lines = append(out.Lines, jl)
	}
	return out, nil
}

// printWorldWith prints every sample through one of the world's own
// producers, in a temporary directory: write makes each sample's source
// and returns the command that prints it (nil: the batch prints them
// all, run once by batch).
func printWorldWith(producer string, samples []WorldSample) ([]WorldSample, error) {
	dir, err := os.MkdirTemp("", "passbook-world-"+producer+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := func(i int) string { return filepath.Join(dir, fmt.Sprintf("w%d.pdf", i)) }
	var runErr error
	each := make([]error, len(samples)) // what printing each sample returned
	switch producer {
	case "reportlab", "pdfkit":
		type job struct {
			Doc docJSON `json:"doc"`
			Out string  `json:"out"`
		}
		var jobs []job
		for i, s := range samples {
			d, err := s.doc.json()
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, job{d, out(i)})
		}
		in, err := json.Marshal(jobs)
		if err != nil {
			return nil, err
		}
		var cmd *exec.Cmd
		if producer == "reportlab" {
			// Debian's python3, which holds python3-reportlab, whatever
			// python3 comes first on the path.
			cmd = exec.Command("/usr/bin/python3", "testdata/reportlab/print.py")
		} else {
			if _, err := os.Stat("testdata/pdfkit/node_modules/pdfkit"); err != nil {
				return nil, fmt.Errorf("pdfkit: %w (make test-deps runs npm ci in extract/synth/testdata/pdfkit)", err)
			}
			cmd = exec.Command("node", "testdata/pdfkit/print.js")
		}
		cmd.Stdin = bytes.NewReader(in)
		if b, err := cmd.CombinedOutput(); err != nil {
			runErr = fmt.Errorf("%s: %w: %s", producer, err, lastLines(b))
		}
	default:
		each = parallel(len(samples), func(_, i int) error {
			return printOne(producer, dir, i, samples[i].doc, out(i))
		})
	}
	var printed []WorldSample
	var errs []error
	for i, s := range samples {
		err := each[i]
		var pdf []byte
		if err == nil {
			pdf, err = os.ReadFile(out(i))
		}
		if err == nil {
			s, err = s.reprinted(producer, pdf, "")
		}
		if err == nil && !worldHeld(s) {
			err = ErrUnprintable
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s, err))
			continue
		}
		printed = append(printed, s)
	}
	if runErr != nil {
		return nil, runErr
	}
	return printed, errors.Join(errs...)
}

// worldTool is how one of the world's command-line producers prints a
// statement: the source it reads, the program and its arguments.
type worldTool struct {
	ext           string
	source        func(*worldDoc) (string, bool) // false: it cannot print the statement
	env, exe, deb string                         // toolPath's arguments
	args          func(src, dir, out string) []string
	stdout        bool     // the program writes the PDF to its standard output
	env2          []string // more of its environment
	cannot        string   // what its log says when it cannot print a letter
}

var worldTools = map[string]worldTool{
	"wkhtmltopdf": {ext: ".html", source: func(d *worldDoc) (string, bool) { return d.htmlDoc(), true }, env: "WKHTMLTOPDF", exe: "wkhtmltopdf", deb: "wkhtmltopdf",
		args: func(src, _, out string) []string {
			return []string{"--quiet", "--page-size", "A4", "--encoding", "utf-8", "-T", "15mm", "-B", "15mm", "-L", "15mm", "-R", "15mm", src, out}
		},
		env2: []string{"QT_QPA_PLATFORM=offscreen"}},
	"groff": {ext: ".tr", source: func(d *worldDoc) (string, bool) { return d.troff(), true }, env: "GROFF", exe: "groff", deb: "groff",
		args: func(src, _, _ string) []string { return []string{"-k", "-Tpdf", "-P-pa4", src} }, stdout: true},
	"latex": {ext: ".tex", source: func(d *worldDoc) (string, bool) { return d.latex(), true }, env: "PDFLATEX", exe: "pdflatex", deb: "texlive-latex-base",
		args: func(src, dir, _ string) []string {
			return []string{"-interaction=batchmode", "-halt-on-error", "-output-directory", dir, src}
		},
		cannot: "not set up for use with LaTeX"},
	"postscript": {ext: ".ps", source: (*worldDoc).postscript, env: "PS2PDF", exe: "ps2pdf", deb: "ghostscript",
		args: func(src, _, out string) []string { return []string{"-sPAPERSIZE=a4", src, out} }},
}

// printOne prints one statement through one of worldTools, into out.
func printOne(producer, dir string, i int, d *worldDoc, out string) error {
	tool, ok := worldTools[producer]
	if !ok {
		return fmt.Errorf("unknown producer %q (want one of %v)", producer, WorldProducers)
	}
	src := filepath.Join(dir, fmt.Sprintf("w%d%s", i, tool.ext))
	text, ok := tool.source(d)
	if !ok {
		return ErrUnprintable
	}
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		return err
	}
	exe, err := toolPath(tool.env, tool.exe, tool.deb)
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, tool.args(src, dir, out)...)
	cmd.Env = append(os.Environ(), tool.env2...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if tool.stdout {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		cmd.Stdout = f
	} else {
		cmd.Stdout = &stderr
	}
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(strings.TrimSuffix(src, tool.ext) + ".log")
		if tool.cannot != "" && strings.Contains(string(log), tool.cannot) {
			return ErrUnprintable // a letter its fonts lack stops it
		}
		return fmt.Errorf("%w: %s %s", err, lastLines(stderr.Bytes()), lastLines(log))
	}
	return nil
}

func lastLines(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-3):], " / ")
}

// psString is s as a PostScript string in the fonts' Latin-1 encoding;
// false when s holds a letter outside it.
func psString(s string) (string, bool) {
	var o strings.Builder
	ok := true
	o.WriteByte('(')
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			o.WriteByte('\\')
			o.WriteRune(r)
		case r == 0xa0 || r == 0x202f || r == 0x2009:
			o.WriteString(`\240`)
		case r < 0x80:
			o.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&o, `\%03o`, r)
		default:
			ok = false
		}
	}
	o.WriteByte(')')
	return o.String(), ok
}

// psShow is PostScript that shows s at the current point: runs of
// Latin-1 as strings, any other letter by its glyph's name (glyphshow),
// as a hand-written program reaches the fonts' other glyphs; false when
// a letter has no name here.
func psShow(s string) (string, bool) {
	var parts []string
	ok := true
	run := ""
	flush := func() {
		if run != "" {
			lit, _ := psString(run)
			parts = append(parts, lit+" show")
			run = ""
		}
	}
	for _, r := range s {
		if _, latin := psString(string(r)); latin {
			run += string(r)
			continue
		}
		name, named := glyphName(r)
		if !named {
			ok = false
			continue
		}
		flush()
		parts = append(parts, "/"+name+" glyphshow")
	}
	flush()
	return strings.Join(parts, " "), ok
}

// glyphName is the Adobe Glyph List's name of a letter outside Latin-1:
// a Latin letter and its accent (from the letter's canonical
// decomposition: "c" and a caron are "ccaron"), or one of a few others.
func glyphName(r rune) (string, bool) {
	if n, ok := map[rune]string{'ł': "lslash", 'Ł': "Lslash", 'đ': "dcroat", 'Đ': "Dcroat", 'ı': "dotlessi", '€': "Euro",
		'−': "minus", '–': "endash", '’': "quoteright", '‘': "quoteleft", '·': "periodcentered"}[r]; ok {
		return n, true
	}
	d := []rune(norm.NFD.String(string(r)))
	accents := map[rune]string{0x300: "grave", 0x301: "acute", 0x302: "circumflex", 0x303: "tilde", 0x304: "macron", 0x306: "breve",
		0x307: "dotaccent", 0x308: "dieresis", 0x30a: "ring", 0x30b: "hungarumlaut", 0x30c: "caron", 0x326: "commaaccent",
		0x327: "cedilla", 0x328: "ogonek"}
	if len(d) != 2 || d[0] > unicode.MaxASCII || !unicode.IsLetter(d[0]) || accents[d[1]] == "" {
		return "", false
	}
	return string(d[0]) + accents[d[1]], true
}

// worldHeld reports whether a printed statement's text layer holds every
// date, amount and balance the truth says it prints: what a producer
// whose fonts lack a script drops, it does not hold.
func worldHeld(s WorldSample) bool {
	doc, err := fitz.NewFromMemory(s.PDF)
	if err != nil {
		return false
	}
	defer doc.Close()
	var b strings.Builder
	for i := range doc.NumPage() {
		t, err := doc.Text(i)
		if err != nil {
			return false
		}
		b.WriteString(t)
		b.WriteString(" ")
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	p := s.Printed
	facts := append(append([]string{p.Opening, p.Closing}, p.Amounts...), p.Dates...)
	for _, tx := range s.Truth.Transactions {
		facts = append(facts, strings.Fields(tx.Description)...)
	}
	for _, f := range facts {
		f = strings.Join(strings.Fields(f), " ")
		if f != "" && !strings.Contains(text, f) && !strings.Contains(text, reverseRunes(f)) {
			return false
		}
	}
	return true
}

// reverseRunes is s from its end: MuPDF reads a run of Arabic-Indic
// digits right to left.
func reverseRunes(s string) string {
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}

// measurer measures text in one of fpdf's core fonts (Times for groff,
// Helvetica for PostScript: the widths their fonts have), for line
// breaking the producer does not do itself.
func measurer(family string, size float64) *fpdf.Fpdf {
	m := fpdf.New("P", "pt", "A4", "")
	m.SetFont(family, "", size)
	return m
}

// troff is the statement as a troff document, every cell at its column
// by an absolute horizontal motion, right-aligned cells by their width.
func (d *worldDoc) troff() string {
	size := d.st.size
	width := (worldPageW - 2*worldMargin) * 72 / 25.4
	xs := []float64{0}
	for _, w := range d.widths {
		xs = append(xs, xs[len(xs)-1]+w*width)
	}
	m := measurer("Times", size)
	var b strings.Builder
	fmt.Fprintf(&b, ".pl 29.7c\n.po 1.5c\n.ll %.1fp\n.nf\n.ps %.1f\n.vs %.1fp\n.de NP\n'bp\n'sp 1.5c\n..\n.wh -2.5c NP\n.sp 1.5c\n", width, size, size*1.4)
	esc := func(s string) string {
		s = strings.ReplaceAll(s, `\`, `\e`)
		// No-break spaces (grouping digits) as troff's unbreakable
		// space: the fonts have no glyph for U+202F.
		// And an apostrophe as one, not troff's right quote.
		s = strings.NewReplacer("\u00a0", `\ `, "\u202f", `\ `, "\u2009", `\ `, "'", `\(aq`).Replace(s)
		return `\&` + s
	}
	for _, l := range d.lines {
		if l.gap > 0 {
			fmt.Fprintf(&b, ".sp %.2fv\n", l.gap)
		}
		if l.pageBreak {
			b.WriteString(".bp\n.sp 1.5c\n")
			continue
		}
		if len(l.cells) == 0 {
			continue
		}
		font := "R"
		if l.bold {
			font = "B"
		}
		wrapped := make([][]string, len(l.cells))
		n := 1
		for i, c := range l.cells {
			wrapped[i] = wrapText(m.GetStringWidth, c.text, xs[c.col+c.span]-xs[c.col]-6)
			n = max(n, len(wrapped[i]))
		}
		fmt.Fprintf(&b, ".ne %dv\n.ft %s\n", n+1, font)
		for k := range n {
			for i, c := range l.cells {
				if k >= len(wrapped[i]) {
					continue
				}
				s := esc(wrapped[i][k])
				if c.right {
					fmt.Fprintf(&b, "\\h'|%.1fp-\\w@%s@u'%s", xs[c.col+c.span]-3, strings.ReplaceAll(s, "@", `\[at]`), s)
				} else {
					fmt.Fprintf(&b, "\\h'|%.1fp'%s", xs[c.col]+3, s)
				}
			}
			b.WriteString("\n")
		}
		if l.rule && !d.web {
			fmt.Fprintf(&b, "\\l'%.1fp'\n", width)
		}
	}
	return b.String()
}

// postscript is the statement as a hand-written PostScript program in
// the standard Helvetica, re-encoded to Latin-1; a statement with a
// letter outside Latin-1 it cannot print (false).
func (d *worldDoc) postscript() (string, bool) {
	size := d.st.size
	pw, ph := 595.0, 842.0
	margin := worldMargin * 72 / 25.4
	width := pw - 2*margin
	xs := []float64{margin}
	for _, w := range d.widths {
		xs = append(xs, xs[len(xs)-1]+w*width)
	}
	lh := size * 1.45
	m := measurer("Helvetica", size)
	var b strings.Builder
	b.WriteString("%!PS-Adobe-3.0\n%%Title: statement\n%%EndComments\n")
	b.WriteString("/re { findfont dup length dict begin { 1 index /FID ne { def } { pop pop } ifelse } forall /Encoding ISOLatin1Encoding 256 array copy dup 45 /hyphen put dup 39 /quotesingle put def currentdict end definefont pop } def\n")
	b.WriteString("/F /Helvetica re /FB /Helvetica-Bold re\n/R { /p exch def /yy exch def gsave nulldevice 0 0 moveto p currentpoint pop grestore sub yy moveto p } def\n")
	fmt.Fprintf(&b, "<< /PageSize [%.0f %.0f] >> setpagedevice\n", pw, ph)
	page := 1
	y := margin
	var bad bool
	str := func(s string) string {
		out, ok := psShow(s)
		bad = bad || !ok
		return out
	}
	footer := func() {
		fmt.Fprintf(&b, "/F findfont %.1f scalefont setfont %.1f 30 moveto %s showpage\n", size-1, pw/2-20, str(fmt.Sprintf("%s %d", d.pageWord, page)))
		page++
		y = margin
	}
	for _, l := range d.lines {
		y += l.gap * lh
		if l.pageBreak {
			footer()
			continue
		}
		if len(l.cells) == 0 {
			continue
		}
		s := size
		if l.title {
			s *= 1.5
		}
		wrapped := make([][]string, len(l.cells))
		n := 1
		for i, c := range l.cells {
			wrapped[i] = wrapText(m.GetStringWidth, c.text, xs[c.col+c.span]-xs[c.col]-6)
			n = max(n, len(wrapped[i]))
		}
		h := float64(n) * lh * s / size
		if y+h+lh > ph-20*72/25.4 {
			footer()
		}
		font := "F"
		if l.bold {
			font = "FB"
		}
		if l.shade {
			fmt.Fprintf(&b, "gsave 0.88 setgray %.1f %.1f %.1f %.1f rectfill grestore\n", xs[0], ph-y-h, xs[len(xs)-1]-xs[0], h)
		}
		fmt.Fprintf(&b, "/%s findfont %.1f scalefont setfont\n", font, s)
		for i, c := range l.cells {
			for k, t := range wrapped[i] {
				base := ph - (y + float64(k+1)*lh*s/size - lh*0.3)
				if c.right {
					// R measures the text by showing it on no device.
					fmt.Fprintf(&b, "%.1f %.1f { %s } R\n", xs[c.col+c.span]-3, base, str(t))
				} else {
					fmt.Fprintf(&b, "%.1f %.1f moveto %s\n", xs[c.col]+3, base, str(t))
				}
			}
			if l.boxed {
				fmt.Fprintf(&b, "0.5 setlinewidth %.1f %.1f %.1f %.1f rectstroke\n", xs[c.col], ph-y-h, xs[c.col+c.span]-xs[c.col], h)
			}
		}
		y += h
		if l.rule && !d.web {
			fmt.Fprintf(&b, "0.5 setlinewidth newpath %.1f %.1f moveto %.1f %.1f lineto stroke\n", xs[0], ph-y, xs[len(xs)-1], ph-y)
		}
	}
	footer()
	return b.String(), !bad
}
