package tables

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"
)

// columnGap reports more than a word's space between two words of a line:
// the gap between two columns' headings.
func columnGap(a, b source.Word) bool {
	return b.X0-a.X1 > 0.6*max(a.Y1-a.Y0, b.Y1-b.Y0)
}

// headingCuts splits a run of heading words into whole headings, as few as
// can be, and returns where each starts; nil when the run does not start
// with a heading. A word that belongs to no heading stays with the heading
// before it ("Libellé | de l'opération"), as few such words as can be,
// unless a column's gap parts them. A money heading that only qualifies its neighbour ("Debit | Amount"), or
// names its role again ("Deposits & Credits"), stays joined to it.
func headingCuts(words []source.Word) []int {
	n := len(words)
	// cost[i] orders the readings of words[:i]: fewest words outside any
	// heading, then fewest headings; -1 when none reads them.
	type cost struct{ loose, heads int }
	better := func(a, b cost) bool { return a.loose < b.loose || a.loose == b.loose && a.heads < b.heads }
	best := make([]cost, n+1)
	from := make([]int, n+1)
	ok := make([]bool, n+1)
	ok[0] = true
	for i := 1; i <= n; i++ {
		for j := i - 1; j >= 0; j-- {
			if !ok[j] {
				continue
			}
			// words[j:i] is a heading followed by loose words.
			for k := i; k > j; k-- {
				if !isHeading(layout.JoinWords(words[j:k])) {
					continue
				}
				if k < i && columnGap(words[k-1], words[k]) {
					break // loose words a column's gap after it are not the heading's
				}
				c := cost{best[j].loose + i - k, best[j].heads + 1}
				if !ok[i] || better(c, best[i]) {
					best[i], from[i], ok[i] = c, j, true
				}
				break // the longest heading from j
			}
		}
	}
	if !ok[n] {
		return nil
	}
	var cuts []int
	for i := n; i > 0; i = from[i] {
		cuts = append([]int{from[i]}, cuts...)
	}
	for k := 1; k < len(cuts); k++ {
		end := n
		if k+1 < len(cuts) {
			end = cuts[k+1]
		}
		l, r := lexicon.ClassifyLabel(layout.JoinWords(words[cuts[k-1]:cuts[k]])), lexicon.ClassifyLabel(layout.JoinWords(words[cuts[k]:end]))
		// Two money headings of one role a word apart name one column
		// ("Deposits & Credits").
		if l == lexicon.RoleAmount && (r == lexicon.RoleDebit || r == lexicon.RoleCredit) || r == lexicon.RoleAmount && (l == lexicon.RoleDebit || l == lexicon.RoleCredit) || l == r && l.IsMoney() {
			cuts = append(cuts[:k], cuts[k+1:]...)
			k--
		}
	}
	return cuts
}

// stackedHeading reports whether below continues the heading line above:
// mostly heading words ("Amt. Amt. Balance"), or words each set under a
// heading above, under two or more of them ("F. | F." over "Transacción |
// Contable"). A description's first line set just under the heading is
// neither.
func stackedHeading(above, below *layout.Line) bool {
	if headingShare(below) >= 0.5 {
		return true
	}
	labels := BuildLabels([]*layout.Line{above})
	under := map[int]bool{}
	for _, w := range below.Words {
		k := slices.IndexFunc(labels, func(lb Label) bool { return w.X0 < lb.X1 && w.X1 > lb.X0 })
		if k < 0 {
			return false
		}
		under[k] = true
	}
	return len(under) >= 2
}

// over reports a line each of whose words stands over a heading of the
// line below it, two headings at least, or one word that makes, over a
// heading the lexicon does not know alone, one it knows ("F." over
// "Operación").
func over(above, below *layout.Line) bool {
	labels := BuildLabels([]*layout.Line{below})
	under := map[int]bool{}
	k := -1
	for _, w := range above.Words {
		k = slices.IndexFunc(labels, func(lb Label) bool { return w.X0 < lb.X1+2 && w.X1 > lb.X0-2 })
		if k < 0 {
			return false
		}
		under[k] = true
	}
	if len(above.Words) == 1 && labels[k].Role == lexicon.RoleNone {
		return lexicon.ClassifyLabel(above.Words[0].Text+" "+labels[k].Text) != lexicon.RoleNone
	}
	return len(under) >= 2
}

// headingShare is the share of a line's words that belong to heading
// phrases: a stacked heading's second line is mostly headings ("Amt. Amt.
// Balance"), a description's first line set just under the heading is not.
func headingShare(l *layout.Line) float64 {
	toks := strings.Fields(lexicon.FoldLabel(l.Text()))
	if len(toks) == 0 {
		return 0
	}
	covered := make([]bool, len(toks))
	for _, rp := range lexicon.Vocab().Headings {
		for _, p := range rp.Phrases {
			ps := strings.Fields(p)
		next:
			for s := 0; s+len(ps) <= len(toks); s++ {
				for k, f := range ps {
					if toks[s+k] != f {
						continue next
					}
				}
				for k := range ps {
					covered[s+k] = true
				}
			}
		}
	}
	n := 0
	for _, c := range covered {
		if c {
			n++
		}
	}
	return float64(n) / float64(len(toks))
}

// isHeading reports text that is one heading phrase, whole.
func isHeading(s string) bool {
	f := strings.TrimSpace(lexicon.FoldLabel(s))
	for _, rp := range lexicon.Vocab().Headings {
		if slices.Contains(rp.Phrases, f) {
			return true
		}
	}
	return false
}

// roleGroup puts roles that may share one printed phrase together, so that a
// phrase is split only between groups ("Date Description" is two labels,
// "Debit Amount" one).
func roleGroup(r lexicon.ColRole) int {
	switch {
	case r == lexicon.RoleNone:
		return 0
	case r.IsDate():
		return 1
	case r == lexicon.RoleDesc:
		return 2
	case r.IsText():
		return 5 // a type or reference column beside the description
	case r == lexicon.RoleDrCr:
		return 4
	case r == lexicon.RoleCount:
		return 6
	}
	return 3
}

// label is one column heading with its horizontal extent.
type Label struct {
	Text   string
	Role   lexicon.ColRole
	X0, X1 float64
	line   int // the band's line the label starts on
}

// buildLabels reads the headings of a header band (one to three lines):
// words close together on a line form a phrase, phrases stacked over one
// another form one label ("Withdrawal" over "Amt.").
func BuildLabels(band []*layout.Line) []Label {
	var phrases []Label
	for li, l := range band {
		var cur []source.Word
		flush := func() {
			if len(cur) == 0 {
				return
			}
			if cuts := headingCuts(cur); len(cuts) > 1 {
				// Every word belongs to a whole heading: one label each
				// ("Val. Date | Txn Date | Transaction Details").
				for k, a := range cuts {
					b := len(cur)
					if k+1 < len(cuts) {
						b = cuts[k+1]
					}
					phrases = append(phrases, Label{Text: layout.JoinWords(cur[a:b]), X0: cur[a].X0, X1: cur[b-1].X1, line: li})
				}
				cur = nil
				return
			}
			if isHeading(layout.JoinWords(cur)) {
				// One whole heading ("Date de valeur"): one label, though
				// its words name two dates.
				phrases = append(phrases, Label{Text: layout.JoinWords(cur), X0: cur[0].X0, X1: cur[len(cur)-1].X1, line: li})
				cur = nil
				return
			}
			// Split where neighbouring words name roles of different groups.
			start := 0
			for i := 1; i < len(cur); i++ {
				ri, wi := lexicon.ClassifyPhrase(cur[i].Text)
				rp, wp := lexicon.ClassifyPhrase(cur[i-1].Text)
				gi, gp := roleGroup(ri), roleGroup(rp)
				// A phrase that spans both words ("Date débit") is one label.
				_, pair := lexicon.ClassifyPhrase(cur[i-1].Text + " " + cur[i].Text)
				split := gi != 0 && gp != 0 && gi != gp && pair <= max(wi, wp)
				if !split && pair <= max(wi, wp) {
					// The words before and after read as headings of their
					// own ("Fecha contable | Concepto"), or as two money or
					// two date headings set close together ("Debits |
					// Running Balance"): two labels, unless one only
					// qualifies the other ("Debit Amount").
					l, r := lexicon.ClassifyLabel(layout.JoinWords(cur[start:i])), lexicon.ClassifyLabel(layout.JoinWords(cur[i:]))
					gl, gr := roleGroup(l), roleGroup(r)
					qualifies := l == lexicon.RoleAmount && (r == lexicon.RoleDebit || r == lexicon.RoleCredit) || r == lexicon.RoleAmount && (l == lexicon.RoleDebit || l == lexicon.RoleCredit)
					twoMoney := l.IsMoney() && r.IsMoney() && !qualifies
					// "Trans Date Posted"; "Data operazione Data contabile",
					// two whole headings of one role.
					twoDates := l.IsDate() && r.IsDate() && (l != r || isHeading(layout.JoinWords(cur[start:i])) && isHeading(layout.JoinWords(cur[i:])))
					split = gl != 0 && gr != 0 && gl != gr && gi != 0 || twoMoney && l != r || twoDates
				}
				if !split && columnGap(cur[i-1], cur[i]) && isHeading(layout.JoinWords(cur[start:i])) && !isHeading(layout.JoinWords(cur[start:i+1])) {
					// A whole heading, then more than a word's space before
					// a word that does not go on with it ("Verwerkingsdatum
					// Naam /" over "Omschrijving"): two labels.
					split = true
				}
				if !split && columnGap(cur[i-1], cur[i]) && li+1 < len(band) && stackedUnder(band[li+1], cur[i-1], cur[i]) {
					// The band's next line goes on under the word before
					// the gap and stops short of the word after ("Money
					// Money in" over "out"): the gap parts two columns'
					// headings, the first stacked on two lines.
					split = true
				}
				if split {
					phrases = append(phrases, Label{Text: layout.JoinWords(cur[start:i]), X0: cur[start].X0, X1: cur[i-1].X1, line: li})
					start = i
				}
			}
			phrases = append(phrases, Label{Text: layout.JoinWords(cur[start:]), X0: cur[start].X0, X1: cur[len(cur)-1].X1, line: li})
			cur = nil
		}
		for _, w := range l.Words {
			if len(cur) > 0 {
				prev := cur[len(cur)-1]
				if w.X0-prev.X1 > 1.2*max(w.Y1-w.Y0, l.Em) {
					flush()
				}
			}
			cur = append(cur, w)
		}
		flush()
	}
	// Merge phrases that overlap horizontally (stacked headings), reading
	// each stack top line first: "Value" over "Date" is "Value Date",
	// whichever of the two starts further left.
	sort.SliceStable(phrases, func(i, j int) bool { return phrases[i].X0 < phrases[j].X0 })
	var labels []Label
	var stacks [][]Label
	for _, p := range phrases {
		if n := len(labels); n > 0 && p.X0 < labels[n-1].X1-1 {
			labels[n-1].X1 = max(labels[n-1].X1, p.X1)
			stacks[n-1] = append(stacks[n-1], p)
			continue
		}
		labels = append(labels, p)
		stacks = append(stacks, []Label{p})
	}
	for i, st := range stacks {
		sort.SliceStable(st, func(a, b int) bool { return st[a].line < st[b].line })
		texts := make([]string, len(st))
		for k, p := range st {
			texts[k] = p.Text
		}
		labels[i].Text = strings.Join(texts, " ")
	}
	for i := range labels {
		labels[i].Role = lexicon.ClassifyLabel(labels[i].Text)
	}
	return labels
}

// stackedUnder reports a word of below under a, that ends before b starts.
func stackedUnder(below *layout.Line, a, b source.Word) bool {
	return slices.ContainsFunc(below.Words, func(w source.Word) bool { return w.X0 < a.X1 && w.X1 > a.X0 && w.X1 < b.X0 })
}

// headerScore says whether labels look like a transaction table's heading:
// a date column and a money column, with most of the band's words known.
func headerScore(labels []Label) int {
	hasDate, hasMoney, known := false, false, 0
	for _, lb := range labels {
		if lb.Role.IsDate() {
			hasDate = true
		}
		if lb.Role.IsMoney() {
			hasMoney = true
		}
		if lb.Role != lexicon.RoleNone {
			known++
		}
	}
	if !hasDate || !hasMoney || known < 3 || known*2 < len(labels) {
		return 0
	}
	return known
}

// isPlainText reports a line with no dates or amounts: a heading candidate.
func isPlainText(l *layout.Line) bool {
	for _, t := range l.Toks {
		if t.Kind != layout.TokText {
			return false
		}
	}
	return len(l.Toks) > 0 && len(l.Toks) <= 24
}

// header is a table heading found on a page.
type header struct {
	First, Last int // line indexes of the band
	Labels      []Label
}

// findHeaders finds the table headings among a page's lines.
func FindHeaders(lines []*layout.Line) []header {
	var hs []header
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !isPlainText(l) {
			continue
		}
		known := false
		for _, w := range l.Words {
			if lexicon.ClassifyLabel(w.Text) != lexicon.RoleNone {
				known = true
				break
			}
		}
		if !known {
			continue
		}
		// Grow the band to close plain-text neighbours (at most three
		// lines), short of a line that reaches into the band of a row
		// below it: that row's description, its cells centred on its line.
		first, last := i, i
		for last+1 < len(lines) && last-first < 2 && isPlainText(lines[last+1]) &&
			lines[last+1].Y0-lines[last].Y1 < 0.8*l.Height() && stackedHeading(lines[last], lines[last+1]) && !sectionTitle(lines[last+1].Text()) &&
			!(last+2 < len(lines) && !isPlainText(lines[last+2]) && lines[last+1].ReachesInto(lines[last+2])) {
			last++
		}
		// A heading's first line may hold no word the lexicon knows alone
		// ("Value | Posting" over "Date | Date"): a plain line just above,
		// each of whose words sits over a heading of the band, is part
		// of it, unless it is the heading found just before.
		if first > 0 && first == i && (len(hs) == 0 || hs[len(hs)-1].Last < first-1) && isPlainText(lines[first-1]) && lines[first].Y0-lines[first-1].Y1 < 0.8*l.Height() && over(lines[first-1], lines[first]) {
			first--
		}
		best, bestScore := header{}, 0
		for a := first; a <= last; a++ {
			for b := last; b >= a; b-- {
				lbs := BuildLabels(lines[a : b+1])
				if s := headerScore(lbs); s > bestScore {
					best, bestScore = header{First: a, Last: b, Labels: lbs}, s
				}
			}
		}
		if bestScore > 0 {
			// A title just above a heading ("DAILY ENDING BALANCE") is one
			// phrase; it is not a stacked part of the heading below it.
			// A section's title ("Payments and credits") never is, whatever
			// heading words it holds.
			for best.First < best.Last && (len(BuildLabels(lines[best.First:best.First+1])) == 1 || sectionTitle(lines[best.First].Text())) {
				lbs := BuildLabels(lines[best.First+1 : best.Last+1])
				if headerScore(lbs) < bestScore && !sectionTitle(lines[best.First].Text()) {
					break
				}
				best.First, best.Labels = best.First+1, lbs
			}
			hs = append(hs, best)
			i = best.Last
		} else if h, ok := datelessHeading(lines, first, last); ok {
			hs = append(hs, h)
			i = h.Last
		}
	}
	return hs
}

// datelessHeading reads a heading band that names money and text columns
// but no date, when the lines below it open with dates lined up left of its
// money columns: the date's heading was left blank, or recognition lost it
// (a grey band). The dates' column gets a date label with no text, or the
// heading over them that the lexicon does not know.
func datelessHeading(lines []*layout.Line, first, last int) (header, bool) {
	for a := first; a <= last; a++ {
		for b := last; b >= a; b-- {
			lbs := BuildLabels(lines[a : b+1])
			known, firstMoney, whole := 0, -1.0, true
			for _, lb := range lbs {
				if lb.Role.IsDate() {
					return header{}, false
				}
				if lb.Role != lexicon.RoleNone {
					known++
					// Each heading a whole one ("Somme", "Solde"), not
					// words of a description ("ATM withdrawal").
					whole = whole && isHeading(lb.Text)
				}
				if lb.Role.IsMoney() && firstMoney < 0 {
					firstMoney = lb.X0
				}
			}
			if firstMoney < 0 || known < 3 || known*2 < len(lbs) || !whole {
				continue
			}
			below := lines[b+1 : min(len(lines), b+1+maxDatelessRows)]
			x0, x1, n := dateColumn(below, false)
			if n < 2 || x1 > firstMoney {
				continue
			}
			if daysHeaded(below, x0) {
				// The dates head the rows of each day, over the
				// descriptions: the rows take them (readRows), no column
				// is theirs.
				return header{First: a, Last: b, Labels: lbs}, true
			}
			// A heading over the dates the lexicon does not know is theirs;
			// one it knows as another column's leaves no room for them.
			k := slices.IndexFunc(lbs, func(lb Label) bool { return lb.X0 < x1 && x0 < lb.X1 })
			switch {
			case k >= 0 && lbs[k].Role != lexicon.RoleNone:
				continue
			case k >= 0:
				lbs[k].Role = lexicon.RoleDate
			default:
				lbs = append(lbs, Label{Role: lexicon.RoleDate, X0: x0, X1: x1})
				sort.SliceStable(lbs, func(i, j int) bool { return lbs[i].X0 < lbs[j].X0 })
			}
			return header{First: a, Last: b, Labels: lbs}, true
		}
	}
	return header{}, false
}

// daysHeaded reports lines whose dates at x stand alone on their lines,
// each heading a day's rows, rather than opening rows of figures.
func daysHeaded(lines []*layout.Line, x float64) bool {
	heads, rows := 0, 0
	for _, l := range lines {
		if t := dayHeading(l); t != nil && atDateColumn(t, x) {
			heads++
		} else if t := openingDate(l, false); t != nil && atDateColumn(t, x) {
			rows++
		}
	}
	return heads > rows
}

// maxDatelessRows is how far below a heading with no date datelessHeading
// looks for the dates that open its rows.
const maxDatelessRows = 40

// labelsText lists a heading's labels with their roles.
func LabelsText(labels []Label) string {
	parts := make([]string, len(labels))
	for i, lb := range labels {
		parts[i] = fmt.Sprintf("%q@%.0f-%.0f=%s", lb.Text, lb.X0, lb.X1, lb.Role)
	}
	return strings.Join(parts, " | ")
}
