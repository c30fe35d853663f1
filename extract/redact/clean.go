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
}

// catalogDrops are the catalog's entries a copy leaves out: what may
// hold words of the client's (metadata, bookmarks, form fields, names
// of attachments and scripts, the structure tree's alternate texts) or
// run on opening.
var catalogDrops = []string{"Metadata", "AcroForm", "Names", "Dests", "OpenAction", "AA", "Outlines", "Threads",
	"StructTreeRoot", "MarkInfo", "PieceInfo", "SpiderInfo", "Perms", "Legal", "URI", "Collection", "PageLabels", "Extensions", "OCProperties"}

// pageDrops are a page's entries a copy leaves out.
var pageDrops = []string{"Annots", "Metadata", "Thumb", "PieceInfo", "AA", "B", "StructParents", "Trans", "ID", "PZ", "SeparationInfo", "VP", "AF"}

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
