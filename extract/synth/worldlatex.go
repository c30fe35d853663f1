package synth

import (
	"fmt"
	"strings"
)

// latex is the statement as a LaTeX document for pdflatex: one longtable
// of p-columns in the statement's widths, every cell a \multicolumn in
// its alignment, LaTeX's own line breaking in each, in Times or Helvetica
// (psnfss) with T1 encoding and pdfTeX's ToUnicode maps.
func (d *worldDoc) latex() string {
	var b strings.Builder
	sans := strings.Contains(worldFaces[d.st.face].family, "Sans")
	family := `\usepackage{mathptmx}`
	if sans {
		family = `\usepackage[scaled=0.92]{helvet}\renewcommand{\familydefault}{\sfdefault}`
	}
	fmt.Fprintf(&b, `\documentclass{article}
\usepackage[a4paper,margin=%.0fmm,bottom=25mm]{geometry}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{textcomp,array,longtable,colortbl}
%s
\input glyphtounicode
\pdfgentounicode=1
\setlength{\tabcolsep}{1mm}
\setlength{\LTleft}{0pt}
\setlength{\LTpre}{0pt}
\makeatletter
\def\ps@world{\def\@oddhead{}\def\@evenhead{}\def\@oddfoot{\hfil %s~\thepage\hfil}\let\@evenfoot\@oddfoot}
\makeatother
\pagestyle{world}
\begin{document}
\fontsize{%.1f}{%.1f}\selectfont
\begin{longtable}{%s}
`, worldMargin, family, latexText(d.pageWord), d.st.size, d.st.size*1.3, strings.Repeat("l", len(d.widths)))
	width := worldPageW - 2*worldMargin
	spanW := func(c wcell) float64 {
		w := 0.0
		for i := c.col; i < c.col+c.span; i++ {
			w += d.widths[i]
		}
		return w*width - 2
	}
	for _, l := range d.lines {
		if l.gap > 0 {
			fmt.Fprintf(&b, "\\noalign{\\vspace{%.2fex}}\n", l.gap*2)
		}
		if l.pageBreak {
			b.WriteString("\\newpage\n")
			continue
		}
		if len(l.cells) == 0 {
			continue
		}
		if l.boxed {
			b.WriteString("\\hline\n")
		}
		if l.shade {
			b.WriteString("\\rowcolor[gray]{0.88}")
		}
		var cells []string
		for col := 0; col < len(d.widths); {
			c, ok := cellAt(l, col)
			if !ok {
				cells = append(cells, "")
				col++
				continue
			}
			align := `\raggedright`
			if c.right {
				align = `\raggedleft`
			}
			bar := ""
			if l.boxed {
				bar = "|"
			}
			text := latexText(c.text)
			if l.bold {
				text = `\textbf{` + text + `}`
			}
			if l.title {
				text = `{\large ` + text + `}`
			}
			cells = append(cells, fmt.Sprintf(`\multicolumn{%d}{%s>{%s\arraybackslash}p{%.1fmm}%s}{%s}`, c.span, bar, align, spanW(c), bar, text))
			col += c.span
		}
		b.WriteString(strings.Join(cells, " & "))
		b.WriteString(" \\\\\n")
		if l.rule && !d.web || l.boxed {
			b.WriteString("\\hline\n")
		}
	}
	b.WriteString("\\end{longtable}\n\\end{document}\n")
	return b.String()
}

// latexText escapes text for LaTeX; no-break spaces print as ties and an
// apostrophe as one, not as a right quote.
func latexText(s string) string {
	return strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`,
		"{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
		"\u00a0", "~", "\u202f", "~", "\u2009", "~", "−", `\textminus{}`, "'", `\textquotesingle{}`).Replace(s)
}
