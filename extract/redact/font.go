package redact

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	pdffont "github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"golang.org/x/text/encoding/charmap"

	"passbook/extract/pdfcontent"
)

// font is what a rewrite needs of one of a document's fonts: how a
// string splits into codes, what each code reads as, and how far it
// moves the pen.
type font struct {
	id     string // the font's object, or its resource when direct
	name   string
	simple bool  // one byte a code
	ranges []csr // a Type0 font's code space
	uni    map[uint32]rune
	widths map[uint32]float64 // glyph space, thousandths of text space
	dw     float64
	scale  float64 // a Type3 font's FontMatrix, in thousandths
	core   string  // a standard font drawn with its built-in metrics
	err    error   // why the font cannot be rewritten (codes still split)
	// embedded: the file carries the font's program, which may hold only
	// the glyphs the document draws.
	embedded bool
}

// csr is one range of a CMap's code space: codes of n bytes from lo to hi.
type csr struct {
	n      int
	lo, hi uint32
}

// code is one character code of a string.
type code struct {
	v   uint32
	at  int // its first byte in the string
	len int
}

// split cuts a shown string into its codes.
func (f *font) split(s []byte) []code {
	var out []code
	for i := 0; i < len(s); {
		n := 1
		if !f.simple {
			n = f.codeLen(s[i:])
		}
		if i+n > len(s) {
			n = len(s) - i
		}
		var v uint32
		for _, b := range s[i : i+n] {
			v = v<<8 | uint32(b)
		}
		out = append(out, code{v: v, at: i, len: n})
		i += n
	}
	return out
}

func (f *font) codeLen(s []byte) int {
	if len(f.ranges) == 0 {
		return 2
	}
	for n := 1; n <= 4 && n <= len(s); n++ {
		var v uint32
		for _, b := range s[:n] {
			v = v<<8 | uint32(b)
		}
		for _, r := range f.ranges {
			if r.n == n && v >= r.lo && v <= r.hi {
				return n
			}
		}
	}
	return 1
}

// width is how far a code moves the pen, in thousandths of text space.
func (f *font) width(c uint32) float64 {
	if w, ok := f.widths[c]; ok {
		return w * f.scale
	}
	if f.core != "" {
		if r, ok := f.uni[c]; ok {
			// The core fonts' metrics are by WinAnsi code, not by
			// Unicode: a right quote (U+2019) is code 146.
			if b, ok := charmap.Windows1252.EncodeRune(r); ok && f.core != "Symbol" && f.core != "ZapfDingbats" {
				r = rune(b)
			}
			if w, err := pdffont.CharWidth(f.core, r); err == nil {
				return float64(w)
			}
		}
	}
	return f.dw * f.scale
}

// encode is the bytes that show code v.
func (f *font) encode(c code, v uint32) []byte {
	out := make([]byte, c.len)
	for i := c.len - 1; i >= 0; i-- {
		out[i] = byte(v)
		v >>= 8
	}
	return out
}

// fontCache loads each font once.
type fontCache struct {
	ctx   *model.Context
	fonts map[string]*font
}

// load reads the font a resource dictionary names.
func (fc *fontCache) load(res types.Dict, name string) (*font, error) {
	fonts, err := fc.ctx.DereferenceDict(res["Font"])
	if err != nil || fonts == nil {
		return nil, fmt.Errorf("font %s not in the resources", name)
	}
	ref := fonts[name]
	id := "res:" + name
	if ir, ok := ref.(types.IndirectRef); ok {
		id = ir.String()
	}
	if f, ok := fc.fonts[id]; ok {
		return f, nil
	}
	d, err := fc.ctx.DereferenceDict(ref)
	if err != nil || d == nil {
		return nil, fmt.Errorf("font %s cannot be read", name)
	}
	f := fc.parse(d)
	f.id = id
	fc.fonts[id] = f
	return f, nil
}

func (fc *fontCache) parse(d types.Dict) *font {
	f := &font{uni: map[uint32]rune{}, widths: map[uint32]float64{}, scale: 1, simple: true}
	sub := ""
	if n := d.NameEntry("Subtype"); n != nil {
		sub = *n
	}
	if n := d.NameEntry("BaseFont"); n != nil {
		f.name = *n
	}
	num := func(o types.Object) float64 {
		v, _ := fc.ctx.DereferenceNumber(o)
		return v
	}
	switch sub {
	case "Type0":
		f.simple = false
		enc, _ := fc.ctx.Dereference(d["Encoding"])
		switch e := enc.(type) {
		case types.Name:
			if e != "Identity-H" && e != "Identity-V" {
				f.err = fmt.Errorf("font %s: encoding %s is not supported", f.name, e)
			}
			if e == "Identity-V" {
				f.err = fmt.Errorf("font %s: vertical writing is not supported", f.name)
			}
		case types.StreamDict:
			if err := e.Decode(); err == nil {
				f.ranges = parseCodeSpace(e.Content)
			}
			if len(f.ranges) == 0 {
				f.err = fmt.Errorf("font %s: its encoding CMap cannot be read", f.name)
			}
		default:
			f.err = fmt.Errorf("font %s: no encoding", f.name)
		}
		f.dw = 1000
		desc, _ := fc.ctx.DereferenceArray(d["DescendantFonts"])
		if len(desc) > 0 {
			cid, _ := fc.ctx.DereferenceDict(desc[0])
			if cid != nil {
				if v, ok := cid.Find("DW"); ok {
					f.dw = num(v)
				}
				w, _ := fc.ctx.DereferenceArray(cid["W"])
				f.cidWidths(w, num)
			}
		}
		// Widths are by CID; with Identity encodings the CID is the code.
		// Other CMaps map codes to CIDs through ranges not read here, so
		// their widths are unknown.
		if len(f.ranges) > 0 {
			f.err = fmt.Errorf("font %s: an embedded encoding CMap is not supported", f.name)
		}
	default:
		first := 0
		if v := d.IntEntry("FirstChar"); v != nil {
			first = *v
		}
		ws, _ := fc.ctx.DereferenceArray(d["Widths"])
		for i, w := range ws {
			f.widths[uint32(first+i)] = num(w)
		}
		if sub == "Type3" {
			m, _ := fc.ctx.DereferenceArray(d["FontMatrix"])
			if len(m) == 6 {
				f.scale = num(m[0]) * 1000
			}
		}
		if len(ws) == 0 {
			core := strings.TrimPrefix(f.name, f.name[:strings.IndexByte(f.name, '+')+1])
			if pdffont.IsCoreFont(core) {
				f.core = core
			} else if mapped := coreAlias(core); mapped != "" {
				f.core = mapped
			} else {
				f.err = fmt.Errorf("font %s: no widths", f.name)
			}
		}
		fc.simpleEncoding(f, d)
	}
	f.embedded = fc.embedded(d)
	if tu, ok := d.Find("ToUnicode"); ok {
		if sd, _, err := fc.ctx.DereferenceStreamDict(tu); err == nil && sd != nil {
			if err := sd.Decode(); err == nil {
				parseToUnicode(sd.Content, f.uni)
			}
		}
	}
	return f
}

// embedded reports a font whose file carries its program (a Type0
// font's in its descendant's descriptor).
func (fc *fontCache) embedded(d types.Dict) bool {
	if desc, _ := fc.ctx.DereferenceArray(d["DescendantFonts"]); len(desc) > 0 {
		if cid, _ := fc.ctx.DereferenceDict(desc[0]); cid != nil {
			d = cid
		}
	}
	if n := d.NameEntry("Subtype"); n != nil && *n == "Type3" {
		return true
	}
	fd, _ := fc.ctx.DereferenceDict(d["FontDescriptor"])
	if fd == nil {
		return false
	}
	for _, k := range []string{"FontFile", "FontFile2", "FontFile3"} {
		if _, ok := fd.Find(k); ok {
			return true
		}
	}
	return false
}

// coreAlias names the standard font a common alias stands for
// ("Arial" is drawn as Helvetica when not embedded).
func coreAlias(name string) string {
	base, style, _ := strings.Cut(strings.ReplaceAll(name, ",", "-"), "-")
	fam := map[string]string{"Arial": "Helvetica", "ArialMT": "Helvetica", "TimesNewRoman": "Times", "TimesNewRomanPSMT": "Times", "CourierNew": "Courier", "CourierNewPSMT": "Courier"}[base]
	if fam == "" {
		return ""
	}
	bold, italic := strings.Contains(style, "Bold"), strings.Contains(style, "Italic") || strings.Contains(style, "Oblique")
	switch fam {
	case "Times":
		switch {
		case bold && italic:
			return "Times-BoldItalic"
		case bold:
			return "Times-Bold"
		case italic:
			return "Times-Italic"
		}
		return "Times-Roman"
	default:
		suffix := ""
		switch {
		case bold && italic:
			suffix = "-BoldOblique"
		case bold:
			suffix = "-Bold"
		case italic:
			suffix = "-Oblique"
		}
		return fam + suffix
	}
}

// cidWidths reads a CIDFont's W array: "c [w1 w2 ...]" or "c1 c2 w".
func (f *font) cidWidths(w types.Array, num func(types.Object) float64) {
	for i := 0; i < len(w); {
		c := num(w[i])
		if i+1 >= len(w) {
			return
		}
		if arr, ok := w[i+1].(types.Array); ok {
			for k, v := range arr {
				f.widths[uint32(c)+uint32(k)] = num(v)
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			return
		}
		c2, v := num(w[i+1]), num(w[i+2])
		for x := uint32(c); x <= uint32(c2) && x-uint32(c) < 65536; x++ {
			f.widths[x] = v
		}
		i += 3
	}
}

// simpleEncoding fills a simple font's codes from its Encoding (a base
// encoding and Differences), before ToUnicode overrides them.
func (fc *fontCache) simpleEncoding(f *font, d types.Dict) {
	for c := 0x20; c < 0x7f; c++ {
		f.uni[uint32(c)] = rune(c)
	}
	for c := 0x80; c <= 0xff; c++ {
		if r := charmap.Windows1252.DecodeByte(byte(c)); r != utf8.RuneError {
			f.uni[uint32(c)] = r
		}
	}
	enc, _ := fc.ctx.Dereference(d["Encoding"])
	ed, ok := enc.(types.Dict)
	if !ok {
		return
	}
	diffs, _ := fc.ctx.DereferenceArray(ed["Differences"])
	c := 0
	for _, o := range diffs {
		switch v := o.(type) {
		case types.Integer:
			c = int(v)
		case types.Float:
			c = int(v)
		case types.Name:
			if r, ok := glyphRune(string(v)); ok {
				f.uni[uint32(c)] = r
			} else {
				delete(f.uni, uint32(c))
			}
			c++
		}
	}
}

// glyphRune reads the glyph names a statement's letters and digits have.
func glyphRune(n string) (rune, bool) {
	if utf8.RuneCountInString(n) == 1 {
		r, _ := utf8.DecodeRuneInString(n)
		return r, true
	}
	digits := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	for i, d := range digits {
		if n == d {
			return rune('0' + i), true
		}
	}
	named := map[string]rune{"space": ' ', "period": '.', "comma": ',', "hyphen": '-', "minus": '-', "slash": '/', "colon": ':',
		"parenleft": '(', "parenright": ')', "plus": '+', "dollar": '$', "Euro": '€', "sterling": '£', "percent": '%', "ampersand": '&',
		"quotesingle": '\'', "apostrophe": '\''}
	if r, ok := named[n]; ok {
		return r, true
	}
	if hex, ok := strings.CutPrefix(n, "uni"); ok && len(hex) == 4 {
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil {
			return rune(v), true
		}
	}
	return 0, false
}

// parseCodeSpace reads a CMap's codespace ranges.
func parseCodeSpace(b []byte) []csr {
	var out []csr
	l := pdfcontent.NewLexer(b)
	var args []obj
	for {
		o, kw, isOp, ok, err := l.Next()
		if err != nil || !ok {
			return out
		}
		if !isOp {
			args = append(args, o)
			continue
		}
		if kw == "endcodespacerange" {
			for i := 0; i+1 < len(args); i += 2 {
				lo, hi := args[i], args[i+1]
				if lo.Kind == kString && hi.Kind == kString && len(lo.Val) == len(hi.Val) && len(lo.Val) > 0 && len(lo.Val) <= 4 {
					out = append(out, csr{n: len(lo.Val), lo: beUint(lo.Val), hi: beUint(hi.Val)})
				}
			}
		}
		args = nil
	}
}

// parseToUnicode reads a ToUnicode CMap's bfchar and bfrange entries
// (only the first character of a mapping to several).
func parseToUnicode(b []byte, into map[uint32]rune) {
	l := pdfcontent.NewLexer(b)
	var args []obj
	for {
		o, kw, isOp, ok, err := l.Next()
		if err != nil || !ok {
			return
		}
		if !isOp {
			args = append(args, o)
			continue
		}
		switch kw {
		case "endbfchar":
			for i := 0; i+1 < len(args); i += 2 {
				if args[i].Kind == kString && args[i+1].Kind == kString {
					if r, ok := utf16First(args[i+1].Val); ok {
						into[beUint(args[i].Val)] = r
					}
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(args); i += 3 {
				lo, hi, dst := args[i], args[i+1], args[i+2]
				if lo.Kind != kString || hi.Kind != kString {
					continue
				}
				a, z := beUint(lo.Val), beUint(hi.Val)
				if z < a || z-a > 65535 {
					continue
				}
				switch dst.Kind {
				case kString:
					r, ok := utf16First(dst.Val)
					if !ok {
						continue
					}
					for c := a; c <= z; c++ {
						into[c] = r + rune(c-a)
					}
				case kArray:
					for k, it := range dst.Arr {
						if it.Kind == kString {
							if r, ok := utf16First(it.Val); ok {
								into[a+uint32(k)] = r
							}
						}
					}
				}
			}
		}
		args = nil
	}
}

func beUint(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

// utf16First is the first character of a UTF-16BE string.
func utf16First(b []byte) (rune, bool) {
	if len(b) < 2 {
		if len(b) == 1 {
			return rune(b[0]), true
		}
		return 0, false
	}
	r := rune(b[0])<<8 | rune(b[1])
	if r >= 0xD800 && r < 0xDC00 && len(b) >= 4 {
		r2 := rune(b[2])<<8 | rune(b[3])
		return (r-0xD800)<<10 + (r2 - 0xDC00) + 0x10000, true
	}
	return r, true
}
