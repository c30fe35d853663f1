package integrity

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// maxDecoded bounds one stream's decoded bytes: the report reads content
// streams and fonts, never images, and a bomb fails the report, not the
// conversion.
const maxDecoded = 16 << 20

// maxPages bounds the pages whose contents the report walks.
const maxPages = 2000

// pdfFile is one revision of a PDF as pdfcpu reads it: the objects its
// xref chain reaches, newest definition first.
type pdfFile struct {
	x     *model.XRefTable
	pages []pageObj
	fonts map[string]*font // by the font dictionary's object number, or its place when direct
	// lazy parses objects as they are asked for (lazy.go); nil when
	// pdfcpu read them all.
	lazy *lazyFile
	// lastGlyphs is how many glyphs the page read last drew.
	lastGlyphs int
}

// pageObj is a page dictionary with what it inherits.
type pageObj struct {
	dict     types.Dict
	ref      int // object number; 0 when direct
	res      types.Dict
	box      [4]float64 // the visible box (CropBox within MediaBox), PDF units, bottom-left origin
	rotate   int
	contents []int // object numbers of the content streams
}

var configOnce sync.Once

// readPDF reads data with pdfcpu, lazily unless whole (lazy.go). pdfcpu
// keeps a configuration file in the user's directory unless told not to:
// the report writes nothing.
func readPDF(data []byte, password string, whole bool) (f *pdfFile, err error) {
	configOnce.Do(func() { model.ConfigPath = "disable" })
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("pdfcpu: %v", r)
		}
	}()
	err = errNotLazy
	if !whole {
		f, err = readLazy(data)
	}
	if err != nil {
		conf := model.NewDefaultConfiguration()
		conf.ValidationMode = model.ValidationRelaxed
		conf.UserPW, conf.OwnerPW = password, password
		conf.Limits.MaxDecodeBytes = maxDecoded
		ctx, err := pdfcpu.Read(bytes.NewReader(data), conf)
		if err != nil {
			return nil, err
		}
		f = &pdfFile{x: ctx.XRefTable, fonts: map[string]*font{}}
	}
	root := f.root()
	if root == nil {
		return nil, fmt.Errorf("no catalog")
	}
	seen := map[int]bool{}
	f.walkPages(root["Pages"], nil, nil, nil, 0, seen, 0)
	return f, nil
}

// walkPages collects the page tree's leaves in order, with inherited
// resources, boxes and rotation; a loop or a deep tree stops the walk.
func (f *pdfFile) walkPages(o types.Object, res types.Dict, media, crop []float64, rot int, seen map[int]bool, depth int) {
	if depth > 64 || len(f.pages) >= maxPages {
		return
	}
	ref := 0
	if r, ok := o.(types.IndirectRef); ok {
		ref = r.ObjectNumber.Value()
		if seen[ref] {
			return
		}
		seen[ref] = true
	}
	d, _ := f.dict(o)
	if d == nil {
		return
	}
	if r, _ := f.dict(d["Resources"]); r != nil {
		res = r
	}
	if b := f.rect(d["MediaBox"]); b != nil {
		media = b
	}
	if b := f.rect(d["CropBox"]); b != nil {
		crop = b
	}
	if v, ok := f.num(d["Rotate"]); ok {
		rot = int(v)
	}
	if kids, _ := f.array(d["Kids"]); kids != nil || f.name(d["Type"]) == "Pages" {
		for _, k := range kids {
			f.walkPages(k, res, media, crop, rot, seen, depth+1)
		}
		return
	}
	p := pageObj{dict: d, ref: ref, res: res, rotate: ((rot % 360) + 360) % 360}
	box := media
	if box == nil {
		box = []float64{0, 0, 612, 792}
	}
	if crop != nil {
		box = []float64{max(box[0], crop[0]), max(box[1], crop[1]), min(box[2], crop[2]), min(box[3], crop[3])}
	}
	copy(p.box[:], box)
	switch c := d["Contents"].(type) {
	case types.IndirectRef:
		if a, _ := f.x.Dereference(c); a != nil {
			if arr, ok := a.(types.Array); ok {
				p.contents = refs(arr)
				break
			}
		}
		p.contents = []int{c.ObjectNumber.Value()}
	case types.Array:
		p.contents = refs(c)
	}
	f.pages = append(f.pages, p)
}

func refs(a types.Array) []int {
	var out []int
	for _, o := range a {
		if r, ok := o.(types.IndirectRef); ok {
			out = append(out, r.ObjectNumber.Value())
		}
	}
	return out
}

func (f *pdfFile) deref(o types.Object) types.Object {
	for i := 0; i < 8; i++ {
		r, ok := o.(types.IndirectRef)
		if !ok {
			return o
		}
		if f.lazy != nil {
			e := f.x.Table[r.ObjectNumber.Value()]
			if e == nil || e.Free {
				return nil
			}
			if e.Object == nil {
				f.lazy.object(r.ObjectNumber.Value(), e)
			}
			o = e.Object
			continue
		}
		// Dereference also parses an object kept in an object stream.
		v, err := f.x.Dereference(o)
		if err != nil {
			return nil
		}
		o = v
	}
	return nil
}

// object is object number n, parsed.
func (f *pdfFile) object(n int) types.Object {
	return f.deref(types.IndirectRef{ObjectNumber: types.Integer(n)})
}

func (f *pdfFile) dict(o types.Object) (types.Dict, bool) {
	switch v := f.deref(o).(type) {
	case types.Dict:
		return v, true
	case types.StreamDict:
		return v.Dict, true
	}
	return nil, false
}

func (f *pdfFile) array(o types.Object) (types.Array, bool) {
	a, ok := f.deref(o).(types.Array)
	return a, ok
}

func (f *pdfFile) num(o types.Object) (float64, bool) {
	switch v := f.deref(o).(type) {
	case types.Integer:
		return float64(v), true
	case types.Float:
		return float64(v), true
	}
	return 0, false
}

func (f *pdfFile) name(o types.Object) string {
	if n, ok := f.deref(o).(types.Name); ok {
		return string(n)
	}
	return ""
}

// text is a string object's text: PDFDocEncoding or UTF-16.
func (f *pdfFile) text(o types.Object) string {
	switch v := f.deref(o).(type) {
	case types.StringLiteral:
		s, err := types.StringLiteralToString(v)
		if err == nil {
			return s
		}
	case types.HexLiteral:
		s, err := types.HexLiteralToString(v)
		if err == nil {
			return s
		}
	}
	return ""
}

// raw is a string object's bytes.
func (f *pdfFile) raw(o types.Object) []byte {
	switch v := f.deref(o).(type) {
	case types.StringLiteral:
		b, err := types.Unescape(string(v))
		if err == nil {
			return b
		}
	case types.HexLiteral:
		b, err := v.Bytes()
		if err == nil {
			return b
		}
	}
	return nil
}

func (f *pdfFile) rect(o types.Object) []float64 {
	a, _ := f.array(o)
	if len(a) != 4 {
		return nil
	}
	r := make([]float64, 4)
	for i := range a {
		v, ok := f.num(a[i])
		if !ok {
			return nil
		}
		r[i] = v
	}
	if r[0] > r[2] {
		r[0], r[2] = r[2], r[0]
	}
	if r[1] > r[3] {
		r[1], r[3] = r[3], r[1]
	}
	return r
}

// stream is a stream object's decoded bytes; nil when it cannot be decoded
// within maxDecoded.
func (f *pdfFile) stream(o types.Object) []byte {
	var sd types.StreamDict
	switch v := f.deref(o).(type) {
	case types.StreamDict:
		sd = v
	default:
		return nil
	}
	if sd.Content != nil {
		return sd.Content
	}
	if err := sd.DecodeWithLimit(maxDecoded); err != nil {
		return nil
	}
	return sd.Content
}

// streamDict is a stream's dictionary and decoded bytes.
func (f *pdfFile) streamDict(o types.Object) (types.Dict, []byte, bool) {
	sd, ok := f.deref(o).(types.StreamDict)
	if !ok {
		return nil, nil, false
	}
	return sd.Dict, f.stream(sd), true
}

// content is a page's content streams joined, with where each starts.
func (f *pdfFile) content(p pageObj) ([]byte, []span) {
	var b []byte
	var spans []span
	for _, n := range p.contents {
		spans = append(spans, span{obj: n, start: len(b)})
		b = append(b, f.stream(types.IndirectRef{ObjectNumber: types.Integer(n)})...)
		b = append(b, '\n')
	}
	return b, spans
}

// root is the catalog; info the Info dictionary (nil when absent).
func (f *pdfFile) root() types.Dict {
	if f.x.Root == nil {
		return nil
	}
	d, _ := f.dict(*f.x.Root)
	return d
}

func (f *pdfFile) info() types.Dict {
	if f.x.Info == nil {
		return nil
	}
	d, _ := f.dict(*f.x.Info)
	return d
}
