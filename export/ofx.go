package export

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"
)

// ofxDialect is how an OFX file is spelled.
type ofxDialect int

const (
	// ofxXML is OFX 2.1.1: XML, every element closed, UTF-8.
	ofxXML ofxDialect = iota
	// ofxSGML is OFX 1.0.2 as Quicken (QFX) and QuickBooks (QBO) read it:
	// SGML, leaf elements left open, Windows-1252 text, INTU.BID in the
	// sign-on.
	ofxSGML
)

// Field limits of OFX 1.0.2 (A-32 for NAME, A-255 for MEMO, A-22 for
// ACCTID), kept in OFX 2 too so that both carry the same text.
const (
	ofxNameLen   = 32
	ofxMemoLen   = 255
	ofxAcctIDLen = 22
)

// sgmlEscaper escapes the three characters OFX text may not hold as they are.
var sgmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// ofxWriter writes one OFX element at a time, remembering the first error.
type ofxWriter struct {
	w     *bufio.Writer
	sgml  bool
	depth int
	err   error
}

func (o *ofxWriter) line(s string) {
	if o.err != nil {
		return
	}
	if !o.sgml {
		// SGML files go unindented, as banks write them: some
		// importers read a line's first character as the tag's.
		o.w.WriteString(strings.Repeat("  ", o.depth))
	}
	o.w.WriteString(s)
	_, o.err = o.w.WriteString("\r\n")
}

func (o *ofxWriter) open(tag string) {
	o.line("<" + tag + ">")
	o.depth++
}

func (o *ofxWriter) close(tag string) {
	o.depth--
	o.line("</" + tag + ">")
}

// leaf writes an element holding text: closed in XML, open in SGML.
func (o *ofxWriter) leaf(tag, value string) {
	v := o.text(value)
	if o.sgml {
		o.line("<" + tag + ">" + v)
		return
	}
	o.line("<" + tag + ">" + v + "</" + tag + ">")
}

// text escapes a value. Both dialects escape &, < and > as entities (an
// SGML parser would otherwise take "<" for a tag). XML writes characters
// beyond ASCII as character references; SGML text is limited to
// Windows-1252, the CHARSET its header names: a character outside it
// becomes "?".
func (o *ofxWriter) text(s string) string {
	s = sgmlEscaper.Replace(oneLine(s))
	var b strings.Builder
	if !o.sgml {
		// Characters beyond ASCII go as character references: the file
		// is then the same in any ASCII-compatible encoding, and readers
		// that ignore the XML declaration (ofxparse decodes a file
		// without an SGML ENCODING header as ASCII) still read it.
		for _, r := range s {
			if r < 0x80 {
				b.WriteRune(r)
			} else {
				fmt.Fprintf(&b, "&#%d;", r)
			}
		}
		return b.String()
	}
	for _, r := range s {
		if _, ok := charmap.Windows1252.EncodeRune(r); ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// writeOFX writes res as one OFX bank statement response with a STMTTRNRS
// per account: the account and currency, the period (BANKTRANLIST's
// DTSTART and DTEND), each row as a STMTTRN with its FITID, the closing
// balance (the opening balance plus the rows, see closingBalance) as
// LEDGERBAL and the opening balance as a BAL named "Opening balance" in
// BALLIST, OFX's place for balances it has no element for; a statement
// that shows another closing balance adds it there as "Closing balance as
// printed".
func writeOFX(w io.Writer, dialect ofxDialect, opts Options, bs []block) error {
	o := &ofxWriter{sgml: dialect == ofxSGML}
	var enc io.WriteCloser
	if o.sgml {
		// The body is written as UTF-8 text restricted to Windows-1252
		// and encoded on the way out.
		enc = transform.NewWriter(w, charmap.Windows1252.NewEncoder())
		o.w = bufio.NewWriter(enc)
		o.w.WriteString("OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n")
	} else {
		o.w = bufio.NewWriter(w)
		o.w.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\r\n")
		o.w.WriteString("<?OFX OFXHEADER=\"200\" VERSION=\"211\" SECURITY=\"NONE\" OLDFILEUID=\"NONE\" NEWFILEUID=\"NONE\"?>\r\n")
	}
	created := opts.Created
	o.open("OFX")
	o.open("SIGNONMSGSRSV1")
	o.open("SONRS")
	ofxStatus(o)
	o.leaf("DTSERVER", created.Format("20060102150405")+"[0:GMT]")
	o.leaf("LANGUAGE", "ENG")
	if o.sgml && opts.IntuBID != "" {
		o.leaf("INTU.BID", opts.IntuBID)
	}
	o.close("SONRS")
	o.close("SIGNONMSGSRSV1")
	o.open("BANKMSGSRSV1")
	for i, b := range bs {
		o.open("STMTTRNRS")
		o.leaf("TRNUID", strconv.Itoa(i+1))
		ofxStatus(o)
		o.open("STMTRS")
		o.leaf("CURDEF", b.currencyCode())
		o.open("BANKACCTFROM")
		// OFX requires a bank id; a statement seldom prints a routing
		// number Passbook could trust, so it says it does not know one.
		o.leaf("BANKID", "000000000")
		o.leaf("ACCTID", ofxAccountID(b.number))
		o.leaf("ACCTTYPE", "CHECKING")
		o.close("BANKACCTFROM")
		start, end := b.startDate(created), b.endDate(created)
		o.open("BANKTRANLIST")
		o.leaf("DTSTART", ofxDate(start))
		o.leaf("DTEND", ofxDate(end))
		for _, r := range b.rows {
			o.open("STMTTRN")
			typ := "DEBIT"
			if r.AmountIn != nil {
				typ = "CREDIT"
			}
			o.leaf("TRNTYPE", typ)
			o.leaf("DTPOSTED", ofxDate(r.Date))
			o.leaf("TRNAMT", signed(r.Transaction).StringFixed(2))
			o.leaf("FITID", r.fitid)
			desc := oneLine(r.Description)
			if desc == "" {
				desc = "(no description)"
			}
			// NAME holds 32 characters; the whole text goes in MEMO
			// when it is longer.
			o.leaf("NAME", truncate(desc, ofxNameLen))
			if len([]rune(desc)) > ofxNameLen {
				o.leaf("MEMO", truncate(desc, ofxMemoLen))
			}
			o.close("STMTTRN")
		}
		o.close("BANKTRANLIST")
		o.open("LEDGERBAL")
		o.leaf("BALAMT", b.closingBalance().StringFixed(2))
		o.leaf("DTASOF", ofxDate(end))
		o.close("LEDGERBAL")
		o.open("BALLIST")
		o.open("BAL")
		o.leaf("NAME", "Opening balance")
		o.leaf("DESC", "Balance at the start of the period")
		o.leaf("BALTYPE", "DOLLAR")
		o.leaf("VALUE", b.openingBalance().StringFixed(2))
		o.leaf("DTASOF", ofxDate(start))
		o.close("BAL")
		if shown, ok := b.shownClosing(); ok && b.closingNote() != "" {
			o.open("BAL")
			o.leaf("NAME", "Closing balance as printed")
			o.leaf("DESC", "The statement's own; LEDGERBAL is what its rows give")
			o.leaf("BALTYPE", "DOLLAR")
			o.leaf("VALUE", shown.StringFixed(2))
			o.leaf("DTASOF", ofxDate(end))
			o.close("BAL")
		}
		o.close("BALLIST")
		o.close("STMTRS")
		o.close("STMTTRNRS")
	}
	o.close("BANKMSGSRSV1")
	o.close("OFX")
	if o.err == nil {
		o.err = o.w.Flush()
	}
	if o.err == nil && enc != nil {
		o.err = enc.Close()
	}
	if o.err != nil {
		return fmt.Errorf("write ofx: %w", o.err)
	}
	return nil
}

func ofxStatus(o *ofxWriter) {
	o.open("STATUS")
	o.leaf("CODE", "0")
	o.leaf("SEVERITY", "INFO")
	o.close("STATUS")
}

// ofxDate is a date as OFX writes a day: YYYYMMDD.
func ofxDate(t time.Time) string {
	return t.Format("20060102")
}

// ofxAccountID is the account number as ACCTID: spaces dropped, at most 22
// characters (the last ones, which tell accounts apart), or "UNKNOWN".
func ofxAccountID(number string) string {
	id := strings.Join(strings.Fields(oneLine(number)), "")
	if id == "" {
		return "UNKNOWN"
	}
	if r := []rune(id); len(r) > ofxAcctIDLen {
		id = string(r[len(r)-ofxAcctIDLen:])
	}
	return id
}
