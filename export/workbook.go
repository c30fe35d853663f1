package export

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// workbook writes the little of SpreadsheetML (Office Open XML) that the
// XLSX downloads use: sheets of inline-string, numeric and empty styled
// cells, a fixed table of cell styles, column widths, a frozen header row,
// an autofilter and a print set-up.
//
// It replaces excelize for writing (the tests still read the files back
// with it): excelize builds ~21,000 objects in its package initialisation
// (number formats, function tables, compiled regular expressions), which
// every passbook process paid at start — the CLI, the server and each
// worker — for a format few calls write.
type workbook struct {
	sheets []*worksheet
}

// worksheet is one sheet being written: its settings, then its rows as
// XML, in row order.
type worksheet struct {
	name string
	// rows is the number of rows and cols the number of columns in use,
	// for the dimension; filter, when set, puts an autofilter on them.
	rows, cols int
	filter     bool
	// table is a transactions sheet: header row frozen and repeated on
	// every printed page, printed landscape one page wide.
	table  bool
	widths []colWidth
	data   bytes.Buffer
	next   int // the next row's number, from 1
}

// colWidth is the width, in characters, of columns min to max (from 1).
type colWidth struct {
	min, max int
	width    float64
}

// xlsxCell is a cell value with a cell style (an index into
// workbookStyles' cellXfs). Its value may be nil: an empty cell that still
// carries the style (a tinted row is tinted across).
type xlsxCell struct {
	style int
	value any
}

// Cell style indexes of workbookStyles.
const (
	styleDefault = iota
	styleHeader
	styleLabel
	styleDate
	styleMoney
	styleTintDate
	styleTintMoney
	styleTintText
	styleQuoted
	styleTintQuoted
)

// workbookStyles is the styles part: the default font and a bold one; no
// fill, gray125 (both required), the header's grey and the warned rows'
// amber; no border and the header's thin grey bottom; and the cell formats
// indexed by the style constants above. Numeric format 4 is Excel's
// built-in "#,##0.00"; 164 is dateFormat.
var workbookStyles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
	`<numFmts count="1"><numFmt numFmtId="164" formatCode="` + dateFormat + `"/></numFmts>` +
	`<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b val="1"/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
	`<fills count="4"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>` +
	`<fill><patternFill patternType="solid"><fgColor rgb="FFE7E6E6"/></patternFill></fill>` +
	`<fill><patternFill patternType="solid"><fgColor rgb="FF` + warnedFill + `"/></patternFill></fill></fills>` +
	`<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border><border><left/><right/><top/><bottom style="thin"><color rgb="FF808080"/></bottom><diagonal/></border></borders>` +
	`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
	`<cellXfs count="10">` +
	`<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
	`<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1"/>` +
	`<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
	`<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
	`<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
	`<xf numFmtId="164" fontId="0" fillId="3" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>` +
	`<xf numFmtId="4" fontId="0" fillId="3" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>` +
	`<xf numFmtId="0" fontId="0" fillId="3" borderId="0" xfId="0" applyFill="1"/>` +
	`<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>` +
	`<xf numFmtId="0" fontId="0" fillId="3" borderId="0" xfId="0" quotePrefix="1" applyFill="1"/>` +
	`</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
	`<dxfs count="0"/><tableStyles count="0"/></styleSheet>`

// addSheet starts a sheet; rows are written to the last sheet added.
func (b *workbook) addSheet(name string) *worksheet {
	s := &worksheet{name: name, next: 1}
	b.sheets = append(b.sheets, s)
	return s
}

// row writes the next row from column A; nil and "" leave a cell empty.
func (s *worksheet) row(cells []any) error {
	r := s.next
	s.next++
	d := &s.data
	d.WriteString(`<row r="`)
	d.WriteString(strconv.Itoa(r))
	d.WriteString(`">`)
	for j, v := range cells {
		if err := writeCell(d, colName(j+1)+strconv.Itoa(r), v); err != nil {
			return err
		}
	}
	d.WriteString(`</row>`)
	return nil
}

// writeCell writes one cell: text inline, numbers as numbers.
func writeCell(d *bytes.Buffer, ref string, v any) error {
	style := styleDefault
	switch c := v.(type) {
	case xlsxCell:
		style, v = c.style, c.value
	case label:
		style, v = styleLabel, string(c)
	}
	var num string
	switch v := v.(type) {
	case nil:
	case string:
	case int:
		num = strconv.Itoa(v)
	case int64:
		num = strconv.FormatInt(v, 10)
	case float64:
		num = strconv.FormatFloat(v, 'f', -1, 64)
	default:
		return fmt.Errorf("xlsx cell %s: unsupported value %T", ref, v)
	}
	text, isText := v.(string)
	if (v == nil || (isText && text == "")) && style == styleDefault {
		return nil
	}
	d.WriteString(`<c r="`)
	d.WriteString(ref)
	d.WriteByte('"')
	if style != styleDefault {
		d.WriteString(` s="`)
		d.WriteString(strconv.Itoa(style))
		d.WriteByte('"')
	}
	switch {
	case isText && text != "":
		d.WriteString(` t="inlineStr"><is><t`)
		if strings.TrimSpace(text) != text {
			d.WriteString(` xml:space="preserve"`)
		}
		d.WriteByte('>')
		escapeXML(d, text)
		d.WriteString(`</t></is></c>`)
	case num != "":
		d.WriteString(`><v>`)
		d.WriteString(num)
		d.WriteString(`</v></c>`)
	default:
		d.WriteString(`/>`)
	}
	return nil
}

// escapeXML writes s as XML character data or attribute text. Characters
// XML 1.0 does not allow become U+FFFD, as encoding/xml's EscapeText does;
// tab, line feed and carriage return are written as references, so that
// they survive attribute normalisation.
func escapeXML(d *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == '&':
			esc = "&amp;"
		case r == '<':
			esc = "&lt;"
		case r == '>':
			esc = "&gt;"
		case r == '"':
			esc = "&#34;"
		case r == '\'':
			esc = "&#39;"
		case r == '\t':
			esc = "&#x9;"
		case r == '\n':
			esc = "&#xA;"
		case r == '\r':
			esc = "&#xD;"
		case r < 0x20, r == utf8.RuneError && n == 1, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			esc = "\uFFFD"
		default:
			i += n
			continue
		}
		d.WriteString(s[last:i])
		d.WriteString(esc)
		i += n
		last = i
	}
	d.WriteString(s[last:])
}

// colName is a column's letters: 1 is A, 27 is AA.
func colName(c int) string {
	var b [8]byte
	i := len(b)
	for c > 0 {
		c--
		i--
		b[i] = byte('A' + c%26)
		c /= 26
	}
	return string(b[i:])
}

// quoteSheet is a sheet name as a formula reference spells it.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// write writes the workbook as a zip archive.
func (b *workbook) write(w io.Writer) error {
	if len(b.sheets) == 0 {
		return fmt.Errorf("workbook has no sheet")
	}
	zw := zip.NewWriter(w)
	part := func(name, body string) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			return err
		}
		_, err = io.WriteString(f, body)
		return err
	}
	var types, rels, sheets, names strings.Builder
	types.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>`)
	rels.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`)
	for i, s := range b.sheets {
		n := strconv.Itoa(i + 1)
		fmt.Fprintf(&types, `<Override PartName="/xl/worksheets/sheet%s.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, n)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%s.xml"/>`, i+2, n)
		var attr bytes.Buffer
		escapeXML(&attr, s.name)
		fmt.Fprintf(&sheets, `<sheet name="%s" sheetId="%s" r:id="rId%d"/>`, attr.String(), n, i+2)
		if s.filter {
			var ref bytes.Buffer
			escapeXML(&ref, quoteSheet(s.name)+"!$A$1:$"+colName(max(s.cols, 1))+"$"+strconv.Itoa(max(s.rows, 1)))
			fmt.Fprintf(&names, `<definedName name="_xlnm._FilterDatabase" localSheetId="%d" hidden="1">%s</definedName>`, i, ref.String())
		}
		if s.table {
			var ref bytes.Buffer
			escapeXML(&ref, quoteSheet(s.name)+"!$1:$1")
			fmt.Fprintf(&names, `<definedName name="_xlnm.Print_Titles" localSheetId="%d">%s</definedName>`, i, ref.String())
		}
		if err := part("xl/worksheets/sheet"+n+".xml", s.xml(i == 0)); err != nil {
			return fmt.Errorf("write xlsx: %w", err)
		}
	}
	types.WriteString(`</Types>`)
	rels.WriteString(`</Relationships>`)
	book := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><bookViews><workbookView activeTab="0"/></bookViews><sheets>` + sheets.String() + `</sheets>`
	if names.Len() > 0 {
		book += `<definedNames>` + names.String() + `</definedNames>`
	}
	book += `</workbook>`
	for _, p := range []struct{ name, body string }{
		{"[Content_Types].xml", types.String()},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", book},
		{"xl/_rels/workbook.xml.rels", rels.String()},
		{"xl/styles.xml", workbookStyles},
	} {
		if err := part(p.name, p.body); err != nil {
			return fmt.Errorf("write xlsx: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	return nil
}

// xml is the sheet's part; the first sheet is the one selected.
func (s *worksheet) xml(first bool) string {
	var b strings.Builder
	b.Grow(s.data.Len() + 1024)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
	if s.table {
		b.WriteString(`<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>`)
	}
	last := "A1"
	if s.rows > 0 && s.cols > 0 {
		last = colName(s.cols) + strconv.Itoa(s.rows)
	}
	dim := last
	if last != "A1" {
		dim = "A1:" + last
	}
	b.WriteString(`<dimension ref="` + dim + `"/><sheetViews><sheetView`)
	if first {
		b.WriteString(` tabSelected="1"`)
	}
	b.WriteString(` workbookViewId="0"`)
	if s.table {
		b.WriteString(`><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView>`)
	} else {
		b.WriteString(`/>`)
	}
	b.WriteString(`</sheetViews><sheetFormatPr defaultRowHeight="15"/>`)
	if len(s.widths) > 0 {
		b.WriteString(`<cols>`)
		for _, c := range s.widths {
			fmt.Fprintf(&b, `<col min="%d" max="%d" width="%s" customWidth="1"/>`, c.min, c.max, strconv.FormatFloat(c.width, 'f', -1, 64))
		}
		b.WriteString(`</cols>`)
	}
	b.WriteString(`<sheetData>`)
	b.Write(s.data.Bytes())
	b.WriteString(`</sheetData>`)
	if s.filter {
		b.WriteString(`<autoFilter ref="A1:` + colName(max(s.cols, 1)) + strconv.Itoa(max(s.rows, 1)) + `"/>`)
	}
	if s.table {
		b.WriteString(`<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><pageSetup orientation="landscape" fitToWidth="1" fitToHeight="0"/>`)
	}
	b.WriteString(`</worksheet>`)
	return b.String()
}
