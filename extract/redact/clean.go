package redact

import (
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
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
	"StructTreeRoot", "MarkInfo", "PieceInfo", "SpiderInfo", "Perms", "Legal", "URI", "Collection", "PageLabels", "Extensions"}

// pageDrops are a page's entries a copy leaves out.
var pageDrops = []string{"Annots", "Metadata", "Thumb", "PieceInfo", "AA", "B", "StructParents", "Trans", "ID", "PZ", "SeparationInfo", "VP", "AF"}

// clean strips the document of everything but its pages' drawing.
func (r *redactor) clean(pages []types.Dict) error {
	ctx := r.ctx
	for _, k := range catalogDrops {
		ctx.RootDict.Delete(k)
	}
	for _, d := range pages {
		for _, k := range pageDrops {
			d.Delete(k)
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
	x := ctx.XRefTable
	x.Info = nil
	x.ID = nil
	x.Title, x.Subject, x.Author, x.Creator, x.Producer, x.Keywords = "", "", "", "", "", ""
	x.CreationDate, x.ModDate = "", ""
	x.Properties = map[string]string{}
	x.KeywordList = types.StringSet{}
	x.CatalogXMPMeta = nil
	ctx.Configuration.Cmd = model.DECRYPT
	x.Encrypt, x.E, x.EncKey = nil, nil, nil
	return nil
}
