package integrity

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// revision is one state of the file: the bytes up to one %%EOF that ends a
// cross-reference section of the chain.
type revision struct {
	end  int  // the revision's length in bytes
	xref int  // where its last cross-reference section starts
	prev bool // its trailer points back to an earlier section (/Prev)
}

var startxref = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF`) })

var prevKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/Prev\s+(\d+)`) })

// revisions walks the file's cross-reference chain: every "startxref N
// %%EOF" ends a revision whose section at N names the one before it with
// /Prev. A linearised file's first-page section is no revision of its
// own: it and the main section are one save.
func revisions(data []byte) []revision {
	var out []revision
	for _, m := range startxref().FindAllSubmatchIndex(data, -1) {
		n, err := strconv.Atoi(string(data[m[2]:m[3]]))
		if err != nil || n < 0 || n >= len(data) {
			continue
		}
		end := m[1]
		for end < len(data) && (data[end] == '\r' || data[end] == '\n') {
			end++
		}
		r := revision{end: end, xref: n}
		// The section's trailer (or stream dictionary) is within its first
		// few KB after the table; /Prev there chains to the previous one.
		head := data[n:min(len(data), m[0])]
		if i := bytes.Index(head, []byte("trailer")); i >= 0 {
			head = head[i:]
		}
		r.prev = prevKey().Match(head[:min(len(head), 4096)])
		out = append(out, r)
	}
	if linearized(data) && len(out) > 1 {
		out = out[1:]
	}
	return out
}

var linearizedDict = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*%PDF-[\d.]+[^\n\r]*[\r\n]+(%[^\n\r]*[\r\n]+)*\s*\d+\s+\d+\s+obj\s*<<[^>]*/Linearized`)
})

func linearized(data []byte) bool {
	return linearizedDict().Match(data[:min(len(data), 1024)])
}

// meta is what the file says of itself in its Info dictionary and its XMP.
type meta struct {
	producer, creator, created, modified          string
	xmpProducer, xmpCreator, xmpCreated, xmpModif string
	history                                       []string // XMP history: each "action by agent"
	hasXMP                                        bool
}

func (f *pdfFile) meta() meta {
	var m meta
	if info := f.info(); info != nil {
		m.producer = strings.TrimSpace(f.text(info["Producer"]))
		m.creator = strings.TrimSpace(f.text(info["Creator"]))
		m.created = f.text(info["CreationDate"])
		m.modified = f.text(info["ModDate"])
	}
	if root := f.root(); root != nil {
		if x := f.stream(root["Metadata"]); x != nil {
			m.hasXMP = true
			m.xmpProducer = xmpValue(x, "pdf:Producer")
			m.xmpCreator = xmpValue(x, "xmp:CreatorTool")
			m.xmpCreated = xmpValue(x, "xmp:CreateDate")
			m.xmpModif = xmpValue(x, "xmp:ModifyDate")
			for _, h := range xmpHistory().FindAllSubmatch(x, 64) {
				m.history = append(m.history, string(h[1])+" by "+string(h[2]))
			}
		}
	}
	return m
}

var xmpHistory = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)stEvt:action(?:="|>)([^"<]*)["<].*?stEvt:softwareAgent(?:="|>)([^"<]*)["<]`)
})

// xmpValue reads a simple property, written as an attribute or an element.
func xmpValue(x []byte, key string) string {
	re := regexp.MustCompile(regexp.QuoteMeta(key) + `(?:\s*=\s*"([^"]*)"|>(?:\s*<rdf:Alt>\s*<rdf:li[^>]*>)?([^<]*)<)`)
	m := re.FindSubmatch(x)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(string(m[1]) + string(m[2]))
}

// signatures are the byte ranges the file's signatures cover, as the end
// of each (a signature covers the file up to its second range's end). A
// signature is the value of a signature field of the form (AcroForm), or
// a DocMDP or UR3 permission the catalog names.
func (f *pdfFile) signatures() []int {
	var out []int
	seen := map[int]bool{}
	visits := 0
	add := func(o types.Object) {
		d, _ := f.dict(o)
		if d == nil {
			return
		}
		br, _ := f.array(d["ByteRange"])
		if len(br) != 4 {
			return
		}
		a, _ := f.num(br[2])
		b, _ := f.num(br[3])
		if e := int(a + b); e > 0 && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	var field func(o types.Object, depth int)
	field = func(o types.Object, depth int) {
		if r, ok := o.(types.IndirectRef); ok {
			if seen[r.ObjectNumber.Value()] {
				return
			}
			seen[r.ObjectNumber.Value()] = true
		}
		visits++
		d, _ := f.dict(o)
		if d == nil || depth > 32 || visits > 10_000 {
			return
		}
		add(d["V"])
		kids, _ := f.array(d["Kids"])
		for _, k := range kids {
			field(k, depth+1)
		}
	}
	root := f.root()
	if form, _ := f.dict(root["AcroForm"]); form != nil {
		fields, _ := f.array(form["Fields"])
		for _, o := range fields {
			field(o, 0)
		}
	}
	if perms, _ := f.dict(root["Perms"]); perms != nil {
		for _, o := range perms {
			add(o)
		}
	}
	return out
}

// unreferenced counts objects in use that nothing else refers to. A lazy
// read finds each object's references in its bytes, without parsing it.
func (f *pdfFile) unreferenced() int {
	var graph map[int][]int
	if f.lazy != nil {
		graph = f.lazy.refGraph()
	}
	used := map[int]bool{}
	var mark func(o types.Object, depth int)
	mark = func(o types.Object, depth int) {
		if depth > 200 {
			return
		}
		switch v := o.(type) {
		case types.IndirectRef:
			n := v.ObjectNumber.Value()
			if used[n] {
				return
			}
			used[n] = true
			if graph != nil {
				for _, k := range graph[n] {
					mark(types.IndirectRef{ObjectNumber: types.Integer(k)}, depth+1)
				}
				return
			}
			mark(f.object(n), depth+1)
		case types.Dict:
			for _, x := range v {
				mark(x, depth+1)
			}
		case types.StreamDict:
			for _, x := range v.Dict {
				mark(x, depth+1)
			}
		case types.Array:
			for _, x := range v {
				mark(x, depth+1)
			}
		}
	}
	if f.x.Root != nil {
		mark(*f.x.Root, 0)
	}
	if f.x.Info != nil {
		mark(*f.x.Info, 0)
	}
	if f.x.Encrypt != nil {
		mark(*f.x.Encrypt, 0)
	}
	n := 0
	for nr, e := range f.x.Table {
		if e == nil || e.Free || nr == 0 || used[nr] {
			continue
		}
		switch o := f.object(nr).(type) {
		case types.ObjectStreamDict, types.XRefStreamDict:
			continue
		case types.StreamDict:
			if t := f.name(o.Dict["Type"]); t == "XRef" || t == "ObjStm" || t == "Metadata" {
				continue
			}
		case types.Dict:
			if f.name(o["Type"]) == "Sig" || o["Linearized"] != nil {
				continue
			}
		}
		n++
	}
	return n
}
