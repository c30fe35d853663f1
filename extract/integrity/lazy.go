package integrity

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A lazy read takes the file's cross-reference chain and trailers, and
// parses an object only when the report first asks for it: a statement's
// report needs its catalog, pages, fonts, content streams and metadata,
// which are a few dozen of what are often thousands of objects (a browser's
// tagged PDF holds an element per table cell). pdfcpu parses each object
// (pdfcpu.ParseObjectWithContext, model.ParseObject) and decodes streams;
// the cross-reference chain is read here, because pdfcpu.Read reads it
// only together with every object. An encrypted file, or a chain that
// does not hold together, is read whole by pdfcpu as before.

// errNotLazy says the file is to be read whole.
var errNotLazy = errors.New("not lazily readable")

// maxObjects bounds the cross-reference entries a lazy read keeps; a
// file that claims more is left to pdfcpu.
const maxObjects = 1 << 20

// lazyFile is what a lazy read keeps beside the XRefTable.
type lazyFile struct {
	data    []byte
	ctx     *model.Context
	loading map[int]bool
	objStm  map[int][]types.Object // an object stream's objects, in order
	// section counts the sections read, newest first; from is the
	// section each entry came from: a hybrid file's table marks free what
	// its cross-reference stream (same section) holds.
	sectionNo int
	from      map[int]int
}

// readLazy reads data's cross-reference chain into a pdfcpu context whose
// entries hold no objects yet.
func readLazy(data []byte) (*pdfFile, error) {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.Limits.MaxDecodeBytes = maxDecoded
	ctx, err := model.NewContext(bytes.NewReader(data), conf)
	if err != nil {
		return nil, err
	}
	v, err := headerVersion(data)
	if err != nil {
		return nil, errNotLazy
	}
	ctx.HeaderVersion = &v
	lz := &lazyFile{data: data, ctx: ctx, loading: map[int]bool{}, objStm: map[int][]types.Object{}, from: map[int]int{}}
	x := ctx.XRefTable
	off, err := startXRef(data)
	if err != nil {
		return nil, errNotLazy
	}
	seen := map[int64]bool{}
	for first := true; off > 0 || first; first = false {
		if seen[off] || off <= 0 || off >= int64(len(data)) || len(seen) > 4096 {
			if first {
				return nil, errNotLazy
			}
			break
		}
		seen[off] = true
		lz.sectionNo++
		trailer, err := lz.section(off)
		if err != nil {
			return nil, errNotLazy
		}
		if first {
			if trailer["Encrypt"] != nil {
				return nil, errNotLazy
			}
			if r, ok := trailer["Root"].(types.IndirectRef); ok {
				x.Root = &r
			}
			if r, ok := trailer["Info"].(types.IndirectRef); ok {
				x.Info = &r
			}
			if a, ok := trailer["ID"].(types.Array); ok {
				x.ID = a
			}
		}
		// A hybrid file's cross-reference stream adds to its table.
		if n, ok := trailer["XRefStm"].(types.Integer); ok && !seen[int64(n)] {
			seen[int64(n)] = true
			if _, err := lz.section(int64(n)); err != nil {
				return nil, errNotLazy
			}
		}
		p, ok := trailer["Prev"].(types.Integer)
		if !ok {
			break
		}
		off = int64(p)
	}
	if x.Root == nil {
		return nil, errNotLazy
	}
	f := &pdfFile{x: x, fonts: map[string]*font{}, lazy: lz}
	root := f.root()
	if root == nil {
		return nil, errNotLazy
	}
	// As pdfcpu does: from 1.4 on, the catalog's Version overrides the
	// header's.
	if n := f.name(root["Version"]); n != "" && v >= model.V14 {
		rv, err := model.PDFVersion(n)
		if err != nil {
			rv, err = model.PDFVersionRelaxed(n)
		}
		if err == nil {
			x.RootVersion = &rv
		}
	}
	return f, nil
}

func headerVersion(data []byte) (model.Version, error) {
	i := bytes.Index(data[:min(len(data), 1024)], []byte("%PDF-"))
	if i < 0 || i+8 > len(data) {
		return 0, errNotLazy
	}
	return model.PDFVersion(string(data[i+5 : i+8]))
}

// startXRef is the offset the file's last startxref gives.
func startXRef(data []byte) (int64, error) {
	tail := data[max(0, len(data)-2048):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return 0, errNotLazy
	}
	f := bytes.Fields(tail[i+len("startxref"):])
	if len(f) == 0 {
		return 0, errNotLazy
	}
	return strconv.ParseInt(string(f[0]), 10, 64)
}

// add records an entry unless a newer section did.
func (lz *lazyFile) add(n int, e *model.XRefTableEntry) {
	if n < 0 || n > 8_000_000 {
		return
	}
	if old, ok := lz.ctx.XRefTable.Table[n]; ok && !(old.Free && lz.from[n] == lz.sectionNo) {
		return
	}
	lz.ctx.XRefTable.Table[n] = e
	lz.from[n] = lz.sectionNo
	if n > lz.ctx.MaxObjNr {
		lz.ctx.MaxObjNr = n
	}
}

// section reads the cross-reference section at off, a table or a stream,
// and returns its trailer.
func (lz *lazyFile) section(off int64) (d types.Dict, err error) {
	defer func() {
		if err == nil && len(lz.ctx.XRefTable.Table) > maxObjects {
			d, err = nil, errNotLazy
		}
	}()
	b := lz.data[off:]
	i := 0
	for i < len(b) && isWhiteByte(b[i]) {
		i++
	}
	if bytes.HasPrefix(b[i:], []byte("xref")) {
		return lz.table(b[i+4:])
	}
	// "n g obj": a cross-reference stream.
	f := bytes.Fields(b[i:min(len(b), i+40)])
	if len(f) < 3 || !bytes.HasPrefix(f[2], []byte("obj")) {
		return nil, errNotLazy
	}
	n, err1 := strconv.Atoi(string(f[0]))
	g, err2 := strconv.Atoi(string(f[1]))
	if err1 != nil || err2 != nil {
		return nil, errNotLazy
	}
	o, err := pdfcpu.ParseObjectWithContext(context.Background(), lz.ctx, off+int64(i), n, g)
	if err != nil {
		return nil, err
	}
	sd, ok := o.(types.StreamDict)
	if !ok || sd.Type() == nil || *sd.Type() != "XRef" {
		return nil, errNotLazy
	}
	if err := lz.load(&sd); err != nil {
		return nil, err
	}
	if err := sd.DecodeWithLimit(maxDecoded); err != nil {
		return nil, err
	}
	w, _ := sd.Dict["W"].(types.Array)
	if len(w) != 3 {
		return nil, errNotLazy
	}
	var ws [3]int
	for k := range ws {
		v, ok := w[k].(types.Integer)
		if !ok || v < 0 || v > 8 {
			return nil, errNotLazy
		}
		ws[k] = int(v)
	}
	size, _ := sd.Dict["Size"].(types.Integer)
	index := []int{0, int(size)}
	if a, ok := sd.Dict["Index"].(types.Array); ok {
		index = index[:0]
		for _, v := range a {
			n, ok := v.(types.Integer)
			if !ok {
				return nil, errNotLazy
			}
			index = append(index, int(n))
		}
	}
	row := ws[0] + ws[1] + ws[2]
	c := sd.Content
	field := func(p []byte, def int64) int64 {
		if len(p) == 0 {
			return def
		}
		var v int64
		for _, x := range p {
			v = v<<8 | int64(x)
		}
		return v
	}
	at := 0
	for k := 0; k+1 < len(index); k += 2 {
		for j := 0; j < index[k+1]; j++ {
			if row == 0 || at+row > len(c) {
				break
			}
			r := c[at : at+row]
			at += row
			t := field(r[:ws[0]], 1)
			f2 := field(r[ws[0]:ws[0]+ws[1]], 0)
			f3 := field(r[ws[0]+ws[1]:], 0)
			n := index[k] + j
			switch t {
			case 0:
				lz.add(n, &model.XRefTableEntry{Free: true})
			case 1:
				o, g := f2, int(f3)
				lz.add(n, &model.XRefTableEntry{Offset: &o, Generation: &g})
			case 2:
				s, idx, g := int(f2), int(f3), 0
				lz.add(n, &model.XRefTableEntry{Compressed: true, ObjectStream: &s, ObjectStreamInd: &idx, Generation: &g})
			}
		}
	}
	return sd.Dict, nil
}

// table reads a classic cross-reference table and its trailer.
func (lz *lazyFile) table(b []byte) (types.Dict, error) {
	pos := 0
	line := func() []byte {
		for pos < len(b) && isWhiteByte(b[pos]) {
			pos++
		}
		s := pos
		for pos < len(b) && b[pos] != '\n' && b[pos] != '\r' {
			pos++
		}
		return bytes.TrimSpace(b[s:pos])
	}
	for {
		save := pos
		l := line()
		if bytes.HasPrefix(l, []byte("trailer")) {
			pos = save
			for pos < len(b) && !bytes.HasPrefix(b[pos:], []byte("trailer")) {
				pos++
			}
			pos += len("trailer")
			end := bytes.Index(b[pos:], []byte("startxref"))
			if end < 0 {
				end = min(len(b)-pos, 1<<16)
			}
			s := string(withoutComments(b[pos : pos+end]))
			o, err := model.ParseObject(&s)
			if err != nil {
				return nil, err
			}
			d, ok := o.(types.Dict)
			if !ok {
				return nil, errNotLazy
			}
			return d, nil
		}
		f := bytes.Fields(l)
		if len(f) != 2 {
			return nil, errNotLazy
		}
		start, err1 := strconv.Atoi(string(f[0]))
		count, err2 := strconv.Atoi(string(f[1]))
		if err1 != nil || err2 != nil || count < 0 || start < 0 || count > len(b)/18+1 {
			return nil, errNotLazy
		}
		for k := 0; k < count; k++ {
			e := bytes.Fields(line())
			if len(e) < 3 || len(e[2]) != 1 {
				return nil, errNotLazy
			}
			o, err1 := strconv.ParseInt(string(e[0]), 10, 64)
			g, err2 := strconv.Atoi(string(e[1]))
			if err1 != nil || err2 != nil {
				return nil, errNotLazy
			}
			n := start + k
			switch e[2][0] {
			case 'n':
				if o == 0 {
					// A writer's "in use at 0" stands for a free entry.
					lz.add(n, &model.XRefTableEntry{Free: true})
					continue
				}
				lz.add(n, &model.XRefTableEntry{Offset: &o, Generation: &g})
			case 'f':
				lz.add(n, &model.XRefTableEntry{Free: true})
			default:
				return nil, errNotLazy
			}
		}
	}
}

// withoutComments drops PDF comments (% to the end of the line, outside
// strings), which writers put in trailers and pdfcpu's object parser does
// not take.
func withoutComments(b []byte) []byte {
	if bytes.IndexByte(b, '%') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	depth := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case depth > 0 && c == '\\' && i+1 < len(b):
			out = append(out, c, b[i+1])
			i++
			continue
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == '%' && depth == 0:
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
			out = append(out, '\n')
			continue
		}
		out = append(out, c)
	}
	return out
}

func isWhiteByte(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

// object parses object n when it is first asked for; nil when it cannot
// be.
func (lz *lazyFile) object(n int, e *model.XRefTableEntry) types.Object {
	if lz.loading[n] || len(lz.loading) > 64 {
		return nil
	}
	lz.loading[n] = true
	defer delete(lz.loading, n)
	var o types.Object
	if e.Compressed {
		if e.ObjectStream == nil || e.ObjectStreamInd == nil {
			return nil
		}
		objs := lz.objectStream(*e.ObjectStream)
		if k := *e.ObjectStreamInd; k >= 0 && k < len(objs) {
			o = objs[k]
		}
	} else {
		if e.Offset == nil || *e.Offset <= 0 || *e.Offset >= int64(len(lz.data)) {
			return nil
		}
		g := 0
		if e.Generation != nil {
			g = *e.Generation
		}
		var err error
		if o, err = pdfcpu.ParseObjectWithContext(context.Background(), lz.ctx, *e.Offset, n, g); err != nil {
			return nil
		}
		if sd, ok := o.(types.StreamDict); ok {
			if lz.load(&sd) != nil {
				return nil
			}
			o = sd
		}
	}
	e.Object = o
	return o
}

// load sets a stream's raw bytes, by its Length when the file's bytes
// agree, else up to its endstream.
func (lz *lazyFile) load(sd *types.StreamDict) error {
	if sd.StreamOffset <= 0 || sd.StreamOffset > int64(len(lz.data)) {
		return errNotLazy
	}
	rest := lz.data[sd.StreamOffset:]
	n := int64(-1)
	if sd.StreamLength != nil {
		n = *sd.StreamLength
	} else if sd.StreamLengthObjNr != nil {
		if e := lz.ctx.XRefTable.Table[*sd.StreamLengthObjNr]; e != nil && !e.Free {
			o := e.Object
			if o == nil {
				o = lz.object(*sd.StreamLengthObjNr, e)
			}
			if v, ok := o.(types.Integer); ok {
				n = int64(v)
			}
		}
	}
	if n >= 0 && n <= int64(len(rest)) {
		tail := bytes.TrimLeft(rest[n:min(int64(len(rest)), n+32)], " \r\n\t\f\x00")
		if bytes.HasPrefix(tail, []byte("endstream")) {
			sd.Raw = rest[:n]
			return nil
		}
	}
	end := bytes.Index(rest, []byte("endstream"))
	if end < 0 {
		return errNotLazy
	}
	raw := rest[:end]
	if bytes.HasSuffix(raw, []byte("\r\n")) {
		raw = raw[:len(raw)-2]
	} else if bytes.HasSuffix(raw, []byte("\n")) || bytes.HasSuffix(raw, []byte("\r")) {
		raw = raw[:len(raw)-1]
	}
	sd.Raw = raw
	l := int64(len(raw))
	sd.StreamLength = &l
	return nil
}

// objectStream is object stream n's objects, parsed once.
func (lz *lazyFile) objectStream(n int) []types.Object {
	if objs, ok := lz.objStm[n]; ok {
		return objs
	}
	lz.objStm[n] = nil
	e := lz.ctx.XRefTable.Table[n]
	if e == nil || e.Free || e.Compressed {
		return nil
	}
	o := e.Object
	if o == nil {
		o = lz.object(n, e)
	}
	sd, ok := o.(types.StreamDict)
	if !ok {
		return nil
	}
	if err := sd.DecodeWithLimit(maxDecoded); err != nil {
		return nil
	}
	count, _ := sd.Dict["N"].(types.Integer)
	first, _ := sd.Dict["First"].(types.Integer)
	c := sd.Content
	if count <= 0 || first <= 0 || int(first) > len(c) || int(count) > len(c) {
		return nil
	}
	head := bytes.Fields(c[:first])
	var offs []int
	for k := 1; k < len(head) && len(offs) < int(count); k += 2 {
		v, err := strconv.Atoi(string(head[k]))
		if err != nil || v < 0 || int(first)+v > len(c) {
			return nil
		}
		offs = append(offs, int(first)+v)
	}
	objs := make([]types.Object, len(offs))
	for k, at := range offs {
		end := len(c)
		if k+1 < len(offs) && offs[k+1] >= at {
			end = offs[k+1]
		}
		s := string(c[at:end])
		if o, err := model.ParseObject(&s); err == nil {
			objs[k] = o
		}
	}
	lz.objStm[n] = objs
	return objs
}

// refGraph is, for each object in use, the objects it names, read from
// its bytes without parsing it: what unreferenced needs of every object.
func (lz *lazyFile) refGraph() map[int][]int {
	x := lz.ctx.XRefTable
	type at struct {
		n   int
		off int64
	}
	var offs []at
	for n, e := range x.Table {
		if e != nil && !e.Free && !e.Compressed && e.Offset != nil && *e.Offset > 0 && *e.Offset < int64(len(lz.data)) {
			offs = append(offs, at{n, *e.Offset})
		}
	}
	slices.SortFunc(offs, func(a, b at) int { return int(a.off - b.off) })
	out := map[int][]int{}
	for k, o := range offs {
		end := int64(len(lz.data))
		if k+1 < len(offs) {
			end = offs[k+1].off
		}
		b := lz.data[o.off:end]
		// A stream's data names nothing, nor does what follows endobj
		// (a cross-reference table, a trailer).
		if i := bytes.Index(b, []byte("endobj")); i >= 0 {
			b = b[:i]
		}
		if i := bytes.Index(b, []byte("stream")); i >= 0 {
			b = b[:i]
		}
		out[o.n] = refsIn(b)
	}
	for n, e := range x.Table {
		if e == nil || e.Free || !e.Compressed || e.ObjectStream == nil || e.ObjectStreamInd == nil {
			continue
		}
		if o := lz.objectStream(*e.ObjectStream); *e.ObjectStreamInd < len(o) && o[*e.ObjectStreamInd] != nil {
			out[n] = refsOf(o[*e.ObjectStreamInd], nil, 0)
		}
	}
	return out
}

// refsIn finds "n g R" in PDF syntax.
func refsIn(b []byte) []int {
	var out []int
	for i := 0; i < len(b); i++ {
		if b[i] != 'R' || (i+1 < len(b) && !isWhiteByte(b[i+1]) && !isDelimByte(b[i+1])) {
			continue
		}
		j := i - 1
		for j >= 0 && isWhiteByte(b[j]) {
			j--
		}
		g := j
		for j >= 0 && b[j] >= '0' && b[j] <= '9' {
			j--
		}
		if j == g || j < 0 || !isWhiteByte(b[j]) {
			continue
		}
		for j >= 0 && isWhiteByte(b[j]) {
			j--
		}
		e := j
		for j >= 0 && b[j] >= '0' && b[j] <= '9' {
			j--
		}
		if j == e || (j >= 0 && !isWhiteByte(b[j]) && !isDelimByte(b[j])) {
			continue
		}
		if n, err := strconv.Atoi(string(b[j+1 : e+1])); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func isDelimByte(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// refsOf lists the references in a parsed object.
func refsOf(o types.Object, out []int, depth int) []int {
	if depth > 100 {
		return out
	}
	switch v := o.(type) {
	case types.IndirectRef:
		out = append(out, v.ObjectNumber.Value())
	case types.Dict:
		for _, x := range v {
			out = refsOf(x, out, depth+1)
		}
	case types.StreamDict:
		for _, x := range v.Dict {
			out = refsOf(x, out, depth+1)
		}
	case types.Array:
		for _, x := range v {
			out = refsOf(x, out, depth+1)
		}
	}
	return out
}
