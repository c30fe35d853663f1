package synth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromium is one headless Chromium that prints HTML pages to PDF, served
// from a local HTTP server with the font files.
type chromium struct {
	profile string
	cancel  []context.CancelFunc
	browser context.Context
	srv     *httptest.Server

	mu   sync.Mutex
	docs map[string]string
	next int
}

// startChromium starts the browser with a fresh profile.
func startChromium() (*chromium, error) {
	exe, err := toolPath("CHROMIUM", "chromium", "chromium")
	if err != nil {
		return nil, err
	}
	c := &chromium{docs: map[string]string{}}
	c.profile, err = os.MkdirTemp("", "passbook-synth-chromium-")
	if err != nil {
		return nil, err
	}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.UserDataDir(c.profile),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("font-render-hinting", "none"))
	bctx, bcancel := chromedp.NewContext(actx)
	c.cancel = []context.CancelFunc{acancel, bcancel}
	c.browser = bctx
	if err := chromedp.Run(bctx); err != nil {
		c.close()
		return nil, fmt.Errorf("start Chromium: %w", err)
	}
	return c, nil
}

func (c *chromium) close() {
	for i := len(c.cancel) - 1; i >= 0; i-- {
		c.cancel[i]()
	}
	c.srv.Close()
	os.RemoveAll(c.profile)
}

// serve answers /doc/N with a page to print and /fonts/F with a font file.
func (c *chromium) serve(w http.ResponseWriter, r *http.Request) {
	switch dir, name := path.Split(r.URL.Path); dir {
	case "/doc/":
		c.mu.Lock()
		doc, ok := c.docs[name]
		c.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, doc)
	case "/fonts/":
		p, err := fontPath(name)
		if err != nil || !strings.HasSuffix(name, ".ttf") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "font/ttf")
		http.ServeFile(w, r, p)
	default:
		http.NotFound(w, r)
	}
}

// tab opens a browser tab to print in. It is opened here, not by the
// first print: chromedp closes a tab when the context of the Run that
// opened it ends, and each print has its own timeout.
func (c *chromium) tab() (context.Context, context.CancelFunc, error) {
	ctx, cancel := chromedp.NewContext(c.browser)
	if err := chromedp.Run(ctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("open a Chromium tab: %w", err)
	}
	return ctx, cancel, nil
}

// print prints one page in a tab. overflow: a fixed sheet's content ran
// past its bottom.
func (c *chromium) print(tab context.Context, doc, footer string) (pdf []byte, overflow bool, err error) {
	c.mu.Lock()
	c.next++
	name := fmt.Sprint(c.next)
	c.docs[name] = doc
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.docs, name)
		c.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(tab, 60*time.Second)
	defer cancel()
	await := func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }
	err = chromedp.Run(ctx,
		chromedp.Navigate(c.srv.URL+"/doc/"+name),
		chromedp.Evaluate(`document.fonts.ready.then(() => [...document.querySelectorAll(".sheet")].some(s => s.scrollHeight > s.clientHeight + 1))`, &overflow, await),
		chromedp.ActionFunc(func(ctx context.Context) error {
			p := page.PrintToPDF().WithPreferCSSPageSize(true).WithPrintBackground(true)
			if footer != "" {
				p = p.WithDisplayHeaderFooter(true).WithHeaderTemplate("<span></span>").WithFooterTemplate(footer)
			}
			var err error
			pdf, _, err = p.Do(ctx)
			return err
		}))
	return pdf, overflow, err
}

// printChromium prints every sample as HTML, on two tabs.
func printChromium(samples []Sample) ([]Sample, error) {
	c, err := startChromium()
	if err != nil {
		return nil, err
	}
	defer c.close()
	out := make([]Sample, len(samples))
	tabs := make([]context.Context, 2)
	for i := range tabs {
		var cancel context.CancelFunc
		tabs[i], cancel, err = c.tab()
		if err != nil {
			return nil, err
		}
		defer cancel()
	}
	errs := parallel(len(samples), func(worker, i int) error {
		s := samples[i]
		st, feats, dropped := chooseHTML(s)
		fit, err := st.face.fit(s.trace)
		if err != nil {
			return err
		}
		st.fit = fit
		for try := 1; ; try++ {
			doc, footer := s.html(st)
			pdf, overflow, err := c.print(tabs[worker], doc, footer)
			if err != nil {
				return fmt.Errorf("seed %d: Chromium: %w", s.Seed, err)
			}
			pages, err := countPages(pdf)
			if err != nil {
				return fmt.Errorf("seed %d: Chromium's PDF: %w", s.Seed, err)
			}
			if (overflow || s.tooLong(pages)) && try < tries {
				st.scale *= shrink
				continue
			}
			if overflow || s.tooLong(pages) {
				return fmt.Errorf("seed %d: Chromium: the statement does not fit its pages at %.2f of its size", s.Seed, st.scale)
			}
			out[i] = s.printed(printing{"chromium", pdf, doc, ".html", pages, feats, dropped})
			return nil
		}
	})
	return collect(out, errs)
}
