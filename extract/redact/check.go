package redact

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/shopspring/decimal"

	"passbook/extract/layout"
	"passbook/extract/ledger"
)

// boxSlack is how far a row's box in the copy may stand from the
// original's, in points.
const boxSlack = 1.0

// check reads the copy again and compares it with what it should read,
// and looks for the original's replaced words in all of its bytes.
func check(out []byte, orig Reading, want expected, read Reader) (Sidecar, error) {
	cp, err := read(out, "")
	if err != nil {
		return Sidecar{}, refuse("the copy cannot be read again: %v", err)
	}
	return verify(out, cp, orig, want)
}

// verify compares the copy's reading, cp, with what it should read, and
// looks for the original's replaced words in all of its bytes.
func verify(out []byte, cp Reading, orig Reading, want expected) (Sidecar, error) {
	// A leak first: it is what a refusal must name above all.
	if err := noLeak(out, cp, personalStrings(orig, want)); err != nil {
		return Sidecar{}, err
	}
	if err := sameReading(orig.Result, cp.Result, want); err != nil {
		return Sidecar{}, err
	}
	st := cp.Result.Statement
	side := Sidecar{Rows: len(cp.Result.Transactions), Reconciliation: st.Reconciliation.Status, Pages: len(cp.Doc.Pages), Removed: Removed, ImagesPainted: want.painted}
	if want.recognised {
		side.Scan, side.Fidelity, side.LowConfidence = true, Fidelity, LowConfidence
	}
	if st.OpeningBalance != nil {
		s := st.OpeningBalance.StringFixed(2)
		side.OpeningBalance = &s
	}
	if st.ClosingBalance != nil {
		s := st.ClosingBalance.StringFixed(2)
		side.ClosingBalance = &s
	}
	if st.Reconciliation.Status == ledger.ReconcileMismatch {
		side.Failure = st.Reconciliation.Message
	}
	return side, nil
}

// sameReading compares the copy's reading with the original's, the
// figures times the factor.
func sameReading(o, c *ledger.Result, want expected) error {
	if len(c.Transactions) != len(want.rows) {
		return refuse("the copy reads %d rows where the original reads %d", len(c.Transactions), len(want.rows))
	}
	eq := func(a, b *decimal.Decimal) bool {
		return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
	}
	for i, w := range want.rows {
		g := c.Transactions[i]
		where := fmt.Sprintf("row %d (page %d)", i+1, w.Page)
		switch {
		case !g.Date.Equal(w.Date):
			return refuse("%s: the copy reads the date %s where the original reads %s", where, g.Date.Format("2006-01-02"), w.Date.Format("2006-01-02"))
		case g.Type() != w.Type():
			return refuse("%s: the copy reads a %s where the original reads a %s", where, g.Type(), w.Type())
		case !eq(g.AmountIn, w.AmountIn) || !eq(g.AmountOut, w.AmountOut):
			return refuse("%s: the copy's amount does not read as the original's times the factor", where)
		case !g.Balance.Equal(w.Balance):
			return refuse("%s: the copy's balance %s is not the one worked from its opening (%s)", where, g.Balance, w.Balance)
		case g.Page != w.Page:
			return refuse("%s: the copy reads the row on page %d", where, g.Page)
		}
		for k := range 4 {
			if want.recognised {
				break
			}
			if d := g.Box[k] - w.Box[k]; d > boxSlack || d < -boxSlack {
				return refuse("%s: the copy's row stands %.1f points from the original's", where, d)
			}
		}
	}
	os, cs := o.Statement, c.Statement
	if os.Reconciliation.Status != cs.Reconciliation.Status {
		return refuse("the copy reconciles as %q where the original reconciles as %q (%s)", cs.Reconciliation.Status, os.Reconciliation.Status, cs.Reconciliation.Message)
	}
	if !slices.Equal(os.Reconciliation.Rows, cs.Reconciliation.Rows) {
		return refuse("the copy's arithmetic breaks at rows %v where the original's breaks at %v", cs.Reconciliation.Rows, os.Reconciliation.Rows)
	}
	for _, f := range []struct {
		name string
		o, c *decimal.Decimal
	}{{"opening balance", os.OpeningBalance, cs.OpeningBalance}, {"closing balance", os.ClosingBalance, cs.ClosingBalance}} {
		if (f.o == nil) != (f.c == nil) {
			return refuse("the copy reads the %s differently", f.name)
		}
		if f.o != nil {
			if nv, ok := want.named[f.o.Abs().String()]; ok && !nv.Equal(f.c.Abs()) {
				return refuse("the copy's %s is %s where %s was expected", f.name, f.c, nv)
			}
		}
	}
	return nil
}

// personalStrings are the original's words the copy replaced, with the
// holder's name and the account numbers the reading found.
func personalStrings(orig Reading, want expected) []string {
	st := orig.Result.Statement
	out := slices.Clone(want.personal)
	out = append(out, st.Holder, st.AccountNumber)
	for _, a := range st.Accounts {
		out = append(out, a.Number)
	}
	var keep []string
	for _, s := range out {
		s = strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		n := 0
		for _, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				n++
			}
		}
		if n >= 3 && !strings.ContainsAny(s, "*•xX") || n >= 3 && strings.IndexFunc(s, unicode.IsLetter) >= 0 {
			keep = append(keep, s)
		}
	}
	slices.Sort(keep)
	return slices.Compact(keep)
}

// minBytes is the shortest replaced word looked for as a piece of the
// copy's bytes: shorter ones turn up by chance in compressed data and
// are looked for as words of its text.
const minBytes = 5

// noLeak looks for each personal string in the copy's text (as words,
// and with its spaces removed), in its raw bytes and in every stream and
// object decoded.
func noLeak(out []byte, cp Reading, personal []string) error {
	// The copy's words, one a line; and each line's text without its
	// spaces, where a number printed in groups is looked for whole.
	words := map[string]bool{}
	var text, flatText strings.Builder
	for _, pg := range cp.Doc.Pages {
		for _, w := range pg.Words {
			low := strings.ToLower(w.Text)
			words[low] = true
			text.WriteString(low)
			text.WriteByte('\n')
		}
		for _, l := range layout.GroupLines(pg, 0) {
			for _, w := range l.Words {
				flatText.WriteString(strings.ToLower(w.Text))
			}
			flatText.WriteByte('\n')
		}
	}
	joined, flatJoined := text.String(), flatText.String()
	// Where a personal string is looked for as bytes: the file itself,
	// every stream decoded and every string of every object. A number
	// is looked for only among strings: the file's own structure is
	// full of digits (offsets, lengths, fonts' programs).
	hay := [][]byte{out}
	var strs [][]byte
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := readObjects(bytes.NewReader(out), conf)
	if err != nil {
		return refuse("the copy's objects cannot be read again: %v", err)
	}
	// Fonts' programs are left out: they carry their makers' names and
	// licences, whose words a description may share ("registered").
	programs := map[int]bool{}
	for _, e := range ctx.Table {
		if d, ok := e.Object.(types.Dict); ok && e != nil && !e.Free {
			if t := d.NameEntry("Type"); t != nil && *t == "FontDescriptor" {
				for _, k := range []string{"FontFile", "FontFile2", "FontFile3"} {
					if ir, ok := d[k].(types.IndirectRef); ok {
						programs[ir.ObjectNumber.Value()] = true
					}
				}
			}
		}
	}
	for nr, e := range ctx.Table {
		if e == nil || e.Free || e.Object == nil || programs[nr] {
			continue
		}
		if sd, ok := e.Object.(types.StreamDict); ok {
			if err := sd.Decode(); err == nil {
				hay = append(hay, sd.Content)
				if ops, err := parseOps(sd.Content); err == nil {
					for _, o := range ops {
						strs = appendStrings(strs, o.Args)
					}
				}
			} else {
				hay = append(hay, sd.Raw)
			}
			strs = objStrings(strs, sd.Dict)
			continue
		}
		strs = objStrings(strs, e.Object)
	}
	hay = append(hay, strs...)
	var leaked []string
	for _, s := range personal {
		low := strings.ToLower(s)
		found := words[low]
		if strings.Contains(low, " ") {
			flat := strings.ReplaceAll(low, " ", "")
			found = found || len(flat) >= minBytes && strings.Contains(flatJoined, flat)
		} else {
			found = found || len(low) >= minBytes && containsWord([]byte(joined), []byte(low))
		}
		if len(s) >= minBytes && !found {
			u16 := utf16BE(s)
			in := hay
			if strings.Trim(s, "0123456789 ") == "" {
				in = strs
			}
			for _, h := range in {
				if containsWord(h, []byte(s)) || bytes.Contains(h, u16) {
					found = true
					break
				}
			}
		}
		if found {
			leaked = append(leaked, fmt.Sprintf("%q", s))
		}
	}
	if len(leaked) > 0 {
		if len(leaked) > 5 {
			leaked = append(leaked[:5], fmt.Sprintf("%d more", len(leaked)-5))
		}
		return &RefusedError{Reason: "the copy would still hold " + joinNames(leaked), leak: true}
	}
	return nil
}

// containsWord reports s in h as a word of its own: not a piece of a
// longer word or number ("Stand" in "Kontostand" is no leak of it).
func containsWord(h, s []byte) bool {
	alnum := func(c byte) bool {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	for off := 0; ; {
		i := bytes.Index(h[off:], s)
		if i < 0 {
			return false
		}
		i += off
		// After a slash it is a PDF name ("/Count", "/dollar"): the
		// file's own vocabulary.
		if (i == 0 || !alnum(h[i-1]) && h[i-1] != '/' || !alnum(s[0])) && (i+len(s) == len(h) || !alnum(h[i+len(s)]) || !alnum(s[len(s)-1])) {
			return true
		}
		off = i + 1
	}
}

// appendStrings adds the string operands among args, in arrays too.
func appendStrings(out [][]byte, args []obj) [][]byte {
	for _, a := range args {
		switch a.Kind {
		case kString:
			out = append(out, a.Val)
		case kArray, kDict:
			out = appendStrings(out, a.Arr)
		}
	}
	return out
}

// objStrings adds the strings an object holds, at any depth.
func objStrings(out [][]byte, o types.Object) [][]byte {
	switch v := o.(type) {
	case types.StringLiteral:
		if b, err := types.Unescape(v.Value()); err == nil {
			return append(out, b)
		}
		return append(out, []byte(v.Value()))
	case types.HexLiteral:
		if b, err := v.Bytes(); err == nil {
			return append(out, b)
		}
	case types.Dict:
		for _, x := range v {
			out = objStrings(out, x)
		}
	case types.Array:
		for _, x := range v {
			out = objStrings(out, x)
		}
	}
	return out
}

func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}
