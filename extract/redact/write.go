package redact

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// write serializes the objects the catalog reaches, and only those, as
// one revision with a fresh id and no Info dictionary. pdfcpu's own
// writer walks the document by the kinds of objects it knows, and left
// out some it did not (an Indexed colour space's lookup stream, an OCG's
// Intent); this walks every reference, whatever holds it.
func (r *redactor) write() ([]byte, error) {
	ctx := r.ctx
	reached := map[int]bool{}
	var walk func(o types.Object)
	walk = func(o types.Object) {
		switch v := o.(type) {
		case types.IndirectRef:
			n := v.ObjectNumber.Value()
			if reached[n] {
				return
			}
			// Dereference decodes an object stream's objects on demand.
			obj, err := ctx.Dereference(v)
			e, ok := ctx.Table[n]
			if err != nil || obj == nil || !ok || e == nil || e.Free {
				return
			}
			reached[n] = true
			walk(obj)
		case types.Dict:
			for _, x := range v {
				walk(x)
			}
		case types.Array:
			for _, x := range v {
				walk(x)
			}
		case types.StreamDict:
			for k, x := range v.Dict {
				if k != "Length" {
					walk(x)
				}
			}
		}
	}
	if ctx.Root == nil {
		return nil, fmt.Errorf("no catalog")
	}
	walk(*ctx.Root)
	nums := slices.Sorted(func(yield func(int) bool) {
		for n := range reached {
			if !yield(n) {
				return
			}
		}
	})
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets, gens := map[int]int{}, map[int]int{}
	for _, n := range nums {
		e := ctx.Table[n]
		offsets[n] = b.Len()
		if e.Generation != nil {
			gens[n] = *e.Generation
		}
		fmt.Fprintf(&b, "%d %d obj\n", n, gens[n])
		switch v := e.Object.(type) {
		case types.StreamDict:
			if v.Raw == nil && v.Content == nil {
				return nil, fmt.Errorf("object %d: a stream pdfcpu did not load", n)
			}
			if v.Raw == nil && v.Content != nil {
				if err := v.Encode(); err != nil {
					return nil, fmt.Errorf("object %d: %w", n, err)
				}
			}
			d := v.Dict.Clone().(types.Dict)
			d.Update("Length", types.Integer(len(v.Raw)))
			d.Delete("DL")
			b.WriteString(d.PDFString())
			b.WriteString("\nstream\n")
			b.Write(v.Raw)
			b.WriteString("\nendstream")
		default:
			b.WriteString(e.Object.PDFString())
		}
		b.WriteString("\nendobj\n")
	}
	size := 1
	if len(nums) > 0 {
		size = nums[len(nums)-1] + 1
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n", size)
	for n := 0; n < size; n++ {
		if off, ok := offsets[n]; ok {
			fmt.Fprintf(&b, "%010d %05d n \n", off, gens[n])
		} else {
			b.WriteString("0000000000 65535 f \n")
		}
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	fmt.Fprintf(&b, "trailer\n<</Size %d /Root %d 0 R /ID [<%X> <%X>]>>\nstartxref\n%d\n%%%%EOF\n", size, ctx.Root.ObjectNumber.Value(), id, id, xref)
	return b.Bytes(), nil
}
