package redact

import (
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Removed lists what a copy leaves out of the original, for the sidecar
// and the docs.
var Removed = []string{
	"metadata (the Info dictionary's entries, XMP)", "document ids", "earlier revisions",
	"annotations and form fields", "attachments", "JavaScript and open actions", "thumbnails",
	"bookmarks", "the structure tree and marked-content text (ActualText, Alt)", "encryption",
	"pictures other than a logo at the top of a page (painted over)",
}

// catalogDrops are the catalog's entries a copy leaves out: what may
// hold words of the client's (metadata, bookmarks, form fields, names
// of attachments and scripts, the structure tree's alternate texts) or
// run on opening.
var catalogDrops = []string{"Metadata", "AcroForm", "Names", "Dests", "OpenAction", "AA", "Outlines", "Threads",
	"StructTreeRoot", "MarkInfo", "PieceInfo", "SpiderInfo", "Perms", "Legal", "URI", "Collection", "PageLabels", "Extensions", "OCProperties"}

// pageDrops are a page's entries a copy leaves out.
var pageDrops = []string{"Annots", "Metadata", "Thumb", "PieceInfo", "AA", "B", "StructParents", "Trans", "ID", "PZ", "SeparationInfo", "VP", "AF"}

// isLogo reports an image drawn as a bank's logo is: in the top fifth
// of its page, narrower than half of it.
func isLogo(im drawnImage, pageW, pageH float64) bool {
	return im.y1 <= pageH/5 && im.x1-im.x0 < pageW/2
}

// paintImages replaces every image drawn on a page, but a logo, by one
// white pixel filling the same place: a signature, a cheque's scan or a
// photo of the client goes, the page's layout stays. An image drawn as
// a logo somewhere and elsewhere not is painted.
func (r *redactor) paintImages(sizes [][2]float64) {
	paint := map[int]bool{}
	for _, im := range r.in.images {
		if im.page < len(sizes) && !isLogo(im, sizes[im.page][0], sizes[im.page][1]) {
			paint[im.nr] = true
		}
	}
	for nr := range paint {
		e, ok := r.ctx.Table[nr]
		if !ok || e == nil {
			continue
		}
		d := types.NewDict()
		d.InsertName("Type", "XObject")
		d.InsertName("Subtype", "Image")
		d.InsertInt("Width", 1)
		d.InsertInt("Height", 1)
		d.InsertName("ColorSpace", "DeviceGray")
		d.InsertInt("BitsPerComponent", 8)
		sd := types.StreamDict{Dict: d, Raw: []byte{0xff}, Content: []byte{0xff}}
		e.Object = sd
	}
	r.painted = len(paint)
}

// clean strips the document of everything but its pages' drawing.
func (r *redactor) clean(pages []types.Dict, pageStreams []*stream) error {
	ctx := r.ctx
	for _, k := range catalogDrops {
		ctx.RootDict.Delete(k)
	}
	for _, d := range pages {
		for _, k := range pageDrops {
			d.Delete(k)
		}
	}
	// Marked content is gone from every stream: so are the properties
	// its operators named.
	for _, s := range append(pageStreams, r.in.order...) {
		if s.res != nil {
			s.res.Delete("Properties")
		}
	}
	for _, s := range r.in.order {
		if s.form != nil {
			for _, k := range []string{"Metadata", "PieceInfo", "StructParent", "StructParents", "OC", "AF"} {
				s.form.Delete(k)
			}
		}
	}
	// Images' metadata, and forms and images not drawn as a page's
	// content but reached from resources.
	for nr, e := range ctx.Table {
		if e == nil || e.Free {
			continue
		}
		if sd, ok := e.Object.(types.StreamDict); ok {
			if st := sd.NameEntry("Subtype"); st != nil && (*st == "Image" || *st == "Form") {
				sd.Delete("Metadata")
				sd.Delete("PieceInfo")
				ctx.Table[nr].Object = sd
			}
		}
	}
	// The Info dictionary, ids, the encryption dictionary and earlier
	// revisions are not written at all (see write): only what the
	// catalog reaches, in one revision.
	return nil
}
