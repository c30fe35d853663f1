package synth

// The world's conventions, from CLDR through github.com/go-playground/locales
// v0.14.1 (MIT; generated from CLDR's data): each locale's short and medium
// date patterns, its month names, its decimal and grouping symbols and its
// minus sign; and from golang.org/x/text/currency (BSD-3-Clause, CLDR's
// supplemental data) the currency of its region and how many minor units
// cash amounts print. Nothing here is a hand list of conventions: the
// locale list below only says which of CLDR's locales world statements
// are drawn in (those whose dates print in a script the producers' fonts
// draw: Latin, Greek, Cyrillic).

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/go-playground/locales"
	"github.com/shopspring/decimal"
	"golang.org/x/text/currency"
	"golang.org/x/text/language"

	"github.com/go-playground/locales/af_ZA"
	"github.com/go-playground/locales/az_Latn_AZ"
	"github.com/go-playground/locales/be_BY"
	"github.com/go-playground/locales/bg_BG"
	"github.com/go-playground/locales/ca_ES"
	"github.com/go-playground/locales/cs_CZ"
	"github.com/go-playground/locales/cy_GB"
	"github.com/go-playground/locales/da_DK"
	"github.com/go-playground/locales/de_AT"
	"github.com/go-playground/locales/de_CH"
	"github.com/go-playground/locales/de_DE"
	"github.com/go-playground/locales/el_GR"
	"github.com/go-playground/locales/en_AU"
	"github.com/go-playground/locales/en_CA"
	"github.com/go-playground/locales/en_GB"
	"github.com/go-playground/locales/en_IE"
	"github.com/go-playground/locales/en_IN"
	"github.com/go-playground/locales/en_NZ"
	"github.com/go-playground/locales/en_PH"
	"github.com/go-playground/locales/en_SG"
	"github.com/go-playground/locales/en_US"
	"github.com/go-playground/locales/en_ZA"
	"github.com/go-playground/locales/es_AR"
	"github.com/go-playground/locales/es_CL"
	"github.com/go-playground/locales/es_CO"
	"github.com/go-playground/locales/es_ES"
	"github.com/go-playground/locales/es_MX"
	"github.com/go-playground/locales/es_PE"
	"github.com/go-playground/locales/et_EE"
	"github.com/go-playground/locales/eu_ES"
	"github.com/go-playground/locales/fi_FI"
	"github.com/go-playground/locales/fil_PH"
	"github.com/go-playground/locales/fr_BE"
	"github.com/go-playground/locales/fr_CA"
	"github.com/go-playground/locales/fr_CH"
	"github.com/go-playground/locales/fr_FR"
	"github.com/go-playground/locales/ga_IE"
	"github.com/go-playground/locales/gl_ES"
	"github.com/go-playground/locales/hi_IN"
	"github.com/go-playground/locales/hr_HR"
	"github.com/go-playground/locales/hu_HU"
	"github.com/go-playground/locales/id_ID"
	"github.com/go-playground/locales/is_IS"
	"github.com/go-playground/locales/it_CH"
	"github.com/go-playground/locales/it_IT"
	"github.com/go-playground/locales/ja_JP"
	"github.com/go-playground/locales/kk_KZ"
	"github.com/go-playground/locales/ko_KR"
	"github.com/go-playground/locales/lt_LT"
	"github.com/go-playground/locales/lv_LV"
	"github.com/go-playground/locales/mk_MK"
	"github.com/go-playground/locales/ms_MY"
	"github.com/go-playground/locales/mt_MT"
	"github.com/go-playground/locales/nb_NO"
	"github.com/go-playground/locales/nl_BE"
	"github.com/go-playground/locales/nl_NL"
	"github.com/go-playground/locales/pl_PL"
	"github.com/go-playground/locales/pt_BR"
	"github.com/go-playground/locales/pt_PT"
	"github.com/go-playground/locales/ro_RO"
	"github.com/go-playground/locales/ru_RU"
	"github.com/go-playground/locales/sk_SK"
	"github.com/go-playground/locales/sl_SI"
	"github.com/go-playground/locales/sq_AL"
	"github.com/go-playground/locales/sr_Latn_RS"
	"github.com/go-playground/locales/sv_SE"
	"github.com/go-playground/locales/sw_KE"
	"github.com/go-playground/locales/tr_TR"
	"github.com/go-playground/locales/uk_UA"
	"github.com/go-playground/locales/uz_Latn_UZ"
	"github.com/go-playground/locales/vi_VN"
	"github.com/go-playground/locales/zh_Hans_CN"
)

// worldTranslators are the CLDR locales world statements are drawn in.
func worldTranslators() []locales.Translator {
	return []locales.Translator{
		en_US.New(),
		en_GB.New(),
		en_IN.New(),
		en_AU.New(),
		en_CA.New(),
		en_IE.New(),
		en_NZ.New(),
		en_ZA.New(),
		en_SG.New(),
		en_PH.New(),
		de_DE.New(),
		de_AT.New(),
		de_CH.New(),
		fr_FR.New(),
		fr_CA.New(),
		fr_BE.New(),
		fr_CH.New(),
		es_ES.New(),
		es_MX.New(),
		es_AR.New(),
		es_CL.New(),
		es_CO.New(),
		es_PE.New(),
		it_IT.New(),
		it_CH.New(),
		nl_NL.New(),
		nl_BE.New(),
		pt_PT.New(),
		pt_BR.New(),
		pl_PL.New(),
		cs_CZ.New(),
		sk_SK.New(),
		hu_HU.New(),
		ro_RO.New(),
		bg_BG.New(),
		hr_HR.New(),
		sl_SI.New(),
		sr_Latn_RS.New(),
		lt_LT.New(),
		lv_LV.New(),
		et_EE.New(),
		fi_FI.New(),
		sv_SE.New(),
		nb_NO.New(),
		da_DK.New(),
		is_IS.New(),
		tr_TR.New(),
		el_GR.New(),
		ru_RU.New(),
		uk_UA.New(),
		kk_KZ.New(),
		id_ID.New(),
		ms_MY.New(),
		vi_VN.New(),
		fil_PH.New(),
		sw_KE.New(),
		af_ZA.New(),
		ja_JP.New(),
		ko_KR.New(),
		zh_Hans_CN.New(),
		hi_IN.New(),
		ca_ES.New(),
		gl_ES.New(),
		eu_ES.New(),
		ga_IE.New(),
		cy_GB.New(),
		mt_MT.New(),
		sq_AL.New(),
		mk_MK.New(),
		be_BY.New(),
		az_Latn_AZ.New(),
		uz_Latn_UZ.New(),
	}
}

// Locale is one CLDR locale's conventions, as a world statement prints
// them.
type Locale struct {
	ID string // CLDR's name, "hu_HU"
	// Decimal and Group are the decimal mark and the grouping separator
	// (a space, no-break or narrow no-break space, an apostrophe, a dot or
	// a comma); Indian groups by two after the first three digits.
	Decimal, Group string
	Indian         bool
	Minus          string
	// Currency is the ISO code of the region's currency and Digits the
	// minor units its cash amounts print (0 for JPY, KRW, HUF, IDR, VND,
	// CLP, ISK); CashDigits those of its cash, which some banks print
	// (HUF, IDR and CZK statements in whole units).
	Currency           string
	Digits, CashDigits int
	// DayFirst: the short date puts the day before the month; YearFirst:
	// the year before both.
	DayFirst, YearFirst bool
	// Medium says whether the medium date pattern's month names print in
	// a script the fonts draw.
	Medium bool
	t      locales.Translator
}

// GroupName is the locale group a report counts a locale in: its number
// shape, which is what a reader has to learn from the document.
func (l *Locale) GroupName() string {
	sp := map[string]string{" ": "space", "\u00a0": "nbsp", "\u202f": "narrow-nbsp", "'": "apostrophe", "’": "apostrophe", ".": "dot", ",": "comma"}
	g := sp[l.Group]
	if l.Indian {
		g = "indian"
	}
	name := fmt.Sprintf("%s-group %s-decimal", g, sp[l.Decimal])
	if l.Digits == 0 {
		name = g + "-group no-minor-unit"
	}
	return name
}

// ShortDate prints t in the locale's short date pattern ("2025. 03. 03.",
// "3/3/25", "03.03.2025").
func (l *Locale) ShortDate(t time.Time) string { return l.t.FmtDateShort(t) }

// MediumDate prints t in the locale's medium pattern ("3 mars 2025",
// "03-Mar-2025"); the short one where the medium's month names print in a
// script the fonts lack.
func (l *Locale) MediumDate(t time.Time) string {
	if !l.Medium {
		return l.ShortDate(t)
	}
	return l.t.FmtDateMedium(t)
}

// NoYearDate prints day and month without the year: the short pattern
// with its year taken out ("03.03.", "3/3", "3. 3."), or the day and the
// month's abbreviated name. Statements print it when the period gives the
// year.
func (l *Locale) NoYearDate(t time.Time, named bool) string {
	if named && l.Medium {
		m := l.t.MonthAbbreviated(t.Month())
		if l.DayFirst {
			return fmt.Sprintf("%d %s", t.Day(), m)
		}
		return fmt.Sprintf("%s %d", m, t.Day())
	}
	s := l.ShortDate(t)
	notDigit := func(r rune) bool { return !unicode.IsDigit(r) }
	year := fmt.Sprint(t.Year())
	if !strings.Contains(s, year) {
		year = fmt.Sprintf("%02d", t.Year()%100)
	}
	if l.YearFirst {
		return strings.TrimLeftFunc(strings.TrimPrefix(s, year), notDigit)
	}
	i := strings.LastIndex(s, year)
	out := strings.TrimRightFunc(s[:i], notDigit)
	if strings.HasPrefix(s[i+len(year):], ".") || strings.HasSuffix(s[:i], ". ") {
		out += "."
	}
	return out
}

// Number prints |v| with the locale's symbols and the digits given.
func (l *Locale) Number(v decimal.Decimal, digits int) string {
	s := v.Abs().StringFixed(int32(digits))
	whole, frac, _ := strings.Cut(s, ".")
	var groups []string
	for n := 3; len(whole) > n; {
		groups = append([]string{whole[len(whole)-n:]}, groups...)
		whole = whole[:len(whole)-n]
		if l.Indian {
			n = 2
		}
	}
	groups = append([]string{whole}, groups...)
	out := strings.Join(groups, l.Group)
	if digits > 0 {
		out += l.Decimal + frac
	}
	return out
}

var (
	worldLocalesOnce sync.Once
	worldLocales     []*Locale
)

// WorldLocales lists the locales world statements are drawn in, each
// read from CLDR.
func WorldLocales() []*Locale {
	worldLocalesOnce.Do(func() {
		for _, t := range worldTranslators() {
			if l, ok := newLocale(t); ok {
				worldLocales = append(worldLocales, l)
			}
		}
	})
	return worldLocales
}

// newLocale reads one translator's conventions by formatting probes:
// 1234567.5 gives the symbols and the grouping, 17 March 2025 the date
// order.
func newLocale(t locales.Translator) (*Locale, bool) {
	l := &Locale{ID: t.Locale(), t: t}
	n := []rune(t.FmtNumber(1234567.5, 2))
	// "1<g>234<g>567<d>50" or "12<g>34<g>567<d>50".
	digits := func(rs []rune) string {
		var b strings.Builder
		for _, r := range rs {
			if unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	if digits(n) != "123456750" {
		return nil, false // native digits
	}
	i := strings.LastIndexFunc(string(n[:len(n)-2]), unicode.IsDigit)
	rs := string(n)
	l.Decimal = rs[i+1 : len(rs)-2]
	head := strings.IndexFunc(rs, func(r rune) bool { return !unicode.IsDigit(r) })
	rest := rs[head:]
	l.Group = rest[:strings.IndexFunc(rest, unicode.IsDigit)]
	l.Indian = head == 2
	if l.Decimal == l.Group {
		return nil, false // a number CLDR's data here cannot tell apart
	}
	l.Minus = strings.TrimRightFunc(t.FmtNumber(-1, 0), unicode.IsDigit)
	if l.Minus == "" {
		l.Minus = "-"
	}
	region := l.ID[strings.LastIndex(l.ID, "_")+1:]
	reg, err := language.ParseRegion(region)
	if err != nil {
		return nil, false
	}
	unit, ok := currency.FromRegion(reg)
	if !ok {
		return nil, false
	}
	l.Currency = unit.String()
	l.Digits, _ = currency.Standard.Rounding(unit)
	l.CashDigits, _ = currency.Cash.Rounding(unit)
	probe := time.Date(2025, 3, 17, 0, 0, 0, 0, time.UTC)
	short := t.FmtDateShort(probe)
	if !drawable(short) || !strings.Contains(short, "17") {
		return nil, false
	}
	di, yi := strings.Index(short, "17"), strings.Index(short, "25")
	mi := strings.IndexAny(short, "3")
	if yi == di+1 { // "2025" holds no "17"; "25" after "20"
		yi = strings.Index(short, "2025")
	}
	l.DayFirst = di < mi
	l.YearFirst = yi >= 0 && yi < di && yi < mi
	l.Medium = drawable(t.FmtDateMedium(probe)) && drawable(strings.Join(t.MonthsAbbreviated(), ""))
	return l, true
}

// drawable reports whether the producers' fonts (DejaVu, Liberation)
// draw every letter of s: Latin, Greek and Cyrillic, digits and
// punctuation.
func drawable(s string) bool {
	for _, r := range s {
		if r > 0x52f && !unicode.In(r, unicode.Zs, unicode.Pd, unicode.Po, unicode.Pf, unicode.Pi) {
			return false
		}
	}
	return true
}

// pickLocale draws a locale.
func pickLocale(r *rand.Rand) *Locale {
	ls := WorldLocales()
	return ls[r.IntN(len(ls))]
}
