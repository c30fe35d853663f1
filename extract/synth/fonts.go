package synth

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Fonts the browser and the office suite print with, from Debian's
// fonts-liberation (the same widths as fpdf's Helvetica, Times and
// Courier) and fonts-dejavu-core (wider).

// fontDirs are where Debian puts them.
var fontDirs = []string{"/usr/share/fonts/truetype/liberation", "/usr/share/fonts/truetype/dejavu"}

// face is a font a producer prints with.
type face struct {
	family        string // the family the document names
	regular, bold string // font files
	// system: the document names a family fontconfig resolves (a web-safe
	// name); otherwise a browser loads the files with @font-face.
	system bool
	// metric: the widths of the fpdf core font of its class.
	metric  bool
	generic string // CSS generic family
}

// faces are the fonts of each fpdf font class.
var faces = map[string][]face{
	"Helvetica": {
		{"Arial", "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", true, true, ""},
		{"Liberation Sans", "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", false, true, ""},
		{"Verdana", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", true, false, ""},
		{"DejaVu Sans", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", false, false, ""},
		{"DejaVu Sans Condensed", "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", false, false, ""},
	},
	"Times": {
		{"Times New Roman", "LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf", true, true, ""},
		{"Liberation Serif", "LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf", false, true, ""},
		{"Georgia", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", true, false, ""},
		{"DejaVu Serif", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", false, false, ""},
	},
	"Courier": {
		{"Courier New", "LiberationMono-Regular.ttf", "LiberationMono-Bold.ttf", true, true, ""},
		{"Liberation Mono", "LiberationMono-Regular.ttf", "LiberationMono-Bold.ttf", false, true, ""},
		{"DejaVu Sans Mono", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf", false, false, ""},
	},
}

// generic is the CSS generic family of each fpdf font class: what a
// browser falls back to (fontconfig gives DejaVu).
var generic = map[string]string{"Helvetica": "sans-serif", "Times": "serif", "Courier": "monospace"}

// pickFace draws a face of the layout's font class; metricOnly keeps to
// faces with fpdf's widths.
func pickFace(r *rand.Rand, class string, metricOnly bool) face {
	// Half the documents name a face with fpdf's widths.
	metricOnly = metricOnly || r.IntN(2) == 0
	var fs []face
	for _, f := range faces[class] {
		if f.metric || !metricOnly {
			fs = append(fs, f)
		}
	}
	f := pickOne(r, fs)
	f.generic = generic[class]
	return f
}

// stack is the face as a CSS font-family list: its family, then the
// generic family Chromium falls back to for a name that is not installed
// (Verdana and Georgia are fontconfig's DejaVu only that way).
func (f face) stack() string { return fmt.Sprintf("%q, %s", f.family, f.generic) }

// features names what a face adds to a sample: font-system or
// font-embedded, and font-dejavu for the wider faces.
func (f face) features(webFonts bool) []string {
	var out []string
	if webFonts {
		out = append(out, map[bool]string{true: "font-system", false: "font-embedded"}[f.system])
	}
	if !f.metric {
		out = append(out, "font-dejavu")
	}
	return out
}

var (
	fontMu    sync.Mutex
	fontCache = map[string]*sfnt.Font{}
)

// fontPath finds a font file.
func fontPath(file string) (string, error) {
	dirs := append(fontDirs[:len(fontDirs):len(fontDirs)], scriptFontDirs...)
	for _, d := range dirs {
		p := filepath.Join(d, file)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("font %s not in %v: install Debian's fonts-liberation, fonts-dejavu-core, fonts-noto-core and fonts-ipafont-gothic (make test-deps does)", file, dirs)
}

func loadFont(file string) (*sfnt.Font, error) {
	fontMu.Lock()
	defer fontMu.Unlock()
	if f, ok := fontCache[file]; ok {
		return f, nil
	}
	p, err := fontPath(file)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	fontCache[file] = f
	return f, nil
}

// width is s's width in mm at size pt in the face (kerning aside).
func (f face) width(s string, size float64, bold bool) (float64, error) {
	file := f.regular
	if bold {
		file = f.bold
	}
	fnt, err := loadFont(file)
	if err != nil {
		return 0, err
	}
	var b sfnt.Buffer
	upem := fixed.Int26_6(fnt.UnitsPerEm())
	total := 0
	for _, r := range s {
		gi, err := fnt.GlyphIndex(&b, r)
		if err != nil {
			return 0, err
		}
		adv, err := fnt.GlyphAdvance(&b, gi, upem, font.HintingNone)
		if err != nil {
			return 0, err
		}
		total += int(adv)
	}
	return float64(total) / float64(upem) * size * 25.4 / 72, nil
}

// fit is the factor the face's sizes are multiplied by so that every run
// fpdf drew is no wider than fpdf drew it: 1 for faces with fpdf's widths,
// less for wider ones. Runs under 5 mm are left out: their columns have
// a few millimetres to spare.
func (f face) fit(t *trace) (float64, error) {
	worst := 1.0
	for _, p := range t.pages {
		for _, r := range p.runs {
			if r.w < 5 {
				continue
			}
			w, err := f.width(r.text, r.size, r.bold)
			if err != nil {
				return 0, err
			}
			worst = max(worst, w/r.w)
		}
	}
	if worst <= 1.005 {
		return 1, nil
	}
	return 1 / (worst * 1.02), nil
}
