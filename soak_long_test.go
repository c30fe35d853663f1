//go:build soak

package main

// TestSoak is `make soak`: an office's day (MINUTES, 60 by default) of the
// soak harness's mixed load on SQLite and then on PostgreSQL, sampled each
// minute. Besides the checks of any soak, the server's and workers' memory,
// open files and goroutines must stay flat: their mean over the last
// quarter of the run within 10% of their mean over the second quarter
// (minutes 45-60 against 15-30 for an hour). Each store's samples are
// written to docs/soak-STORE.json and drawn in docs/soak-STORE.png.

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"passbook/store/pgtest"
)

func TestSoak(t *testing.T) {
	minutes := 60.0
	if v := os.Getenv("MINUTES"); v != "" {
		m, err := strconv.ParseFloat(v, 64)
		if err != nil || m < 2 {
			t.Fatalf("MINUTES=%q: want a number of minutes, at least 2", v)
		}
		minutes = m
	}
	sample := time.Minute
	if minutes < 10 {
		sample = time.Duration(minutes * float64(time.Minute) / 10)
	}
	files := newSoakFiles(t)
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "soak.db")
			if kind == "postgres" {
				pg, err := pgtest.StartDurable()
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { pg.Stop() })
				if data, err = pg.NewDatabase(); err != nil {
					t.Fatal(err)
				}
			}
			rep := runSoak(t, soakConfig{data: data, duration: time.Duration(minutes * float64(time.Minute)), sample: sample, seed: 32, clients: 2}, files)
			rep.check(t)
			flat := checkFlat(t, rep.Samples)
			fmt.Printf("SOAK %s %.0f min: %d uploads (%d deleted), %d downloads, %d edits, %d folder changes, %d pages charged for %d converted; stuck %d, failed %d; %s\n",
				kind, minutes, rep.uploads, rep.deleted, rep.downloads, rep.edits, rep.folder, rep.charged, rep.pagesConverted, rep.stuck, len(rep.failed), flat)
			for _, s := range rep.Samples {
				fmt.Printf("SOAK %s minute %5.1f: server %.0f MB, workers %.0f MB, %d files, %d goroutines, data %.1f MB, status p99 %.1f ms, queue age %.1f s, %d uploads; server heap %.0f MB live, %.0f in use, %.0f free\n",
					kind, s.At, s.ServerMB, s.WorkersMB, s.Files, s.Goroutines, s.DataMB, s.StatusP99ms, s.QueueAgeS, s.Uploads, s.HeapLiveMB, s.HeapInuseMB, s.HeapFreeMB)
			}
			out := os.Getenv("SOAK_OUT")
			if out == "" {
				out = "docs"
			}
			j, _ := json.MarshalIndent(rep.Samples, "", "  ")
			if err := os.WriteFile(filepath.Join(out, "soak-"+kind+".json"), append(j, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			title := fmt.Sprintf("passbook soak on %s, %.0f minutes: %d uploads, %d downloads, %d edits, %d folder changes", kind, minutes, rep.uploads, rep.downloads, rep.edits, rep.folder)
			if err := writeSoakPlot(filepath.Join(out, "soak-"+kind+".png"), title, rep.Samples); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// checkFlat compares the mean of each resource over the last quarter of
// the samples with its mean over the second quarter, and fails t past 10%
// (and, for the small counts of open files, past 2 either way).
func checkFlat(t *testing.T, ss []soakSample) string {
	t.Helper()
	end := ss[len(ss)-1].At
	mean := func(f func(soakSample) float64, from, to float64) float64 {
		sum, n := 0.0, 0
		for _, s := range ss {
			if s.At > from && s.At <= to {
				sum += f(s)
				n++
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return sum / float64(n)
	}
	report := ""
	for _, m := range []struct {
		name  string
		f     func(soakSample) float64
		slack float64
	}{
		{"memory", func(s soakSample) float64 { return s.ServerMB + s.WorkersMB }, 0},
		{"open files", func(s soakSample) float64 { return float64(s.Files) }, 2},
		{"goroutines", func(s soakSample) float64 { return float64(s.Goroutines) }, 2},
	} {
		early := mean(m.f, end/4, end/2)
		late := mean(m.f, end*3/4, end)
		report += fmt.Sprintf("%s %.1f -> %.1f; ", m.name, early, late)
		if math.IsNaN(early) || math.IsNaN(late) || late > early*1.1+m.slack {
			t.Errorf("%s not flat: mean %.1f over the second quarter, %.1f over the last", m.name, early, late)
		}
	}
	return report
}

// writeSoakPlot draws the samples, one panel a figure, into a PNG.
func writeSoakPlot(path, title string, ss []soakSample) error {
	panels := []struct {
		name  string
		lines []func(soakSample) float64
		names []string
	}{
		{"memory, MB", []func(soakSample) float64{func(s soakSample) float64 { return s.ServerMB }, func(s soakSample) float64 { return s.WorkersMB }, func(s soakSample) float64 { return s.HeapInuseMB }}, []string{"server", "workers", "server heap"}},
		{"open files (server and workers)", []func(soakSample) float64{func(s soakSample) float64 { return float64(s.Files) }}, nil},
		{"goroutines", []func(soakSample) float64{func(s soakSample) float64 { return float64(s.Goroutines) }}, nil},
		{"data, MB", []func(soakSample) float64{func(s soakSample) float64 { return s.DataMB }}, nil},
		{"GET /status p99, ms", []func(soakSample) float64{func(s soakSample) float64 { return s.StatusP99ms }}, nil},
		{"queue age (oldest upload not done), s", []func(soakSample) float64{func(s soakSample) float64 { return s.QueueAgeS }}, nil},
	}
	const w, ph, top, left, right = 900, 170, 40, 60, 20
	img := image.NewRGBA(image.Rect(0, 0, w, top+len(panels)*ph+20))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	ink := color.RGBA{40, 40, 40, 255}
	grid := color.RGBA{220, 220, 220, 255}
	colours := []color.RGBA{{31, 119, 180, 255}, {214, 39, 40, 255}, {44, 160, 44, 255}}
	text := func(x, y int, s string, c color.Color) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	line := func(x0, y0, x1, y1 int, c color.Color) {
		n := max(abs(x1-x0), abs(y1-y0), 1)
		for i := 0; i <= n; i++ {
			img.Set(x0+(x1-x0)*i/n, y0+(y1-y0)*i/n, c)
		}
	}
	text(left, 20, title, ink)
	tEnd := 1.0
	if len(ss) > 0 {
		tEnd = max(ss[len(ss)-1].At, 1e-9)
	}
	for i, p := range panels {
		y0 := top + i*ph
		x0, x1, yTop, yBot := left, w-right, y0+20, y0+ph-25
		hi := 0.0
		for _, s := range ss {
			for _, f := range p.lines {
				hi = max(hi, f(s))
			}
		}
		if hi == 0 {
			hi = 1
		}
		hi *= 1.15
		for k := 0; k <= 4; k++ {
			y := yBot - (yBot-yTop)*k/4
			line(x0, y, x1, y, grid)
			text(4, y+4, strconv.FormatFloat(hi*float64(k)/4, 'f', 1, 64), ink)
		}
		for k := 0; k <= 5; k++ {
			x := x0 + (x1-x0)*k/5
			text(x-8, yBot+14, strconv.FormatFloat(math.Round(tEnd*float64(k)/5*10)/10, 'f', -1, 64), ink)
		}
		line(x0, yTop, x0, yBot, ink)
		line(x0, yBot, x1, yBot, ink)
		text(x0+5, y0+14, p.name+" (minutes on the axis)", ink)
		for j, f := range p.lines {
			c := colours[j%len(colours)]
			if len(p.names) > j {
				text(x1-260+j*70, y0+14, p.names[j], c)
			}
			px, py := -1, -1
			for _, s := range ss {
				x := x0 + int(float64(x1-x0)*s.At/tEnd)
				y := yBot - int(float64(yBot-yTop)*f(s)/hi)
				if px >= 0 {
					line(px, py, x, y, c)
					line(px, py+1, x, y+1, c)
				}
				px, py = x, y
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
