package ocr

import (
	"image"
	"regexp"
	"strings"
	"testing"

	"passbook/extract/source"
	"passbook/extract/synth"
)

func TestFigureKeyAndSameFigure(t *testing.T) {
	for s, want := range map[string]string{
		"1,234.56": "123456", "-5,607.72": "-560772", "(1,469.00)": "-146900", "12.50CR": "1250",
		"6,368.06-": "-636806", "2024-06-18": "20240618", "07/07": "0707",
	} {
		if got := figureKey(s); got != want {
			t.Errorf("figureKey(%q) = %q, want %q", s, got, want)
		}
	}
	for _, tc := range []struct {
		crop, cur string
		want      bool
	}{
		{"07/07", "07107", true},           // a separator read as a 1
		{"14/11/2024", "1471172024", true}, // both, as 7s
		{"195.92", "195:92;", true},        // marks garbled
		{"215.51", "215.01", false},        // another digit
		{"07/07", "07", false},             // digits lost, not separators
		{"1,234.56", "-1234.56", false},    // a sign
		{"3.20", "1234320", false},         // more than two digits apart
	} {
		if got := sameFigure(tc.crop, tc.cur); got != tc.want {
			t.Errorf("sameFigure(%q, %q) = %v, want %v", tc.crop, tc.cur, got, tc.want)
		}
	}
}

func TestFigureDoubts(t *testing.T) {
	disagreed := vw("215.01", 300, 360, 100, 1)
	disagreed.alt = "215.51"
	words := []ocrWord{
		vw("Rent", 0, 60, 100, 1), disagreed, vw("07107", 0, 50, 130, 2), vw("0042", 60, 100, 130, 2),
		vw("351", 300, 340, 130, 2), vw("20", 346, 366, 130, 2), vw("195:92;", 400, 460, 130, 2),
		vw("1,234.56", 500, 580, 130, 2), vw("10,", 600, 630, 160, 3), vw("12150", 0, 50, 160, 3),
		vw("1.0832", 100, 160, 160, 3), vw("$$27.00", 300, 370, 160, 3),
	}
	var got []string
	for _, d := range figureDoubts(words) {
		s := words[d.at].text
		if d.with >= 0 {
			s += "+" + words[d.with].text
		}
		got = append(got, s)
	}
	if want := "215.01 07107 351+20 195:92;"; strings.Join(got, " ") != want {
		t.Errorf("doubts %q, want %q", strings.Join(got, " "), want)
	}
}

// readGenerated renders a generated statement's page at 200 dpi,
// prepares it and reads it in the sparse mode.
func readGenerated(t *testing.T) (*image.Gray, float64, []ocrWord) {
	t.Helper()
	s, err := synth.GenerateWith(5, nil, synth.Options{OnePage: true, Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := synth.RenderPages(s.PDF, 200)
	if err != nil {
		t.Fatal(err)
	}
	g, dpi, _ := preparePage(pages[0].Img, 200)
	words, _, err := recognize(g, dpi, "eng", psmSparse)
	if err != nil {
		t.Fatal(err)
	}
	return g, dpi, words
}

// TestRereadFigures reads a generated statement, puts into its reading
// the misreads two reading modes make (other digits, a date's
// separators read as ones, a decimal point lost) and has the crops of the
// figures settle them. Without the re-reading every case keeps its
// misread.
func TestRereadFigures(t *testing.T) {
	g, dpi, words := readGenerated(t)
	slashed := regexp.MustCompile(`^[0-9]{2}/[0-9]{2}/[0-9]{4}$`)
	amount := regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$`)
	var date, amt []int
	for i, w := range words {
		switch {
		case slashed.MatchString(w.text):
			date = append(date, i)
		case amount.MatchString(w.text) && w.conf > 85:
			amt = append(amt, i)
		}
	}
	if len(date) < 2 || len(amt) < 3 {
		t.Fatalf("the page read %d dates and %d amounts, want at least 2 and 3", len(date), len(amt))
	}
	// otherDigit changes the last digit before the decimals.
	otherDigit := func(s string) string {
		i := strings.LastIndexAny(s, ".") - 1
		d := byte('0' + (s[i]-'0'+5)%10)
		return s[:i] + string(d) + s[i+1:]
	}
	type change struct {
		i          int
		text, alt  string
		want, note string
	}
	var changes []change
	a0, a1 := words[amt[0]].text, words[amt[1]].text
	changes = append(changes,
		change{amt[0], otherDigit(a0), a0, a0, "the other mode read the right digit"},
		change{amt[1], a1, otherDigit(a1), a1, "the other mode misread it"},
	)
	for _, i := range date[:2] {
		d := words[i].text
		changes = append(changes, change{i, strings.ReplaceAll(d, "/", "1"), "", d, "separators read as ones"})
	}
	for _, c := range changes {
		words[c.i].text, words[c.i].alt = c.text, c.alt
	}
	// The third amount cut at its decimal point into two words.
	cut := amt[2]
	whole := words[cut].text
	p := strings.LastIndex(whole, ".")
	b := words[cut].box
	mid := b.Min.X + b.Dx()*p/len(whole)
	words[cut].text, words[cut].box = whole[:p], image.Rect(b.Min.X, b.Min.Y, mid, b.Max.Y)
	words = append(words, ocrWord{text: whole[p+1:], box: image.Rect(mid+b.Dx()/len(whole), b.Min.Y, b.Max.X, b.Max.Y), conf: 90, line: words[cut].line})
	n := len(words)

	got, err := rereadFigures(g, dpi, words, figureDoubts(words))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if got[c.i].text != c.want {
			t.Errorf("%s: %q (read %q, other reading %q), want %q", c.note, got[c.i].text, c.text, c.alt, c.want)
		}
	}
	if got[cut].text != whole || len(got) != n-1 {
		t.Errorf("a figure cut at its point: %q and %d words, want %q and %d", got[cut].text, len(got), whole, n-1)
	}
}

// TestConfirmUncertain: dates and amounts read whole but with little
// confidence are read again on their own crops; those the crop reads the
// same are sure afterwards (their row is not sent for review), and one
// the crop reads otherwise stays as read and uncertain.
func TestConfirmUncertain(t *testing.T) {
	g, dpi, words := readGenerated(t)
	slashed := regexp.MustCompile(`^[0-9]{2}/[0-9]{2}/[0-9]{4}$`)
	amount := regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$`)
	var date, amt int = -1, -1
	var wrong int = -1
	for i, w := range words {
		switch {
		case date < 0 && slashed.MatchString(w.text) && w.conf > 85:
			date = i
		case amount.MatchString(w.text) && w.conf > 85:
			if amt < 0 {
				amt = i
			} else if wrong < 0 {
				wrong = i
			}
		}
	}
	if date < 0 || wrong < 0 {
		t.Fatalf("the page read no sure date or two sure amounts")
	}
	// Another digit before the decimals: still a whole figure.
	w := words[wrong].text
	k := strings.LastIndex(w, ".") - 1
	misread := w[:k] + string('0'+(w[k]-'0'+5)%10) + w[k+1:]
	if len(figureDoubts(append([]ocrWord(nil), ocrWord{text: misread, conf: 30}))) != 1 {
		t.Fatalf("%q read with little confidence is no doubt", misread)
	}
	for _, i := range []int{date, amt, wrong} {
		words[i].conf = 30
	}
	words[wrong].text = misread
	got, err := rereadFigures(g, dpi, words, figureDoubts(words))
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{date, amt} {
		if got[i].conf < source.LowConf {
			t.Errorf("%q: confidence %.0f after its crop read it the same, want at least %d", got[i].text, got[i].conf, source.LowConf)
		}
	}
	if got[wrong].text != misread || got[wrong].conf != 30 {
		t.Errorf("a misread the crop disagrees with: %q at %.0f, want %q at 30 (left uncertain)", got[wrong].text, got[wrong].conf, misread)
	}
}
