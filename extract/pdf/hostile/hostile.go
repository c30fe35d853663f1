// Package hostile builds small PDFs that attack a reader, for tests and
// the stress harness: page trees whose counts lie, loop or nest too deep,
// and decompression bombs (a few KB that inflate to a gigabyte). They are
// built in code, byte by byte, so no such file needs to sit in the
// repository. It is pure Go.
package hostile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
)

// GiB is the size of the bombs' payload the issue describes.
const GiB = 1 << 30

// Builder collects numbered objects (from 1) and writes them as a PDF.
type Builder struct {
	objs [][]byte
	// Trailer holds more trailer entries ("/Info 7 0 R").
	Trailer string
}

// Add appends an object's body (what goes between "N 0 obj" and "endobj")
// and returns its number.
func (b *Builder) Add(body string) int {
	b.objs = append(b.objs, []byte(body))
	return len(b.objs)
}

// Reserve returns the number the next object will get, for bodies that
// refer forward; Set fills it in later.
func (b *Builder) Reserve() int { return b.Add("null") }

// Set replaces object n's body.
func (b *Builder) Set(n int, body string) { b.objs[n-1] = []byte(body) }

// AddStream appends a stream object with the given dictionary entries
// (without /Length) and raw, already encoded, data.
func (b *Builder) AddStream(dict string, data []byte) int {
	var o bytes.Buffer
	fmt.Fprintf(&o, "<< %s /Length %d >>\nstream\n", dict, len(data))
	o.Write(data)
	o.WriteString("\nendstream")
	b.objs = append(b.objs, o.Bytes())
	return len(b.objs)
}

// PDF writes the objects with a classic cross-reference table and a
// trailer whose /Root is root.
func (b *Builder) PDF(root int) []byte {
	var o bytes.Buffer
	o.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(b.objs))
	for i, body := range b.objs {
		offs[i] = o.Len()
		fmt.Fprintf(&o, "%d 0 obj\n", i+1)
		o.Write(body)
		o.WriteString("\nendobj\n")
	}
	xref := o.Len()
	fmt.Fprintf(&o, "xref\n0 %d\n0000000000 65535 f \n", len(b.objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&o, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&o, "trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n", len(b.objs)+1, root, b.Trailer, xref)
	return o.Bytes()
}

// pageContent draws "Page n" in Helvetica (font /F1 of the inherited
// resources).
func pageContent(n int) string {
	return fmt.Sprintf("BT /F1 24 Tf 72 700 Td (Page %d of the statement) Tj ET", n)
}

// resources is what every page tree built here gives its pages through
// inheritance: a font and a page size, set on the root only.
const resources = "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /MediaBox [0 0 612 792]"

// PageTree builds a PDF of pages pages, each showing "Page n of the
// statement", grouped under inner nodes of at most 100 pages (whose counts
// are true) below a root whose /Count claims claimed. Pages inherit their
// font and size from the root.
func PageTree(pages, claimed int) []byte {
	var b Builder
	catalog := b.Reserve()
	root := b.Reserve()
	var groups []string
	for start := 0; start < pages; start += 100 {
		node := b.Reserve()
		var kids []string
		for i := start; i < min(start+100, pages); i++ {
			content := b.AddStream("", []byte(pageContent(i+1)))
			page := b.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", node, content))
			kids = append(kids, fmt.Sprintf("%d 0 R", page))
		}
		b.Set(node, fmt.Sprintf("<< /Type /Pages /Parent %d 0 R /Kids [%s] /Count %d >>", root, strings.Join(kids, " "), len(kids)))
		groups = append(groups, fmt.Sprintf("%d 0 R", node))
	}
	b.Set(root, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d %s >>", strings.Join(groups, " "), claimed, resources))
	b.Set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", root))
	return b.PDF(catalog)
}

// Tree builds a PDF from a description of its page tree: kids maps a node
// name to its kids' names, counts gives a node's /Count (its true count
// when absent), "root" is the root, and a name that is not a node is a
// page showing "Page NAME of the statement". A kid may be any node,
// including an ancestor. Extra maps a name to a whole object body instead
// (a font where a page should be, say).
func Tree(kids map[string][]string, counts map[string]int, extra map[string]string) []byte {
	var b Builder
	catalog := b.Reserve()
	nums := map[string]int{}
	var number func(name string) int
	number = func(name string) int {
		if n, ok := nums[name]; ok {
			return n
		}
		n := b.Reserve()
		nums[name] = n
		return n
	}
	var count func(name string, seen map[string]bool) int
	count = func(name string, seen map[string]bool) int {
		if _, node := kids[name]; !node {
			return 1
		}
		if seen[name] {
			return 0
		}
		seen[name] = true
		defer delete(seen, name)
		n := 0
		for _, k := range kids[name] {
			n += count(k, seen)
		}
		return n
	}
	var build func(name, parent string)
	built := map[string]bool{}
	build = func(name, parent string) {
		if built[name] {
			return
		}
		built[name] = true
		n := number(name)
		parentRef := ""
		if parent != "" {
			parentRef = fmt.Sprintf("/Parent %d 0 R", number(parent))
		}
		if body, ok := extra[name]; ok {
			b.Set(n, body)
			return
		}
		ks, node := kids[name]
		if !node {
			content := b.AddStream("", fmt.Appendf(nil, "BT /F1 24 Tf 72 700 Td (Page %s of the statement) Tj ET", name))
			b.Set(n, fmt.Sprintf("<< /Type /Page %s /Contents %d 0 R >>", parentRef, content))
			return
		}
		var refs []string
		for _, k := range ks {
			refs = append(refs, fmt.Sprintf("%d 0 R", number(k)))
		}
		c, ok := counts[name]
		if !ok {
			c = count(name, map[string]bool{})
		}
		extraKeys := ""
		if name == "root" {
			extraKeys = resources
		}
		b.Set(n, fmt.Sprintf("<< /Type /Pages %s /Kids [%s] /Count %d %s >>", parentRef, strings.Join(refs, " "), c, extraKeys))
		for _, k := range ks {
			build(k, name)
		}
	}
	build("root", "")
	b.Set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", number("root")))
	return b.PDF(catalog)
}

// DeepTree builds a page tree depth inner nodes deep with one page at the
// bottom.
func DeepTree(depth int) []byte {
	kids := map[string][]string{}
	prev := "root"
	for i := 1; i < depth; i++ {
		name := fmt.Sprintf("n%d", i)
		kids[prev] = []string{name}
		prev = name
	}
	kids[prev] = []string{"1"}
	return Tree(kids, nil, nil)
}

// WideDAG builds a page tree of levels inner nodes, each listing the next
// one twice: a few objects that name 2^levels pages. Each claims one.
func WideDAG(levels int) []byte {
	kids := map[string][]string{}
	counts := map[string]int{"root": 1}
	prev := "root"
	for i := 1; i < levels; i++ {
		name := fmt.Sprintf("n%d", i)
		kids[prev] = []string{name, name}
		counts[name] = 1
		prev = name
	}
	kids[prev] = []string{"1", "1"}
	return Tree(kids, counts, nil)
}

// Spaces returns a zlib stream that inflates to prefix, then n spaces,
// then suffix. The run is coded by hand as one fixed-Huffman deflate block
// of length-258, distance-1 matches, so a gigabyte costs a few MB and no
// time to build; those MB compress again to a few KB (see FlateBomb).
func Spaces(prefix string, n int64, suffix string) []byte {
	var w bitWriter
	w.bits(1, 1) // BFINAL
	w.bits(1, 2) // BTYPE 01: fixed Huffman codes
	lit := func(c byte) {
		if c < 144 {
			w.code(0x30+uint32(c), 8)
		} else {
			w.code(0x190+uint32(c)-144, 9)
		}
	}
	for i := 0; i < len(prefix); i++ {
		lit(prefix[i])
	}
	left := n
	if left > 0 {
		lit(' ')
		left--
	}
	// Length 258 (symbol 285) at distance 1 (code 0), 13 bits a match.
	match := reverse(0xC0+285-280, 8) | reverse(0, 5)<<8
	for ; left >= 258; left -= 258 {
		w.bits(match, 13)
	}
	for ; left > 0; left-- {
		lit(' ')
	}
	for i := 0; i < len(suffix); i++ {
		lit(suffix[i])
	}
	w.code(0, 7) // end of block
	w.flush()

	var o bytes.Buffer
	o.Write([]byte{0x78, 0x01})
	o.Write(w.out)
	a := adler{a: 1}
	a.write([]byte(prefix))
	a.repeat(' ', n)
	a.write([]byte(suffix))
	binary.Write(&o, binary.BigEndian, a.sum())
	return o.Bytes()
}

// Deflate compresses data with zlib at its best compression.
func Deflate(data []byte) []byte {
	var o bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&o, zlib.BestCompression)
	zw.Write(data)
	zw.Close()
	return o.Bytes()
}

// FlateBomb builds a one-page PDF whose content stream is "Page 1 of the
// statement" followed by n spaces, behind two Flate layers: with n = GiB
// the file is about 14 KB.
func FlateBomb(n int64) []byte {
	var b Builder
	catalog := b.Reserve()
	root := b.Reserve()
	content := b.AddStream("/Filter [/FlateDecode /FlateDecode]", Deflate(Spaces(pageContent(1)+"\n", n, "")))
	page := b.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", root, content))
	b.Set(root, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 %s >>", page, resources))
	b.Set(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", root))
	return b.PDF(catalog)
}

// ProbeBomb builds a PDF whose catalog hides in a compressed object stream
// behind n bytes of white space (two Flate layers), found through a
// compressed cross-reference stream: a reader has to inflate all of it
// before it knows the document's pages. With n = GiB it is about 14 KB and
// held a worker's probe at full CPU until its time ran out.
func ProbeBomb(n int64) []byte {
	// Objects: 1 the catalog (in object stream 4), 2 the page tree, 3 a
	// page, 4 the object stream, 5 the cross-reference stream.
	var o bytes.Buffer
	o.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := map[int]int{}
	obj := func(num int, body []byte) {
		offs[num] = o.Len()
		fmt.Fprintf(&o, "%d 0 obj\n", num)
		o.Write(body)
		o.WriteString("\nendobj\n")
	}
	content := Deflate([]byte(pageContent(1)))
	obj(2, []byte("<< /Type /Pages /Kids [3 0 R] /Count 1 "+resources+" >>"))
	obj(3, []byte("<< /Type /Page /Parent 2 0 R /Contents 6 0 R >>"))
	obj(6, []byte(fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(content), content)))
	header := fmt.Sprintf("1 %d ", n)
	stm := Deflate(Spaces(header, n, "<< /Type /Catalog /Pages 2 0 R >>"))
	obj(4, []byte(fmt.Sprintf("<< /Type /ObjStm /N 1 /First %d /Filter [/FlateDecode /FlateDecode] /Length %d >>\nstream\n%s\nendstream", len(header), len(stm), stm)))
	// The cross-reference stream: type, field 2 (offset or stream), field 3
	// (generation or index), 1+4+2 bytes an entry.
	var x bytes.Buffer
	entry := func(typ byte, f2 uint32, f3 uint16) {
		x.WriteByte(typ)
		binary.Write(&x, binary.BigEndian, f2)
		binary.Write(&x, binary.BigEndian, f3)
	}
	xrefAt := o.Len()
	entry(0, 0, 65535)
	entry(2, 4, 0) // object 1: first in object stream 4
	for num := 2; num <= 6; num++ {
		if num == 5 {
			entry(1, uint32(xrefAt), 0)
			continue
		}
		entry(1, uint32(offs[num]), 0)
	}
	xs := Deflate(x.Bytes())
	offs[5] = xrefAt
	fmt.Fprintf(&o, "5 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length %d >>\nstream\n", len(xs))
	o.Write(xs)
	fmt.Fprintf(&o, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xrefAt)
	return o.Bytes()
}

// bitWriter packs deflate's bit stream: values least significant bit
// first, Huffman codes most significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) bits(v uint32, n uint) {
	w.acc |= uint64(v) << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) code(c uint32, n uint) { w.bits(reverse(c, n), n) }

// reverse reverses the n low bits of c.
func reverse(c uint32, n uint) uint32 {
	var r uint32
	for i := uint(0); i < n; i++ {
		r = r<<1 | (c>>i)&1
	}
	return r
}

func (w *bitWriter) flush() {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
}

// adler is zlib's Adler-32, with a run of one byte added in closed form.
type adler struct{ a, b uint64 }

const adlerMod = 65521

func (s *adler) write(p []byte) {
	for _, c := range p {
		s.a = (s.a + uint64(c)) % adlerMod
		s.b = (s.b + s.a) % adlerMod
	}
}

// repeat adds n copies of c: a grows by n·c, b by n·a + c·n(n+1)/2.
func (s *adler) repeat(c byte, n int64) {
	m := uint64(n) % adlerMod
	var tri uint64 // n(n+1)/2 mod adlerMod
	if n%2 == 0 {
		tri = uint64(n/2) % adlerMod * (uint64(n+1) % adlerMod) % adlerMod
	} else {
		tri = m * (uint64((n+1)/2) % adlerMod) % adlerMod
	}
	s.b = (s.b + m*s.a + uint64(c)*tri) % adlerMod
	s.a = (s.a + m*uint64(c)) % adlerMod
}

func (s *adler) sum() uint32 { return uint32(s.b<<16 | s.a) }
