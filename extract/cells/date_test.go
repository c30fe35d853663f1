package cells

import (
	"testing"
	"time"
)

type dateCase struct {
	name  string
	in    string
	order DateOrder
	// want is "YYYY-MM-DD" resolved against the period below, or "" when
	// the text does not start with a date.
	want string
	rest string
}

// The statement period most cases resolve against.
var (
	testPeriodStart = time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	testPeriodEnd   = time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
)

var dateCases = []dateCase{
	{name: "dmy slash", in: "12/02/2024", order: OrderDMY, want: "2024-02-12"},
	{name: "mdy slash", in: "02/12/2024", order: OrderMDY, want: "2024-02-12"},
	{name: "dmy dot", in: "12.02.2024", order: OrderDMY, want: "2024-02-12"},
	{name: "dmy dash", in: "12-02-2024", order: OrderDMY, want: "2024-02-12"},
	{name: "mdy dash", in: "02-12-2024", order: OrderMDY, want: "2024-02-12"},
	{name: "mdy dot", in: "02.12.2024", order: OrderMDY, want: "2024-02-12"},
	{name: "ymd dash", in: "2024-02-12", order: OrderDMY, want: "2024-02-12"},
	{name: "ymd slash", in: "2024/02/12", order: OrderYMD, want: "2024-02-12"},
	{name: "ymd dot single digits", in: "2024.2.5", order: OrderYMD, want: "2024-02-05"},
	{name: "dmy two digit year", in: "12/02/24", order: OrderDMY, want: "2024-02-12"},
	{name: "dmy dot two digit year", in: "12.02.24", order: OrderDMY, want: "2024-02-12"},
	{name: "mdy two digit year", in: "2/12/24", order: OrderMDY, want: "2024-02-12"},
	{name: "yymmdd in ymd document", in: "24/02/12", order: OrderYMD, want: "2024-02-12"},
	{name: "dm no year", in: "12/02", order: OrderDMY, want: "2024-02-12"},
	{name: "md no year", in: "02/12", order: OrderMDY, want: "2024-02-12"},
	{name: "dm dash no year", in: "12-02", order: OrderDMY, want: "2024-02-12"},
	{name: "german dm dot no year", in: "12.02.", order: OrderDMY, want: "2024-02-12"},
	{name: "german dm then text", in: "12.02. Lastschrift", order: OrderDMY, want: "2024-02-12", rest: "Lastschrift"},
	{name: "unknown order reads day first", in: "03/02/2024", order: OrderUnknown, want: "2024-02-03"},
	{name: "date then description", in: "12/02/2024 TESCO STORES 1,234.56", order: OrderDMY, want: "2024-02-12", rest: "TESCO STORES 1,234.56"},
	{name: "date then time", in: "12/02/2024 14:33", order: OrderDMY, want: "2024-02-12", rest: "14:33"},
	{name: "leading spaces", in: "   12/02/2024", order: OrderDMY, want: "2024-02-12"},

	{name: "english abbrev two digit year", in: "12 Feb 24", want: "2024-02-12"},
	{name: "english full", in: "12 February 2024", want: "2024-02-12"},
	{name: "english month first", in: "Feb 12, 2024", want: "2024-02-12"},
	{name: "english month first no comma", in: "February 12 2024", want: "2024-02-12"},
	{name: "english month first comma glued", in: "Feb 12,2024", want: "2024-02-12"},
	{name: "english month first no year", in: "Feb 12", want: "2024-02-12"},
	{name: "english month first ordinal", in: "February 12th, 2024", want: "2024-02-12"},
	{name: "english sept", in: "3 Sept. 2024", want: "2024-09-03"},
	{name: "german dot day", in: "12. März 2024", want: "2024-03-12"},
	{name: "german maerz", in: "12. Maerz 2024", want: "2024-03-12"},
	{name: "german mrz", in: "12 Mrz 2024", want: "2024-03-12"},
	{name: "german dezember", in: "24. Dezember 2023", want: "2023-12-24"},
	{name: "german okt", in: "1. Okt. 2024", want: "2024-10-01"},
	{name: "french abbrev dot", in: "12 févr. 2024", want: "2024-02-12"},
	{name: "french full", in: "12 février 2024", want: "2024-02-12"},
	{name: "french premier", in: "1er janvier 2024", want: "2024-01-01"},
	{name: "french aout", in: "15 août 2024", want: "2024-08-15"},
	{name: "french decembre caps", in: "3 DÉCEMBRE 2023", want: "2023-12-03"},
	{name: "spanish de", in: "12 de febrero de 2024", want: "2024-02-12"},
	{name: "spanish dic", in: "12 dic 2024", want: "2024-12-12"},
	{name: "spanish ene", in: "5 ene. 2024", want: "2024-01-05"},
	{name: "spanish ordinal", in: "1º de marzo de 2024", want: "2024-03-01"},
	{name: "italian gen", in: "7 gen 2024", want: "2024-01-07"},
	{name: "italian maggio", in: "20 maggio 2024", want: "2024-05-20"},
	{name: "italian ott", in: "9 ott 2024", want: "2024-10-09"},
	{name: "dutch mei", in: "12 mei 2024", want: "2024-05-12"},
	{name: "dutch mrt", in: "12 mrt 2024", want: "2024-03-12"},
	{name: "dutch maart", in: "12 maart 2024", want: "2024-03-12"},
	{name: "portuguese fev", in: "12 fev 2024", want: "2024-02-12"},
	{name: "portuguese marco cedilla", in: "12 de março de 2024", want: "2024-03-12"},
	{name: "portuguese out", in: "2 out 2024", want: "2024-10-02"},
	{name: "portuguese dez", in: "31 dez 2024", want: "2024-12-31"},
	{name: "dashes", in: "12-Feb-2024", want: "2024-02-12"},
	{name: "dashes two digit", in: "12-FEB-24", want: "2024-02-12"},
	{name: "glued", in: "12FEB24", want: "2024-02-12"},
	{name: "glued four digit", in: "12FEB2024", want: "2024-02-12"},
	{name: "ordinal no year", in: "12th Feb", want: "2024-02-12"},
	{name: "ordinal 1st", in: "1st Feb", want: "2024-02-01"},
	{name: "ordinal 2nd", in: "2nd Feb", want: "2024-02-02"},
	{name: "ordinal 3rd", in: "3rd Feb 2024", want: "2024-02-03"},
	{name: "named no year", in: "12 Feb", want: "2024-02-12"},
	{name: "named then amount", in: "12 Feb 12.50", want: "2024-02-12", rest: "12.50"},
	{name: "named then grouped amount", in: "12 Feb 1,234.50", want: "2024-02-12", rest: "1,234.50"},
	{name: "named then space grouped amount", in: "12 Feb 12 500,00", want: "2024-02-12", rest: "12 500,00"},
	{name: "named then description", in: "12 Feb 2024 CARD PAYMENT", want: "2024-02-12", rest: "CARD PAYMENT"},
	{name: "named no year then description", in: "12 Feb CARD PAYMENT", want: "2024-02-12", rest: "CARD PAYMENT"},
	{name: "month first then amount", in: "Feb 12 100.00", want: "2024-02-12", rest: "100.00"},
	{name: "leap day", in: "29/02/2024", order: OrderDMY, want: "2024-02-29"},

	{name: "amount", in: "12.50"},
	{name: "amount comma", in: "1.234,56"},
	{name: "amount small", in: "12.05"},
	{name: "reference", in: "123456789012"},
	{name: "short reference", in: "0042 TRANSFER"},
	{name: "year month only", in: "2024-02"},
	{name: "month year only", in: "Feb 2024"},
	{name: "month first then decimal", in: "Feb 12.50"},
	{name: "three parts glued number", in: "12/02/20245"},
	{name: "date continues as number", in: "12.02.2024.5"},
	{name: "both parts over twelve", in: "13/14/2024"},
	{name: "day zero", in: "00/02/2024"},
	{name: "three digit first part", in: "123/02/2024"},
	{name: "three digit year", in: "12/02/202"},
	{name: "word", in: "Balance brought forward"},
	{name: "mayor is not may", in: "12 Mayor St"},
	{name: "day 32", in: "32 Jan 2024"},
	{name: "empty", in: ""},
	{name: "phone", in: "555-1234"},
}

func TestLexDateResolve(t *testing.T) {
	for _, tc := range dateCases {
		t.Run(tc.name, func(t *testing.T) {
			tok, rest, ok := LexDate(tc.in)
			if tc.want == "" {
				if ok {
					if got, ok := tok.Resolve(tc.order, &testPeriodStart, &testPeriodEnd); ok {
						t.Fatalf("lexDate(%q) = %+v (resolves to %s), rest %q; want no date", tc.in, tok, got.Format(time.DateOnly), rest)
					}
				}
				return
			}
			if !ok {
				t.Fatalf("lexDate(%q) not ok; want %s", tc.in, tc.want)
			}
			if rest != tc.rest {
				t.Errorf("lexDate(%q) rest = %q; want %q", tc.in, rest, tc.rest)
			}
			got, ok := tok.Resolve(tc.order, &testPeriodStart, &testPeriodEnd)
			if !ok {
				t.Fatalf("lexDate(%q) = %+v; resolve(%v) failed; want %s", tc.in, tok, tc.order, tc.want)
			}
			if s := got.Format(time.DateOnly); s != tc.want {
				t.Errorf("lexDate(%q).resolve(%v) = %s; want %s", tc.in, tc.order, s, tc.want)
			}
		})
	}
}

func TestResolveYear(t *testing.T) {
	day := func(y, m, d int) *time.Time {
		t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
		return &t
	}
	tests := []struct {
		name       string
		in         string
		order      DateOrder
		start, end *time.Time
		want       string // "" when resolve must fail
	}{
		{name: "dec to jan december", in: "20 Dec", start: day(2023, 12, 15), end: day(2024, 1, 14), want: "2023-12-20"},
		{name: "dec to jan january", in: "05 Jan", start: day(2023, 12, 15), end: day(2024, 1, 14), want: "2024-01-05"},
		{name: "dec to jan numeric", in: "02/01", order: OrderDMY, start: day(2023, 12, 15), end: day(2024, 1, 14), want: "2024-01-02"},
		{name: "dec to jan numeric mdy", in: "12/31", order: OrderMDY, start: day(2023, 12, 15), end: day(2024, 1, 14), want: "2023-12-31"},
		{name: "only start", in: "3 Mar", start: day(2022, 3, 1), want: "2022-03-03"},
		{name: "only end", in: "3 Mar", end: day(2021, 3, 31), want: "2021-03-03"},
		{name: "no period no year", in: "3 Mar"},
		{name: "two digit year no period", in: "3 Mar 99", want: "1999-03-03"},
		{name: "two digit year no period recent", in: "3 Mar 24", want: "2024-03-03"},
		{name: "two digit year near period century", in: "3/3/99", order: OrderDMY, start: day(2001, 1, 1), end: day(2001, 1, 31), want: "1999-03-03"},
		{name: "leap day outside leap year", in: "29 Feb", start: day(2023, 2, 1), end: day(2023, 2, 28), want: "2024-02-29"},
		{name: "impossible day", in: "31/04/2024", order: OrderDMY},
		{name: "feb 30", in: "30 Feb 2024"},
		{name: "mdy impossible month", in: "13/02/2024", order: OrderMDY},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tok, _, ok := LexDate(tc.in)
			if !ok {
				t.Fatalf("lexDate(%q) not ok", tc.in)
			}
			got, ok := tok.Resolve(tc.order, tc.start, tc.end)
			if tc.want == "" {
				if ok {
					t.Fatalf("resolve(%q) = %s; want failure", tc.in, got.Format(time.DateOnly))
				}
				return
			}
			if !ok {
				t.Fatalf("resolve(%q) failed; want %s", tc.in, tc.want)
			}
			if s := got.Format(time.DateOnly); s != tc.want {
				t.Errorf("resolve(%q) = %s; want %s", tc.in, s, tc.want)
			}
		})
	}
}

func TestGuessDateOrder(t *testing.T) {
	tests := []struct {
		name  string
		dates []string
		want  DateOrder
	}{
		{name: "day over twelve", dates: []string{"01/02/2024", "13/02/2024"}, want: OrderDMY},
		{name: "second part over twelve", dates: []string{"02/01/2024", "02/13/2024"}, want: OrderMDY},
		{name: "monotonic mdy", dates: []string{"01/02/2024", "01/09/2024", "02/03/2024", "02/07/2024"}, want: OrderMDY},
		{name: "monotonic dmy", dates: []string{"02/01/2024", "09/01/2024", "03/02/2024", "07/02/2024"}, want: OrderDMY},
		{name: "descending mdy", dates: []string{"02/07/2024", "02/03/2024", "01/09/2024", "01/02/2024"}, want: OrderMDY},
		{name: "tie goes dmy", dates: []string{"05/05/2024", "06/06/2024"}, want: OrderDMY},
		{name: "single ambiguous", dates: []string{"03/04/2024"}, want: OrderDMY},
		{name: "iso", dates: []string{"2024-02-01", "2024-02-13"}, want: OrderYMD},
		{name: "iso period with dmy rows", dates: []string{"2024-02-01", "01/02", "13/02"}, want: OrderDMY},
		{name: "named only", dates: []string{"12 Feb 2024", "Feb 13, 2024"}, want: OrderUnknown},
		{name: "no dates", dates: nil, want: OrderUnknown},
		{name: "majority wins over outlier", dates: []string{"13/01/2024", "14/01/2024", "01/13/2024"}, want: OrderDMY},
		{name: "no year mdy", dates: []string{"12/28", "12/30", "01/02", "01/05"}, want: OrderMDY},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var toks []DateToken
			for _, s := range tc.dates {
				tok, _, ok := LexDate(s)
				if !ok {
					t.Fatalf("lexDate(%q) not ok", s)
				}
				toks = append(toks, tok)
			}
			if got := GuessDateOrder(toks); got != tc.want {
				t.Errorf("guessDateOrder(%q) = %v; want %v", tc.dates, got, tc.want)
			}
		})
	}
}

// FuzzLexDate checks that lexing never panics, that rest is a suffix of the
// input, and that a resolved date is a real calendar date whose day and
// month come from the token.
func FuzzLexDate(f *testing.F) {
	for _, tc := range dateCases {
		f.Add(tc.in, int(tc.order))
	}
	f.Fuzz(func(t *testing.T, s string, order int) {
		tok, rest, ok := LexDate(s)
		if !ok {
			return
		}
		if tok.Text == "" {
			t.Fatalf("lexDate(%q) ok with empty Text", s)
		}
		if len(rest) >= len(s) {
			t.Fatalf("lexDate(%q) consumed nothing: rest %q", s, rest)
		}
		o := DateOrder(order & 3)
		got, ok := tok.Resolve(o, &testPeriodStart, &testPeriodEnd)
		if !ok {
			return
		}
		day, month, _, _ := tok.DayMonth(o)
		if got.Day() != day || int(got.Month()) != month {
			t.Fatalf("lexDate(%q).resolve(%v) = %s; token says day %d month %d", s, o, got.Format(time.DateOnly), day, month)
		}
		if y, m, d := got.Date(); time.Date(y, m, d, 0, 0, 0, 0, time.UTC) != got {
			t.Fatalf("resolve(%q) = %v is not a midnight UTC calendar date", s, got)
		}
	})
}

// Dates in CLDR's patterns of languages the engine holds no words of,
// with month names from CLDR.
func TestLexDateCLDR(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2025. 03. 03.", "2025-03-03"},
		{"3. 3. 2025", "2025-03-03"},
		{"03. 03. 2025.", "2025-03-03"},
		{"12.10. 23.", "2023-10-12"}, // recognition glued the first two parts
		{"3.3. 2025", "2025-03-03"},
		{"2025. márc. 3.", "2025-03-03"},
		{"3 bře 2025", "2025-03-03"},
		{"3 Μαρ 2025", "2025-03-03"},
		{"3 мар. 2025 г.", "2025-03-03"},
		{"3. maalisk. 2025", "2025-03-03"},
		{"17 października 2024", "2024-10-17"},
		{"12 Maerz 2024", "2024-03-12"},
		{"12 setiembre 2024", "2024-09-12"},
		{"6 thg 4, 2022", "2022-04-06"},
		{"1.1.22.", "2022-01-01"},
		{"2022 ж. 03 мам.", "2022-05-03"},
		{"2025 m. kovo 17 d.", "2025-03-17"},
		{"2024(e)ko abe. 22(a)", "2024-12-22"}, // CLDR's glued "(e)ko" and "(a)"
		{"1. stu 2025.", "2025-11-01"},
		{"1-mar, 2024", "2024-03-01"},   // Uzbek d-MMM, y: the month is no affix of the day
		{"1 d’abr. 2023", "2023-04-01"}, // Catalan names after "d’" and "de "
		{"30 d'abr. 2023", "2023-04-30"},
		{"1 de febr. de 2023", "2023-02-01"},
		{"3 ta’ Awwissu 2025", "2025-08-03"}, // Maltese: the particle from the pattern
		{"2024年3月5日", "2024-03-05"},
		{"2024년 3월 5일", "2024-03-05"},
		{NormalizeDigits("２０２４年３月５日"), "2024-03-05"},
		{NormalizeDigits("١٦/٠٤/٢٠٢٢"), "2022-04-16"},
	} {
		d, _, ok := LexDate(c.in)
		if !ok {
			t.Errorf("lexDate(%q) not ok", c.in)
			continue
		}
		got, ok := d.Resolve(OrderDMY, nil, nil)
		if !ok || got.Format("2006-01-02") != c.want {
			t.Errorf("lexDate(%q) = %v (%v), want %s", c.in, got, ok, c.want)
		}
	}
	// A name two languages give different months names none by itself.
	if m, ok := MonthOf(FoldWord("listopad")); ok {
		t.Errorf("listopad read as month %d: Croatian October or Polish November", m)
	}
}

// A month name languages share with different months ("lis": October in
// Croatian, November in Polish and Czech) takes the month of the languages
// whose date patterns print the date's shape; a shape none or both print
// reads no date.
func TestLexDateSharedMonthName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 lis 2023", "2023-11-01"},   // Polish d MMM y
		{"1. lis 2023.", "2023-10-01"}, // Croatian d. MMM y.
		{"17 listopada 2023", "2023-11-17"},
	} {
		d, _, ok := LexDate(c.in)
		if !ok {
			t.Errorf("LexDate(%q) not ok", c.in)
			continue
		}
		if got, ok := d.Resolve(OrderDMY, nil, nil); !ok || got.Format("2006-01-02") != c.want {
			t.Errorf("LexDate(%q) = %v, want %s", c.in, got, c.want)
		}
	}
	// A word that shortens a month name only by dropping letters makes no
	// date without a year: "14 rue de la Paix" is an address ("rue" of
	// Lithuanian "rugsėjo"), "14 rue 2024" a date.
	if d, _, ok := LexDate("14 rue de la Paix"); ok {
		t.Errorf("LexDate(14 rue de la Paix) = %+v, want no date", d)
	}
	if d, _, ok := LexDate("14 rue 2024"); !ok || d.Month != 9 {
		t.Errorf("LexDate(14 rue 2024) = %+v %v, want September", d, ok)
	}
	if d, _, ok := LexDate("lis 1, 2023"); ok {
		t.Errorf("LexDate(lis 1, 2023) = %+v: no language with the name prints that shape", d)
	}
	// With no year no pattern decides ("31 srp": July in Croatian, August
	// in Czech): the period does, and without one the date stays unread.
	d, _, ok := LexDate("31 srp")
	if !ok {
		t.Fatal("LexDate(31 srp) not ok")
	}
	day := func(s string) *time.Time { t, _ := time.Parse("2006-01-02", s); return &t }
	for _, c := range []struct{ from, to, want string }{
		{"2024-07-01", "2024-07-31", "2024-07-31"},
		{"2024-08-01", "2024-08-31", "2024-08-31"},
		{"2024-07-15", "2024-08-31", ""}, // both months fall in it
	} {
		got, ok := d.Resolve(OrderDMY, day(c.from), day(c.to))
		if c.want == "" && ok || c.want != "" && (!ok || got.Format("2006-01-02") != c.want) {
			t.Errorf("31 srp in %s..%s = %v %v, want %q", c.from, c.to, got, ok, c.want)
		}
	}
	if got, ok := d.Resolve(OrderDMY, nil, nil); ok {
		t.Errorf("31 srp with no period = %v, want unread", got)
	}
	// The first days of the next month's name fall within the slack of a
	// period's end; the month inside the period wins.
	d, _, _ = LexDate("1 srp")
	if got, ok := d.Resolve(OrderDMY, day("2024-07-01"), day("2024-07-31")); !ok || got.Format("2006-01-02") != "2024-07-01" {
		t.Errorf("1 srp in July = %v %v, want 2024-07-01", got, ok)
	}
}

// TestFoldWordASCII checks FoldWord's ASCII path against its Unicode
// path, which a combining accent at the end takes and drops.
func TestFoldWordASCII(t *testing.T) {
	for _, s := range []string{"", "F", "MAERZ", "Sept.", "DEC", "thg", "1er", "Q3-2024", "\t\x00~"} {
		if got, want := FoldWord(s), FoldWord(s+"\u0301"); got != want {
			t.Errorf("FoldWord(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestDayPeriod reads the words CLDR's time patterns print for the period
// of the day, in any case and with or without their dots.
func TestDayPeriod(t *testing.T) {
	for w, want := range map[string]bool{"p.m.": true, "PM": true, "am": true, "μ.μ.": true, "PTG": true, "pay": false, "Markt": false, "m": false} {
		if got := DayPeriod(w); got != want {
			t.Errorf("DayPeriod(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestLexDateRegionalMonthName reads a month a region names otherwise than
// its language does (Austria's "Jänner", CLDR de_AT).
func TestLexDateRegionalMonthName(t *testing.T) {
	d, _, ok := LexDate("1. Jänner 2024")
	if !ok || d.Month != 1 || d.Day != 1 || d.Year != 2024 {
		t.Errorf("LexDate(1. Jänner 2024) = %+v %v, want 1 January 2024", d, ok)
	}
}
