package synth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// convertOffice converts documents to PDF with LibreOffice: every file in
// one soffice call, with a private profile. extra are soffice's options
// before the conversion (an import filter).
func convertOffice(exe, dir string, files []string, extra ...string) error {
	profile, err := os.MkdirTemp("", "passbook-synth-soffice-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(60+10*len(files))*time.Second)
	defer cancel()
	args := append([]string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore", "--nolockcheck"}, extra...)
	args = append(append(args, "--convert-to", "pdf:writer_pdf_Export", "--outdir", dir), files...)
	cmd := exec.CommandContext(ctx, exe, args...)
	// soffice is a script that starts soffice.bin: stop them both.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("soffice: %w: %s", err, out.Bytes())
	}
	return nil
}

// printOffice converts every sample as a flat ODF text with LibreOffice,
// in two soffice processes. A one-page sample that runs onto a second
// page is written smaller and converted again.
func printOffice(samples []Sample) ([]Sample, error) {
	exe, err := toolPath("SOFFICE", "soffice", "libreoffice-writer-nogui")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "passbook-synth-office-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := make([]Sample, len(samples))
	errs := make([]error, len(samples))
	docs := make([]string, len(samples))
	styles := make([]odtStyle, len(samples))
	feats := make([][]string, len(samples))
	dropped := make([][]string, len(samples))
	todo := make([]int, len(samples))
	for i, s := range samples {
		styles[i], feats[i], dropped[i] = chooseODT(s)
		if styles[i].fit, err = styles[i].face.fit(s.trace); err != nil {
			return nil, err
		}
		todo[i] = i
	}
	for try := 1; len(todo) > 0; try++ {
		// One soffice takes some seconds to start and a fraction of one
		// per document: a short batch is one process, a long one two.
		batches := make([][]string, 1+len(todo)/20)
		batches = batches[:min(len(batches), 2)]
		for k, i := range todo {
			name := filepath.Join(dir, fmt.Sprintf("seed-%d-%d.fodt", samples[i].Seed, i))
			docs[i] = samples[i].fodt(styles[i])
			if err := os.WriteFile(name, []byte(docs[i]), 0o644); err != nil {
				return nil, err
			}
			batches[k%len(batches)] = append(batches[k%len(batches)], name)
		}
		if err := errors.Join(parallel(len(batches), func(_, b int) error { return convertOffice(exe, dir, batches[b]) })...); err != nil {
			return nil, err
		}
		var again []int
		for _, i := range todo {
			s := samples[i]
			pdf, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("seed-%d-%d.pdf", s.Seed, i)))
			if err != nil {
				errs[i] = fmt.Errorf("seed %d: LibreOffice made no PDF: %w", s.Seed, err)
				continue
			}
			pages, err := countPages(pdf)
			if err != nil {
				errs[i] = fmt.Errorf("seed %d: LibreOffice's PDF: %w", s.Seed, err)
				continue
			}
			if s.tooLong(pages) {
				if try == tries {
					errs[i] = fmt.Errorf("seed %d: LibreOffice: the statement does not fit one page at %.2f of its size", s.Seed, styles[i].scale)
					continue
				}
				styles[i].scale *= shrink
				again = append(again, i)
				continue
			}
			out[i] = s.printed(printing{"libreoffice", pdf, docs[i], ".fodt", pages, feats[i], dropped[i]})
		}
		todo = again
	}
	return collect(out, errs)
}
