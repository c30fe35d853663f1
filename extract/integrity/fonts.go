package integrity

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"golang.org/x/image/font/sfnt"

	"passbook/extract/pdfcontent"
)

// font is what the report needs of a font: its identity, how its codes
// decode to text and how wide each is, and whether its ToUnicode map
// contradicts the glyphs the font itself names.
type font struct {
	id      string // the font dictionary's object number ("obj 12"), which tells two subsets of one face apart
	base    string // BaseFont without a subset prefix
	twoByte bool
	first   int
	widths  []float64 // simple fonts: from FirstChar, in 1/1000 em
	cidW    map[int]float64
	dw      float64
	toUni   map[int]string
	names   map[int]string // simple fonts: the glyph name each code draws, where the encoding says
	lie     string         // evidence that ToUnicode says another digit than the glyph drawn; "" when none was found
	lies    map[int]bool   // the codes it says so of
	t3      bool
	std     []float64      // a standard font's widths from 32 to 126, when the file gives none
	decoded map[int]string // text, by code, as decoded so far
	matrix  float64        // a Type 3 font's glyph-space scale
}

var subsetPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{6}\+`) })

// loadFont reads a font resource, once per font object.
func (f *pdfFile) loadFont(o types.Object, where string) *font {
	id := where
	if r, ok := o.(types.IndirectRef); ok {
		id = fmt.Sprintf("obj %d", r.ObjectNumber.Value())
	}
	if ft, ok := f.fonts[id]; ok {
		return ft
	}
	ft := &font{id: id, dw: 1000, matrix: 0.001}
	f.fonts[id] = ft
	d, _ := f.dict(o)
	if d == nil {
		return ft
	}
	ft.base = subsetPrefix().ReplaceAllString(f.name(d["BaseFont"]), "")
	if tu := f.stream(d["ToUnicode"]); tu != nil {
		ft.toUni = parseToUnicode(tu)
	}
	sub := f.name(d["Subtype"])
	var desc types.Dict
	if sub == "Type0" {
		ft.twoByte = true
		if a, _ := f.array(d["DescendantFonts"]); len(a) > 0 {
			cid, _ := f.dict(a[0])
			if cid != nil {
				if v, ok := f.num(cid["DW"]); ok {
					ft.dw = v
				}
				ft.cidW = f.cidWidths(cid["W"])
				desc, _ = f.dict(cid["FontDescriptor"])
				ft.checkCIDProgram(f, cid, desc)
			}
		}
		if enc := f.name(d["Encoding"]); enc != "" && enc != "Identity-H" && enc != "Identity-V" {
			// Another CMap: codes may be one byte; read them as two only when
			// the map says Identity, else as one (the report then sees
			// less, but never wrong widths for whole strings).
			ft.twoByte = false
		}
	} else {
		ft.t3 = sub == "Type3"
		if ft.t3 {
			if m, _ := f.array(d["FontMatrix"]); len(m) == 6 {
				if v, ok := f.num(m[0]); ok {
					ft.matrix = v
				}
			}
		}
		fc, _ := f.num(d["FirstChar"])
		ft.first = int(fc)
		if w, _ := f.array(d["Widths"]); w != nil {
			for _, x := range w {
				v, _ := f.num(x)
				ft.widths = append(ft.widths, v)
			}
		}
		desc, _ = f.dict(d["FontDescriptor"])
		ft.names = f.encodingNames(d, desc)
		if ft.widths == nil {
			ft.std = standardWidths(ft.base)
		}
	}
	ft.findLie()
	return ft
}

// width is a code's advance in text space units (before the font size).
func (ft *font) width(code int) float64 {
	var w float64
	switch {
	case ft.twoByte:
		w = ft.dw
		if v, ok := ft.cidW[code]; ok {
			w = v
		}
	case code-ft.first >= 0 && code-ft.first < len(ft.widths):
		w = ft.widths[code-ft.first]
	case ft.std != nil && code >= 32 && code < 127:
		w = ft.std[code-32]
	default:
		w = 500
	}
	if ft.t3 {
		return w * ft.matrix
	}
	return w / 1000
}

// text is what a code says as text: its ToUnicode entry, else the glyph
// its encoding names, else the code itself read as Latin-1.
func (ft *font) text(code int) string {
	if s, ok := ft.decoded[code]; ok {
		return s
	}
	s := ft.decode(code)
	if ft.decoded == nil {
		ft.decoded = map[int]string{}
	}
	ft.decoded[code] = s
	return s
}

func (ft *font) decode(code int) string {
	if s, ok := ft.toUni[code]; ok {
		return s
	}
	if n, ok := ft.names[code]; ok {
		if r := glyphRune(n); r != 0 {
			return string(r)
		}
	}
	if !ft.twoByte && code >= 32 && code < 256 {
		return string(rune(code))
	}
	return ""
}

func (f *pdfFile) cidWidths(o types.Object) map[int]float64 {
	a, _ := f.array(o)
	out := map[int]float64{}
	for i := 0; i < len(a); {
		c, ok := f.num(a[i])
		if !ok || i+1 >= len(a) {
			break
		}
		if ws, ok := f.array(a[i+1]); ok {
			for j, w := range ws {
				v, _ := f.num(w)
				out[int(c)+j] = v
			}
			i += 2
			continue
		}
		if i+2 >= len(a) {
			break
		}
		hi, _ := f.num(a[i+1])
		v, _ := f.num(a[i+2])
		for k := int(c); k <= int(hi) && k-int(c) < 65536; k++ {
			out[k] = v
		}
		i += 3
	}
	return out
}

// parseToUnicode reads a ToUnicode CMap's bfchar and bfrange entries.
func parseToUnicode(b []byte) map[int]string {
	out := map[int]string{}
	l := pdfcontent.NewLexer(b)
	var ops []pdfcontent.Obj
	for {
		t, kw, isOp, ok, err := l.Next()
		if !ok || err != nil {
			break
		}
		if !isOp {
			ops = append(ops, t)
			continue
		}
		switch kw {
		case "endbfchar":
			for i := 0; i+1 < len(ops); i += 2 {
				if ops[i].Kind == pdfcontent.String && ops[i+1].Kind == pdfcontent.String {
					out[codeOf(string(ops[i].Val))] = utf16Text(string(ops[i+1].Val))
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(ops); i += 3 {
				lo, hi := codeOf(string(ops[i].Val)), codeOf(string(ops[i+1].Val))
				if hi < lo || hi-lo > 65535 {
					continue
				}
				dst := ops[i+2]
				for c := lo; c <= hi; c++ {
					switch dst.Kind {
					case pdfcontent.Array:
						if c-lo < len(dst.Arr) {
							out[c] = utf16Text(string(dst.Arr[c-lo].Val))
						}
					case pdfcontent.String:
						d := dst.Val
						if len(d) >= 2 {
							d = append([]byte(nil), d...)
							v := int(d[len(d)-2])<<8 | int(d[len(d)-1]) + (c - lo)
							d[len(d)-2], d[len(d)-1] = byte(v>>8), byte(v)
						}
						out[c] = utf16Text(string(d))
					}
				}
			}
		}
		ops = ops[:0]
	}
	return out
}

func codeOf(s string) int {
	v := 0
	for i := 0; i < len(s) && i < 4; i++ {
		v = v<<8 | int(s[i])
	}
	return v
}

func utf16Text(s string) string {
	var rs []rune
	for i := 0; i+1 < len(s); i += 2 {
		u := rune(s[i])<<8 | rune(s[i+1])
		if u >= 0xD800 && u < 0xDC00 && i+3 < len(s) {
			l := rune(s[i+2])<<8 | rune(s[i+3])
			rs = append(rs, (u-0xD800)<<10+(l-0xDC00)+0x10000)
			i += 2
			continue
		}
		rs = append(rs, u)
	}
	return string(rs)
}

// digitNames are the glyph names of the figures.
var digitNames = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// glyphRune is the character a glyph name stands for, for the names a
// statement's figures and words use; 0 for others.
func glyphRune(n string) rune {
	for i, d := range digitNames {
		if n == d {
			return rune('0' + i)
		}
	}
	switch n {
	case "space":
		return ' '
	case "period":
		return '.'
	case "comma":
		return ','
	case "hyphen", "minus":
		return '-'
	}
	if len(n) == 1 {
		return rune(n[0])
	}
	if strings.HasPrefix(n, "uni") && len(n) == 7 {
		if v, err := strconv.ParseUint(n[3:], 16, 32); err == nil {
			return rune(v)
		}
	}
	return 0
}

// encodingNames is the glyph name of each code a simple font's encoding
// names: the Differences over a standard base encoding (whose figures
// sit at their ASCII codes), or a Type 1 program's own encoding.
func (f *pdfFile) encodingNames(d, desc types.Dict) map[int]string {
	names := map[int]string{}
	symbolic := false
	if desc != nil {
		if fl, ok := f.num(desc["Flags"]); ok && int(fl)&4 != 0 {
			symbolic = true
		}
	}
	enc := d["Encoding"]
	base := f.name(enc)
	var diffs types.Array
	if ed, ok := f.dict(enc); ok {
		base = f.name(ed["BaseEncoding"])
		diffs, _ = f.array(ed["Differences"])
	}
	sub := f.name(d["Subtype"])
	standard := base == "WinAnsiEncoding" || base == "MacRomanEncoding" || base == "StandardEncoding" ||
		(base == "" && !symbolic && sub == "Type1")
	if standard {
		for i := range 10 {
			names['0'+i] = digitNames[i]
		}
	} else if desc != nil && sub == "Type1" {
		if _, prog, ok := f.streamDict(desc["FontFile"]); ok {
			for c, n := range type1Encoding(prog) {
				names[c] = n
			}
		}
	}
	code := 0
	for _, o := range diffs {
		if v, ok := f.num(o); ok {
			code = int(v)
			continue
		}
		if n := f.name(o); n != "" {
			names[code] = n
			code++
		}
	}
	return names
}

var type1Dup = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`dup (\d+) ?/([A-Za-z0-9._]+) put`) })

// type1Encoding reads the encoding in a Type 1 program's clear-text part.
func type1Encoding(prog []byte) map[int]string {
	if i := strings.Index(string(prog[:min(len(prog), 1<<16)]), "eexec"); i > 0 {
		prog = prog[:i]
	}
	out := map[int]string{}
	for _, m := range type1Dup().FindAllSubmatch(prog, 512) {
		c, err := strconv.Atoi(string(m[1]))
		if err == nil && c < 256 {
			out[c] = string(m[2])
		}
	}
	return out
}

// findLie compares, for every code the ToUnicode map reads as a figure,
// the figure with the glyph the font itself names for that code.
func (ft *font) findLie() {
	if ft.toUni == nil || ft.names == nil {
		return
	}
	codes := make([]int, 0, len(ft.toUni))
	for code := range ft.toUni {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	for _, code := range codes {
		s := ft.toUni[code]
		n, ok := ft.names[code]
		if !ok {
			continue
		}
		drawn := glyphRune(n)
		if isDigitText(s) && drawn >= '0' && drawn <= '9' && rune(s[0]) != drawn {
			if ft.lies == nil {
				ft.lies = map[int]bool{}
				ft.lie = fmt.Sprintf("font %s draws %q for code %d, but its ToUnicode map reads it as %q", ft.base, string(drawn), code, s)
			}
			ft.lies[code] = true
		}
	}
}

func isDigitText(s string) bool { return len(s) == 1 && s[0] >= '0' && s[0] <= '9' }

// checkCIDProgram reads an embedded TrueType or OpenType program of a CID
// font and sets names from its own character map: the glyph each figure
// is drawn with, so findLie can compare it with ToUnicode.
func (ft *font) checkCIDProgram(f *pdfFile, cid, desc types.Dict) {
	if desc == nil {
		return
	}
	var prog []byte
	for _, k := range []string{"FontFile2", "FontFile3"} {
		if _, b, ok := f.streamDict(desc[k]); ok && b != nil {
			prog = b
			break
		}
	}
	if prog == nil {
		return
	}
	fnt, err := sfnt.Parse(prog)
	if err != nil {
		return
	}
	// code → glyph: Identity unless a CIDToGIDMap stream says otherwise.
	var gidOf func(code int) int
	if _, m, ok := f.streamDict(cid["CIDToGIDMap"]); ok && m != nil {
		gidOf = func(code int) int {
			if 2*code+1 < len(m) {
				return int(m[2*code])<<8 | int(m[2*code+1])
			}
			return -1
		}
	} else {
		gidOf = func(code int) int { return code }
	}
	var buf sfnt.Buffer
	byGlyph := map[int]int{}
	for i := range 10 {
		g, err := fnt.GlyphIndex(&buf, rune('0'+i))
		if err == nil && g != 0 {
			byGlyph[int(g)] = i
		}
	}
	names := map[int]string{}
	for code, s := range ft.toUni {
		if !isDigitText(s) {
			continue
		}
		g := gidOf(code)
		if d, ok := byGlyph[g]; ok {
			names[code] = digitNames[d]
			continue
		}
		if n, err := fnt.GlyphName(&buf, sfnt.GlyphIndex(g)); err == nil && glyphRune(n) >= '0' && glyphRune(n) <= '9' {
			names[code] = n
		}
	}
	if len(names) > 0 {
		ft.names = names
	}
}

// helveticaWidths are Helvetica's advance widths (its AFM) for 32 to 126.
var helveticaWidths = []float64{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
}

// standardWidths are the widths of one of the standard fonts a file may
// name without widths: Courier's are all 600; Helvetica's (and, near
// enough for placing figures, the others') come from its AFM.
func standardWidths(base string) []float64 {
	if strings.HasPrefix(base, "Courier") {
		w := make([]float64, 95)
		for i := range w {
			w[i] = 600
		}
		return w
	}
	return helveticaWidths
}
