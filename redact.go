package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"passbook/extract/engine"
	"passbook/extract/pdf"
	"passbook/extract/redact"
	"passbook/extract/worker"
)

var redactHelp = help{"redact [--password P] [--shift-weeks N] STATEMENT -o COPY.pdf", `Writes a copy of a statement that reads as the original does and
shows nothing of its client, to send with a report of a layout Passbook
reads wrong. Descriptions, names, addresses, account, card, reference and
telephone numbers are replaced letter for letter; amounts and balances are
multiplied by one factor chosen at random for the copy, the balances
worked again so that they prove as the original's did; dates, headings,
column labels and the bank's name stay (--shift-weeks N moves every date
by N weeks, in its own style, a month's name written for the new month
with letters the statement's font holds). Metadata, earlier revisions,
annotations, attachments, scripts and thumbnails are removed.

The copy is read again before it is written: it must give the same rows,
boxes and status as the original, and hold none of the original's
replaced words anywhere in its bytes; otherwise nothing is written and the
command says what could not be made safe. Beside COPY.pdf it writes
COPY.json: what the copy should read (rows, opening, closing, status) and
the converter's version.

A scan or a photo (a scanned PDF, PNG, JPEG, TIFF, WebP) is copied with
less fidelity, which the sidecar says: a PDF of its pages as recognition
read them (grey, cropped, straightened), every personal word painted over
and its replacement drawn in its box, amounts and balances drawn again
times the factor from their right edge, dates and headings left as
pixels. It is recognised again and checked the same way (boxes aside);
--shift-weeks is refused for it.`}

// cmdRedact writes a statement's shareable copy and its sidecar.
func cmdRedact(_ context.Context, e env) error {
	fs := newFlags("redact")
	outPath := fs.String("o", "", "the copy to write (a .pdf); its sidecar is written beside it as .json")
	password := fs.String("password", "", "password of an encrypted PDF")
	shift := fs.Int("shift-weeks", 0, "move every date by `N` weeks, a month's name too (refused when a font lacks a letter the new date needs)")
	pos, err := parse(fs, e.args, e, redactHelp)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *outPath == "" {
		return errors.New("redact: give one statement and -o COPY.pdf (see 'passbook redact --help')")
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	// In-process, as extract runs: the file is the user's own.
	if err := worker.LimitMemory(worker.DefaultLimits().MemoryBytes); err != nil {
		return err
	}
	pdf.TuneMalloc()
	out, side, err := redact.Copy(data, engine.New().RedactReader(), redact.Options{Password: *password, Version: buildVersion().Version, ShiftWeeks: *shift})
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	side.ConverterVersion = buildVersion().Version
	sidecar, err := json.MarshalIndent(side, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(*outPath, out, 0o644); err != nil {
		return err
	}
	jsonPath := strings.TrimSuffix(*outPath, filepath.Ext(*outPath)) + ".json"
	if err := os.WriteFile(jsonPath, append(sidecar, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s (%d rows, %s) and %s\n", *outPath, side.Rows, side.Reconciliation, jsonPath)
	return nil
}
