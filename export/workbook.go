package export

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// workbook writes the XLSX downloads with excelize: each sheet streamed
// row by row through excelize's StreamWriter (a year of a busy account is
// not held as cells in memory), with a fixed table of cell styles, column
// widths and, on a transactions sheet, a frozen header row, an autofilter
// and a landscape one-page-wide print set-up with the header repeated on
// every page.
//
// A sheet's settings (widths, the filter's range, the print set-up) are
// taken when its first row is written: excelize's stream writer takes the
// sheet's settings as they are when it starts. A sheet is finished when
// the next one is added, the workbook when it is written.
type workbook struct {
	f      *excelize.File
	styles [styleCount]int
	sheets []*worksheet
	err    error
}

// worksheet is one sheet being written: its settings, then its rows, in
// row order.
type worksheet struct {
	b    *workbook
	name string
	// rows is the number of rows and cols the number of columns in use;
	// filter, when set, puts an autofilter on them (set both before the
	// first row).
	rows, cols int
	filter     bool
	// table is a transactions sheet: header row frozen and repeated on
	// every printed page, printed landscape one page wide.
	table  bool
	widths []colWidth
	sw     *excelize.StreamWriter
	next   int // the next row's number, from 1
}

// colWidth is the width, in characters, of columns min to max (from 1).
type colWidth struct {
	min, max int
	width    float64
}

// xlsxCell is a cell value with a cell style (one of the style constants
// below). Its value may be nil: an empty cell that still carries the style
// (a tinted row is tinted across).
type xlsxCell struct {
	style int
	value any
}

// Cell styles of a workbook: indexes into workbook.styles, which holds
// excelize's style ids.
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
	styleCount
)

// start makes the excelize file and its styles, once.
func (b *workbook) start() error {
	if b.f != nil {
		return nil
	}
	b.f = excelize.NewFile()
	df := dateFormat
	tint := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{warnedFill}}
	for _, s := range []struct {
		id    int
		style excelize.Style
	}{
		{styleHeader, excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E7E6E6"}},
			Border: []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}}},
		{styleLabel, excelize.Style{Font: &excelize.Font{Bold: true}}},
		{styleDate, excelize.Style{CustomNumFmt: &df}},
		{styleMoney, excelize.Style{NumFmt: numFmtMoney}},
		{styleTintDate, excelize.Style{CustomNumFmt: &df, Fill: tint}},
		{styleTintMoney, excelize.Style{NumFmt: numFmtMoney, Fill: tint}},
		{styleTintText, excelize.Style{Fill: tint}},
	} {
		id, err := b.f.NewStyle(&s.style)
		if err != nil {
			return err
		}
		b.styles[s.id] = id
	}
	var err error
	if b.styles[styleQuoted], err = b.quotePrefixed(b.styles[styleDefault]); err != nil {
		return err
	}
	b.styles[styleTintQuoted], err = b.quotePrefixed(b.styles[styleTintText])
	return err
}

// quotePrefixed registers a copy of cell style base with the quote-prefix
// flag set, which tells Excel and LibreOffice that text looking like a
// formula is text, also after someone edits the cell. excelize's Style
// has no field for the flag, so the copy is added to the workbook's cell
// formats directly.
func (b *workbook) quotePrefixed(base int) (int, error) {
	st := b.f.Styles
	if st == nil || st.CellXfs == nil || base < 0 || base >= len(st.CellXfs.Xf) {
		return 0, fmt.Errorf("quote-prefix style: no cell format %d", base)
	}
	xf := st.CellXfs.Xf[base]
	yes := true
	xf.QuotePrefix = &yes
	st.CellXfs.Xf = append(st.CellXfs.Xf, xf)
	st.CellXfs.Count = len(st.CellXfs.Xf)
	return len(st.CellXfs.Xf) - 1, nil
}

// addSheet starts a sheet, finishing the one before; rows are written to
// the last sheet added. An error is kept for write to return.
func (b *workbook) addSheet(name string) *worksheet {
	s := &worksheet{b: b, name: name, next: 1}
	if b.err == nil {
		b.err = b.addSheetErr(s)
	}
	b.sheets = append(b.sheets, s)
	return s
}

func (b *workbook) addSheetErr(s *worksheet) error {
	if err := b.start(); err != nil {
		return err
	}
	if n := len(b.sheets); n > 0 {
		if err := b.sheets[n-1].finish(); err != nil {
			return err
		}
		_, err := b.f.NewSheet(s.name)
		return err
	}
	// The new file's one sheet is the first: it is the active one.
	return b.f.SetSheetName(b.f.GetSheetName(0), s.name)
}

// begin applies the sheet's settings and starts its stream writer.
func (s *worksheet) begin() error {
	f, name := s.b.f, s.name
	if s.filter || s.table {
		// The dimension too: the stream writer would leave it at "A1",
		// and some readers size the sheet by it.
		used := "A1:" + colName(max(s.cols, 1)) + strconv.Itoa(max(s.rows, 1))
		if err := f.SetSheetDimension(name, used); err != nil {
			return err
		}
		if s.filter {
			if err := f.AutoFilter(name, used, nil); err != nil {
				return err
			}
		}
	}
	if s.table {
		landscape, one, tall, fit := "landscape", 1, 0, true
		if err := f.SetPageLayout(name, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &one, FitToHeight: &tall}); err != nil {
			return err
		}
		if err := f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
			return err
		}
		if err := f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: quoteSheet(name) + "!$1:$1", Scope: name}); err != nil {
			return err
		}
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	if s.table {
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
			Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
			return err
		}
	}
	// Last columns first: excelize puts each new <col> before the ones
	// it has, and spreadsheet readers want them in ascending order.
	for i := len(s.widths) - 1; i >= 0; i-- {
		c := s.widths[i]
		if err := sw.SetColWidth(c.min, c.max, c.width); err != nil {
			return err
		}
	}
	s.sw = sw
	return nil
}

// row writes the next row from column A; nil and "" leave a cell empty.
func (s *worksheet) row(cells []any) error {
	if s.b.err != nil {
		return s.b.err
	}
	if s.sw == nil {
		if err := s.begin(); err != nil {
			s.b.err = err
			return err
		}
	}
	r := s.next
	s.next++
	// The row is copied: callers reuse their slice for the next row.
	out := make([]any, len(cells))
	for j, v := range cells {
		c, err := s.b.cell(v)
		if err != nil {
			return fmt.Errorf("xlsx cell %s%d: %w", colName(j+1), r, err)
		}
		out[j] = c
	}
	return s.sw.SetRow("A"+strconv.Itoa(r), out)
}

// cell is a value as excelize writes it: text as text, numbers as
// numbers, a styled value or empty cell with its style.
func (b *workbook) cell(v any) (any, error) {
	style := styleDefault
	switch c := v.(type) {
	case xlsxCell:
		style, v = c.style, c.value
	case label:
		style, v = styleLabel, string(c)
	}
	switch v := v.(type) {
	case nil, string, int, int64, float64:
	default:
		return nil, fmt.Errorf("unsupported value %T", v)
	}
	if s, ok := v.(string); ok && s == "" {
		v = nil
	}
	if style == styleDefault {
		return v, nil
	}
	return excelize.Cell{StyleID: b.styles[style], Value: v}, nil
}

// finish ends the sheet's stream.
func (s *worksheet) finish() error {
	if s.sw == nil {
		return nil
	}
	err := s.sw.Flush()
	s.sw = nil
	return err
}

// colName is a column's letters: 1 is A, 27 is AA.
func colName(c int) string {
	name, err := excelize.ColumnNumberToName(c)
	if err != nil {
		return "A"
	}
	return name
}

// quoteSheet is a sheet name as a formula reference spells it.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// write finishes the last sheet and writes the workbook. The first sheet
// is the active one already: making it so again would have excelize read
// the streamed sheet back into memory and write it again.
func (b *workbook) write(w io.Writer) (err error) {
	if len(b.sheets) == 0 {
		return fmt.Errorf("workbook has no sheet")
	}
	defer func() {
		// Close removes the stream writer's temporary files, if any.
		if cerr := b.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write xlsx: %w", cerr)
		}
	}()
	if b.err != nil {
		return fmt.Errorf("write xlsx: %w", b.err)
	}
	if err := b.sheets[len(b.sheets)-1].finish(); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if err := b.f.Write(w); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	return nil
}
