// Package hostile builds small PDFs that attack a reader, for tests and
// the stress harness: page trees whose counts lie, loop or nest too deep.
// They are built in code, byte by byte, so no such file needs to sit in
// the repository. It is pure Go.
package hostile

import (
	"bytes"
	"fmt"
	"strings"
)

// Builder collects numbered objects (from 1) and writes them as a PDF.
type Builder struct {
	objs [][]byte
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
	fmt.Fprintf(&o, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(b.objs)+1, root, xref)
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
