/* mupdf.h: a small C layer over MuPDF for extract/pdf/pdf.go. Every MuPDF call
 * is wrapped in fz_try/fz_catch so that a bad document returns an error code
 * instead of unwinding through Go frames. */
#ifndef PASSBOOK_MUPDF_H
#define PASSBOOK_MUPDF_H

#include <stddef.h>

typedef struct pb_doc pb_doc;

/* One character of structured text: its code point, box (top-left origin,
 * points) and the index of the text line it belongs to. */
typedef struct {
	int c;
	int line;
	float x0, y0, x1, y1;
} pb_char;

enum {
	PB_OK = 0,
	PB_ERR_CORRUPT = 1,
	PB_ERR_PASSWORD = 2,
	PB_ERR_NOMEM = 3,
	PB_ERR_RANGE = 4,
	PB_ERR_TOO_LARGE = 5,
	/* PB_ERR_BOMB: a compressed stream, a page's content or the whole
	 * document expanded past its cap (pb_caps); the message says which. */
	PB_ERR_BOMB = 6,
	/* PB_ERR_PAGES: the page tree holds more pages than pb_set_max_pages
	 * allows; the walk stopped there. */
	PB_ERR_PAGES = 7
};

/* pb_caps bounds what a document may expand to when its streams are
 * decoded: each Flate or LZW stream, each content stream a page or form
 * runs, and all of a document's decoded bytes (base plus per page). */
typedef struct {
	size_t stream;
	size_t content;
	size_t doc_base;
	size_t doc_per_page;
} pb_caps;

/* pb_set_caps replaces the caps (for tests); pb_get_caps reads them. */
void pb_set_caps(pb_caps caps);
pb_caps pb_get_caps(void);

/* pb_set_max_pages bounds the pages a document opened from now on may
 * have (0: no bound but the page tree's own); process-wide. */
void pb_set_max_pages(int n);

/* pb_open copies data and opens it as a PDF, with a MuPDF context taken
 * from the process's free list (or a new one). It counts the pages by
 * walking the page tree, not by trusting /Count, and rebuilds the tree
 * when its counts are wrong so that every page it counted loads. *err is
 * one of PB_*. */
pb_doc *pb_open(const unsigned char *data, size_t len, const char *password, int *err, char *msg, size_t msglen);
/* pb_close drops the document and gives its context back to the free list,
 * emptied, unless an error left it in doubt. */
void pb_close(pb_doc *d);
int pb_page_count(pb_doc *d);
/* pb_page_chars returns a malloc'd array of *n chars for page (0-based) and its
 * size in *w, *h; free it with pb_free. */
int pb_page_chars(pb_doc *d, int page, pb_char **out, int *n, float *w, float *h, char *msg, size_t msglen);
/* pb_render_gray renders page at dpi into a malloc'd 8-bit grey buffer. */
int pb_render_gray(pb_doc *d, int page, float dpi, long maxpix, unsigned char **out, int *w, int *h, int *stride, char *msg, size_t msglen);
/* pb_page_size gives page's (0-based) size in points. */
int pb_page_size(pb_doc *d, int page, float *w, float *h, char *msg, size_t msglen);
/* pb_inflated is how many decoded bytes the document's streams have
 * produced so far. */
size_t pb_inflated(pb_doc *d);
/* pb_contexts_made counts the MuPDF contexts this process has created. */
long pb_contexts_made(void);
/* pb_created gives the document's Info CreationDate as MuPDF reads it
 * ("D:20240115...", "" when none) and a malloc'd copy of its XMP metadata
 * packet (at most 1 MiB; NULL when none) to free with pb_free. */
int pb_created(pb_doc *d, char *info, size_t infolen, unsigned char **xmp, size_t *xmplen);
/* pb_made_by gives the document's Info Producer and Creator joined by a
 * newline ("" when it names neither). */
int pb_made_by(pb_doc *d, char *out, size_t outlen);
/* pb_info gives one Info dictionary entry ("info:Author"...) as MuPDF
   reads it; an empty string when the document has none. */
int pb_info(pb_doc *d, const char *key, char *out, size_t outlen);
void pb_free(void *p);

#endif
