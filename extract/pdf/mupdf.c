#include <mupdf/fitz.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mupdf.h"

/* The few pdf_* functions this file needs. MuPDF's pdf headers are not
 * vendored (third_party/mupdf holds fitz's); these declarations match
 * include/mupdf/pdf/object.h, document.h and page.h of MuPDF 1.24, whose
 * library go-fitz links. */
typedef struct pdf_document pdf_document;
typedef struct pdf_obj pdf_obj;
pdf_document *pdf_specifics(fz_context *ctx, fz_document *doc);
pdf_obj *pdf_trailer(fz_context *ctx, pdf_document *doc);
pdf_obj *pdf_dict_gets(fz_context *ctx, pdf_obj *dict, const char *key);
fz_buffer *pdf_load_stream(fz_context *ctx, pdf_obj *ref);
int pdf_is_stream(fz_context *ctx, pdf_obj *obj);
void pdf_dict_puts_drop(fz_context *ctx, pdf_obj *dict, const char *key, pdf_obj *val);
int pdf_is_dict(fz_context *ctx, pdf_obj *obj);
int pdf_is_array(fz_context *ctx, pdf_obj *obj);
int pdf_is_name(fz_context *ctx, pdf_obj *obj);
int pdf_is_int(fz_context *ctx, pdf_obj *obj);
const char *pdf_to_name(fz_context *ctx, pdf_obj *obj);
int pdf_to_int(fz_context *ctx, pdf_obj *obj);
int pdf_to_num(fz_context *ctx, pdf_obj *obj);
int pdf_array_len(fz_context *ctx, pdf_obj *array);
pdf_obj *pdf_array_get(fz_context *ctx, pdf_obj *array, int i);
void pdf_array_push(fz_context *ctx, pdf_obj *array, pdf_obj *obj);
pdf_obj *pdf_new_array(fz_context *ctx, pdf_document *doc, int initialcap);
pdf_obj *pdf_new_dict(fz_context *ctx, pdf_document *doc, int initialcap);
pdf_obj *pdf_new_int(fz_context *ctx, int64_t i);
pdf_obj *pdf_new_name(fz_context *ctx, const char *str);
pdf_obj *pdf_keep_obj(fz_context *ctx, pdf_obj *obj);
void pdf_drop_obj(fz_context *ctx, pdf_obj *obj);

/* ---- Decoded-size caps ----
 *
 * A few KB of PDF can hold a gigabyte behind two Flate layers, and MuPDF
 * would decode and interpret all of it. The link step wraps MuPDF's own
 * Flate and LZW decoders and its content-stream opener (-Wl,--wrap, see
 * pdf.go), so every decoded stream passes through a counting stream that
 * ends it at its cap. MuPDF treats a read error as the end of a stream,
 * so the cap is recorded in the document's state, the rest of the
 * document's streams end at once, the interpreter is told to stop through
 * its cookie, and the operation that was running fails with PB_ERR_BOMB. */

static pb_caps caps = {
	/* A 600 DPI A4 page in RGB is about 100 MB decoded. */
	.stream = (size_t)128 << 20,
	/* A bank statement's page holds tens of KB of content. */
	.content = (size_t)32 << 20,
	.doc_base = (size_t)256 << 20,
	.doc_per_page = (size_t)64 << 20,
};

void pb_set_caps(pb_caps c) { caps = c; }
pb_caps pb_get_caps(void) { return caps; }

static int max_pages;

void pb_set_max_pages(int n) { max_pages = n; }

/* pb_state is one open document's decoding budget; the context's user
 * pointer points to it while the document is open. */
typedef struct {
	size_t total, budget;
	int over;
	char why[160];
	fz_cookie cookie;
} pb_state;

struct pb_doc {
	fz_context *ctx;
	fz_document *doc;
	unsigned char *data;
	int pages;
	int tainted; /* an error happened: do not reuse the context */
	pb_state st;
};

static void pb_over(pb_state *st, const char *what, size_t limit)
{
	if (!st || st->over)
		return;
	st->over = 1;
	st->cookie.abort = 1;
	snprintf(st->why, sizeof st->why, "%s expands past %zu MB when decoded", what, limit >> 20);
}

typedef struct {
	fz_stream *chain;
	pb_state *st; /* NULL in a context that is not this file's */
	size_t limit, count;
	const char *what;
	unsigned char buf[8192];
} pb_capped;

static int pb_capped_next(fz_context *ctx, fz_stream *stm, size_t max)
{
	pb_capped *c = stm->state;
	size_t n, room;
	if (c->st && c->st->over)
		return EOF;
	n = fz_available(ctx, c->chain, max);
	if (n == 0)
		return EOF;
	if (n > sizeof c->buf)
		n = sizeof c->buf;
	room = c->limit - c->count;
	if (n > room) {
		pb_over(c->st, c->what, c->limit);
		return EOF;
	}
	if (c->st) {
		if (n > c->st->budget - c->st->total) {
			pb_over(c->st, "the document", c->st->budget);
			return EOF;
		}
		c->st->total += n;
	}
	memcpy(c->buf, c->chain->rp, n);
	c->chain->rp += n;
	c->count += n;
	stm->rp = c->buf;
	stm->wp = c->buf + n;
	stm->pos += (int64_t)n;
	return *stm->rp++;
}

static void pb_capped_drop(fz_context *ctx, void *state)
{
	pb_capped *c = state;
	fz_drop_stream(ctx, c->chain);
	fz_free(ctx, c);
}

/* pb_cap wraps chain (taking it over) in a stream that ends it at limit
 * decoded bytes and counts them against the open document's budget. */
static fz_stream *pb_cap(fz_context *ctx, fz_stream *chain, size_t limit, const char *what)
{
	pb_capped *c = NULL;
	if (!chain)
		return NULL;
	fz_var(c);
	fz_try(ctx) {
		c = fz_malloc_struct(ctx, pb_capped);
		c->chain = chain;
		c->st = fz_user_context(ctx);
		c->limit = limit;
		c->what = what;
	}
	fz_catch(ctx) {
		fz_drop_stream(ctx, chain);
		fz_rethrow(ctx);
	}
	return fz_new_stream(ctx, c, pb_capped_next, pb_capped_drop);
}

fz_stream *__real_fz_open_flated(fz_context *ctx, fz_stream *chain, int window_bits);
fz_stream *__wrap_fz_open_flated(fz_context *ctx, fz_stream *chain, int window_bits)
{
	return pb_cap(ctx, __real_fz_open_flated(ctx, chain, window_bits), caps.stream, "a compressed stream");
}

fz_stream *__real_fz_open_lzwd(fz_context *ctx, fz_stream *chain, int early_change, int min_bits, int reverse_bits, int old_tiff);
fz_stream *__wrap_fz_open_lzwd(fz_context *ctx, fz_stream *chain, int early_change, int min_bits, int reverse_bits, int old_tiff)
{
	return pb_cap(ctx, __real_fz_open_lzwd(ctx, chain, early_change, min_bits, reverse_bits, old_tiff), caps.stream, "a compressed stream");
}

fz_stream *__real_pdf_open_contents_stream(fz_context *ctx, pdf_document *doc, pdf_obj *obj);
fz_stream *__wrap_pdf_open_contents_stream(fz_context *ctx, pdf_document *doc, pdf_obj *obj)
{
	return pb_cap(ctx, __real_pdf_open_contents_stream(ctx, doc, obj), caps.content, "a page's content");
}

/* ---- Contexts ----
 *
 * A worker converts one document at a time, so it keeps one MuPDF
 * context for its life instead of building one per document: the font
 * and colour machinery is set up once. In-process callers (the CLI,
 * tests, the evaluation) may open documents on several threads, so
 * contexts come from a small free list, one per open document. A context
 * is emptied when its document closes, and dropped rather than reused
 * when anything went wrong with that document. */

enum { pb_keep_contexts = 4 };

static pthread_mutex_t pb_ctx_mu = PTHREAD_MUTEX_INITIALIZER;
static fz_context *pb_ctx_free[pb_keep_contexts];
static int pb_ctx_nfree;
static long pb_ctx_made;

static void pb_quiet(void *user, const char *message)
{
	(void)user;
	(void)message;
}

long pb_contexts_made(void)
{
	long n;
	pthread_mutex_lock(&pb_ctx_mu);
	n = pb_ctx_made;
	pthread_mutex_unlock(&pb_ctx_mu);
	return n;
}

static fz_context *pb_get_context(void)
{
	fz_context *ctx = NULL;
	pthread_mutex_lock(&pb_ctx_mu);
	if (pb_ctx_nfree > 0)
		ctx = pb_ctx_free[--pb_ctx_nfree];
	pthread_mutex_unlock(&pb_ctx_mu);
	if (ctx)
		return ctx;
	ctx = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
	if (!ctx)
		return NULL;
	/* Warnings about damaged files go to stderr by default; keep them quiet. */
	fz_set_warning_callback(ctx, pb_quiet, NULL);
	fz_set_error_callback(ctx, pb_quiet, NULL);
	fz_try(ctx)
		fz_register_document_handlers(ctx);
	fz_catch(ctx) {
		fz_drop_context(ctx);
		return NULL;
	}
	pthread_mutex_lock(&pb_ctx_mu);
	pb_ctx_made++;
	pthread_mutex_unlock(&pb_ctx_mu);
	return ctx;
}

static void pb_put_context(fz_context *ctx, int reuse)
{
	fz_set_user_context(ctx, NULL);
	if (reuse) {
		/* Nothing of one document is kept for the next. */
		fz_empty_store(ctx);
		fz_purge_glyph_cache(ctx);
		pthread_mutex_lock(&pb_ctx_mu);
		if (pb_ctx_nfree < pb_keep_contexts) {
			pb_ctx_free[pb_ctx_nfree++] = ctx;
			ctx = NULL;
		}
		pthread_mutex_unlock(&pb_ctx_mu);
	}
	if (ctx)
		fz_drop_context(ctx);
}

static void pb_msg(fz_context *ctx, char *msg, size_t msglen)
{
	if (!msg || msglen == 0)
		return;
	const char *m = ctx ? fz_caught_message(ctx) : "out of memory";
	if (!m)
		m = "";
	strncpy(msg, m, msglen - 1);
	msg[msglen - 1] = 0;
}

/* pb_fail records an error of d's for the caller: a cap that was hit wins
 * over whatever MuPDF made of the streams it cut short. */
static int pb_fail(pb_doc *d, int rc, char *msg, size_t msglen)
{
	d->tainted = 1;
	if (d->st.over) {
		if (msg && msglen) {
			strncpy(msg, d->st.why, msglen - 1);
			msg[msglen - 1] = 0;
		}
		return PB_ERR_BOMB;
	}
	if (rc == PB_ERR_CORRUPT)
		pb_msg(d->ctx, msg, msglen);
	return rc;
}

/* ---- The page tree ----
 *
 * fz_count_pages believes the root's /Count, and MuPDF finds page n by
 * skipping subtrees by their /Count: a one-page file that claims 499
 * pages would be charged 499, and a 900-page file that claims 1 would
 * convert one page. The tree is walked instead, depth-first, with a bound
 * on its depth and on the nodes visited (a tree that shares subtrees can
 * name far more pages than it holds objects), skipping cycles and
 * anything that is not a page. When a count was wrong, the root's /Kids
 * becomes the list of pages found, in order, and its /Count their number,
 * so MuPDF loads exactly those pages. Pages keep their /Parent, and so
 * what they inherit. */

enum {
	pb_tree_depth = 64,
	pb_tree_visits = 100000
};

typedef struct {
	pdf_obj **leaves;
	int n, cap;
	int visits;
	int wrong;
	/* max bounds the pages (0: none); over is set when a page past it
	 * was found, and the walk stopped. */
	int max, over;
	int path[pb_tree_depth];
	int depth;
} pb_walk;

static int pb_type_is(fz_context *ctx, pdf_obj *node, const char *name)
{
	pdf_obj *type = pdf_dict_gets(ctx, node, "Type");
	return pdf_is_name(ctx, type) && !strcmp(pdf_to_name(ctx, type), name);
}

/* pb_is_node tells an inner node of the tree from a page the way MuPDF's
 * own lookup does. */
static int pb_is_node(fz_context *ctx, pdf_obj *obj)
{
	if (pdf_is_name(ctx, pdf_dict_gets(ctx, obj, "Type")))
		return pb_type_is(ctx, obj, "Pages");
	return pdf_is_array(ctx, pdf_dict_gets(ctx, obj, "Kids")) && !pdf_dict_gets(ctx, obj, "MediaBox");
}

static void pb_walk_tree(fz_context *ctx, pb_walk *w, pdf_obj *ref)
{
	int num, before, i, len;
	pdf_obj *kids, *count;
	if (++w->visits > pb_tree_visits)
		fz_throw(ctx, FZ_ERROR_LIMIT, "the page tree has more than %d nodes", pb_tree_visits);
	if (!pdf_is_dict(ctx, ref)) {
		w->wrong = 1;
		return;
	}
	if (!pb_is_node(ctx, ref)) {
		if (pdf_is_name(ctx, pdf_dict_gets(ctx, ref, "Type")) && !pb_type_is(ctx, ref, "Page")) {
			w->wrong = 1; /* not a page: a font, an image... */
			return;
		}
		if (w->max > 0 && w->n >= w->max) {
			/* A definite answer as soon as it is known: a document of
			 * 100,000 pages need not be walked to its end to be refused. */
			w->over = 1;
			fz_throw(ctx, FZ_ERROR_LIMIT, "the document has more than %d pages", w->max);
		}
		if (w->n == w->cap) {
			int ncap = w->cap ? w->cap * 2 : 64;
			w->leaves = fz_realloc_array(ctx, w->leaves, ncap, pdf_obj *);
			w->cap = ncap;
		}
		w->leaves[w->n++] = pdf_keep_obj(ctx, ref);
		return;
	}
	num = pdf_to_num(ctx, ref);
	for (i = 0; num && i < w->depth; i++) {
		if (w->path[i] == num) {
			w->wrong = 1; /* a cycle: the node is its own ancestor */
			return;
		}
	}
	if (w->depth == pb_tree_depth)
		fz_throw(ctx, FZ_ERROR_LIMIT, "the page tree is more than %d levels deep", pb_tree_depth);
	w->path[w->depth++] = num;
	before = w->n;
	kids = pdf_dict_gets(ctx, ref, "Kids");
	len = pdf_array_len(ctx, kids);
	for (i = 0; i < len; i++)
		pb_walk_tree(ctx, w, pdf_array_get(ctx, kids, i));
	w->depth--;
	count = pdf_dict_gets(ctx, ref, "Count");
	if (!pdf_is_int(ctx, count) || pdf_to_int(ctx, count) != w->n - before)
		w->wrong = 1;
}

/* pb_count_pages walks d's page tree, rebuilds it when its counts are
 * wrong, and returns the number of pages. It throws; *over is set when
 * it threw because the document has more than max_pages pages. */
static int pb_count_pages(fz_context *ctx, fz_document *doc, int *over)
{
	pdf_document *pdf = pdf_specifics(ctx, doc);
	pdf_obj *catalog, *root, *kids = NULL, *node = NULL;
	pb_walk w;
	int i, n;
	if (!pdf)
		return fz_count_pages(ctx, doc);
	memset(&w, 0, sizeof w);
	w.max = max_pages;
	fz_var(kids);
	fz_var(node);
	fz_try(ctx) {
		catalog = pdf_dict_gets(ctx, pdf_trailer(ctx, pdf), "Root");
		root = pdf_dict_gets(ctx, catalog, "Pages");
		if (!pdf_is_dict(ctx, catalog) || !pdf_is_dict(ctx, root))
			fz_throw(ctx, FZ_ERROR_FORMAT, "the document has no page tree");
		pb_walk_tree(ctx, &w, root);
		if (!pb_is_node(ctx, root))
			w.wrong = 1; /* the root is a page itself */
		if (w.wrong && w.n > 0) {
			kids = pdf_new_array(ctx, pdf, w.n);
			for (i = 0; i < w.n; i++)
				pdf_array_push(ctx, kids, w.leaves[i]);
			if (pb_is_node(ctx, root)) {
				node = pdf_keep_obj(ctx, root);
			} else {
				node = pdf_new_dict(ctx, pdf, 3);
				pdf_dict_puts_drop(ctx, node, "Type", pdf_new_name(ctx, "Pages"));
				pdf_dict_puts_drop(ctx, catalog, "Pages", pdf_keep_obj(ctx, node));
			}
			pdf_dict_puts_drop(ctx, node, "Kids", kids);
			kids = NULL;
			pdf_dict_puts_drop(ctx, node, "Count", pdf_new_int(ctx, w.n));
		}
		n = w.n;
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, kids);
		pdf_drop_obj(ctx, node);
		for (i = 0; i < w.n; i++)
			pdf_drop_obj(ctx, w.leaves[i]);
		fz_free(ctx, w.leaves);
	}
	fz_catch(ctx) {
		*over = w.over;
		fz_rethrow(ctx);
	}
	return n;
}

/* ---- Documents ---- */

pb_doc *pb_open(const unsigned char *data, size_t len, const char *password, int *err, char *msg, size_t msglen)
{
	pb_doc *d = calloc(1, sizeof(*d));
	fz_stream *stm = NULL;
	*err = PB_OK;
	if (!d) {
		*err = PB_ERR_NOMEM;
		return NULL;
	}
	d->data = malloc(len ? len : 1);
	if (!d->data) {
		free(d);
		*err = PB_ERR_NOMEM;
		return NULL;
	}
	memcpy(d->data, data, len);
	d->ctx = pb_get_context();
	if (!d->ctx) {
		free(d->data);
		free(d);
		*err = PB_ERR_NOMEM;
		return NULL;
	}
	d->st.budget = caps.doc_base;
	fz_set_user_context(d->ctx, &d->st);
	fz_var(stm);
	fz_try(d->ctx) {
		stm = fz_open_memory(d->ctx, d->data, len);
		d->doc = fz_open_document_with_stream(d->ctx, "application/pdf", stm);
	}
	fz_always(d->ctx) {
		fz_drop_stream(d->ctx, stm);
	}
	fz_catch(d->ctx) {
		*err = pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
		pb_close(d);
		return NULL;
	}
	int needs = 0, over = 0;
	fz_try(d->ctx) {
		needs = fz_needs_password(d->ctx, d->doc);
		if (needs) {
			if (!password || !fz_authenticate_password(d->ctx, d->doc, password))
				*err = PB_ERR_PASSWORD;
		}
		if (*err == PB_OK)
			d->pages = pb_count_pages(d->ctx, d->doc, &over);
	}
	fz_catch(d->ctx) {
		*err = fz_caught(d->ctx) == FZ_ERROR_LIMIT ? PB_ERR_TOO_LARGE : PB_ERR_CORRUPT;
		if (over)
			*err = PB_ERR_PAGES;
		if (*err == PB_ERR_TOO_LARGE || *err == PB_ERR_PAGES)
			pb_msg(d->ctx, msg, msglen);
		*err = pb_fail(d, *err, msg, msglen);
	}
	if (*err == PB_OK && d->st.over)
		*err = pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	if (*err != PB_OK) {
		if (*err == PB_ERR_PASSWORD)
			d->tainted = 0; /* a wrong password is no fault of the context */
		pb_close(d);
		return NULL;
	}
	/* Pages get their share of the budget once they are known. */
	d->st.budget = caps.doc_base + (size_t)d->pages * caps.doc_per_page;
	return d;
}

void pb_close(pb_doc *d)
{
	if (!d)
		return;
	if (d->ctx) {
		fz_try(d->ctx)
			fz_drop_document(d->ctx, d->doc);
		fz_catch(d->ctx)
			d->tainted = 1;
		pb_put_context(d->ctx, !d->tainted);
	}
	free(d->data);
	free(d);
}

int pb_page_count(pb_doc *d)
{
	return d->pages;
}

size_t pb_inflated(pb_doc *d)
{
	return d->st.total;
}

static float qmin(float a, float b, float c, float e) { float m = a; if (b < m) m = b; if (c < m) m = c; if (e < m) m = e; return m; }
static float qmax(float a, float b, float c, float e) { float m = a; if (b > m) m = b; if (c > m) m = c; if (e > m) m = e; return m; }

int pb_page_chars(pb_doc *d, int page, pb_char **out, int *n, float *w, float *h, char *msg, size_t msglen)
{
	fz_context *ctx = d->ctx;
	fz_page *pg = NULL;
	fz_stext_page *tp = NULL;
	fz_device *dev = NULL;
	pb_char *buf = NULL;
	int cap = 0, cnt = 0, line = 0;
	int rc = PB_OK;
	*out = NULL;
	*n = 0;
	if (d->st.over)
		return pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	fz_var(pg);
	fz_var(tp);
	fz_var(dev);
	fz_var(buf);
	fz_var(cap);
	fz_var(cnt);
	fz_var(line);
	fz_try(ctx) {
		fz_stext_options opts;
		fz_rect b;
		/* Colour management is for pixels. Reading text with it on, the
		 * structured-text device converts each character's colour through
		 * lcms, building colour links (tone curves) again for each
		 * document, since the store is emptied between them: ~5% of a
		 * short statement's conversion, for a colour no one reads. */
		fz_disable_icc(ctx);
		memset(&opts, 0, sizeof opts);
		pg = fz_load_page(ctx, d->doc, page);
		b = fz_bound_page(ctx, pg);
		*w = b.x1 - b.x0;
		*h = b.y1 - b.y0;
		/* fz_new_stext_page_from_page, with the cookie that stops the
		 * interpreter when a cap is hit. */
		tp = fz_new_stext_page(ctx, b);
		dev = fz_new_stext_device(ctx, tp, &opts);
		fz_run_page_contents(ctx, pg, dev, fz_identity, &d->st.cookie);
		fz_close_device(ctx, dev);
		if (d->st.over)
			fz_throw(ctx, FZ_ERROR_LIMIT, "%s", d->st.why);
		for (fz_stext_block *bl = tp->first_block; bl; bl = bl->next) {
			if (bl->type != FZ_STEXT_BLOCK_TEXT)
				continue;
			for (fz_stext_line *ln = bl->u.t.first_line; ln; ln = ln->next) {
				/* Only horizontal text: margins often carry rotated reference codes. */
				if (ln->dir.x < 0.9f)
					continue;
				for (fz_stext_char *ch = ln->first_char; ch; ch = ch->next) {
					if (cnt == cap) {
						int ncap = cap ? cap * 2 : 4096;
						pb_char *nb = realloc(buf, (size_t)ncap * sizeof(pb_char));
						if (!nb)
							fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory");
						buf = nb;
						cap = ncap;
					}
					fz_quad q = ch->quad;
					pb_char *pc = &buf[cnt++];
					pc->c = ch->c;
					pc->line = line;
					pc->x0 = qmin(q.ul.x, q.ur.x, q.ll.x, q.lr.x) - b.x0;
					pc->x1 = qmax(q.ul.x, q.ur.x, q.ll.x, q.lr.x) - b.x0;
					pc->y0 = qmin(q.ul.y, q.ur.y, q.ll.y, q.lr.y) - b.y0;
					pc->y1 = qmax(q.ul.y, q.ur.y, q.ll.y, q.lr.y) - b.y0;
					if (pc->y1 - pc->y0 < 0.1f * ch->size) {
						/* A font with no ascent or descent (some
						 * generators' Type 3 fonts) gives flat quads:
						 * the glyph stands on its origin, as tall
						 * as its size. */
						pc->y0 = ch->origin.y - 0.8f * ch->size - b.y0;
						pc->y1 = ch->origin.y + 0.2f * ch->size - b.y0;
					}
				}
				line++;
			}
		}
	}
	fz_always(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_stext_page(ctx, tp);
		fz_drop_page(ctx, pg);
	}
	fz_catch(ctx) {
		rc = pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
		free(buf);
		buf = NULL;
		cnt = 0;
	}
	*out = buf;
	*n = cnt;
	return rc;
}

int pb_render_gray(pb_doc *d, int page, float dpi, long maxpix, unsigned char **out, int *w, int *h, int *stride, char *msg, size_t msglen)
{
	fz_context *ctx = d->ctx;
	fz_page *pg = NULL;
	fz_pixmap *pix = NULL;
	fz_device *dev = NULL;
	int rc = PB_OK;
	*out = NULL;
	if (d->st.over)
		return pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	fz_var(pg);
	fz_var(pix);
	fz_var(dev);
	fz_try(ctx) {
		float s = dpi / 72.0f;
		fz_matrix m = fz_scale(s, s);
		fz_rect b;
		/* Pixels for recognition keep colour management (see pb_page_chars). */
		fz_enable_icc(ctx);
		pg = fz_load_page(ctx, d->doc, page);
		b = fz_transform_rect(fz_bound_page(ctx, pg), m);
		if ((double)(b.x1 - b.x0) * (double)(b.y1 - b.y0) > (double)maxpix) {
			rc = PB_ERR_TOO_LARGE;
		} else {
			/* fz_new_pixmap_from_page, with the cookie. */
			pix = fz_new_pixmap_with_bbox(ctx, fz_device_gray(ctx), fz_round_rect(b), NULL, 0);
			fz_clear_pixmap_with_value(ctx, pix, 0xFF);
			dev = fz_new_draw_device(ctx, m, pix);
			fz_run_page(ctx, pg, dev, fz_identity, &d->st.cookie);
			fz_close_device(ctx, dev);
			if (d->st.over)
				fz_throw(ctx, FZ_ERROR_LIMIT, "%s", d->st.why);
			*w = fz_pixmap_width(ctx, pix);
			*h = fz_pixmap_height(ctx, pix);
			*stride = fz_pixmap_stride(ctx, pix);
			size_t sz = (size_t)(*stride) * (size_t)(*h);
			*out = malloc(sz ? sz : 1);
			if (!*out)
				fz_throw(ctx, FZ_ERROR_SYSTEM, "out of memory");
			memcpy(*out, fz_pixmap_samples(ctx, pix), sz);
		}
	}
	fz_always(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_pixmap(ctx, pix);
		fz_drop_page(ctx, pg);
	}
	fz_catch(ctx) {
		rc = pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	}
	return rc;
}

int pb_page_size(pb_doc *d, int page, float *w, float *h, char *msg, size_t msglen)
{
	fz_context *ctx = d->ctx;
	fz_page *pg = NULL;
	int rc = PB_OK;
	if (d->st.over)
		return pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	fz_var(pg);
	fz_try(ctx) {
		pg = fz_load_page(ctx, d->doc, page);
		fz_rect b = fz_bound_page(ctx, pg);
		*w = b.x1 - b.x0;
		*h = b.y1 - b.y0;
	}
	fz_always(ctx)
		fz_drop_page(ctx, pg);
	fz_catch(ctx) {
		rc = pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	}
	if (rc == PB_OK && d->st.over)
		rc = pb_fail(d, PB_ERR_CORRUPT, msg, msglen);
	return rc;
}

int pb_created(pb_doc *d, char *info, size_t infolen, unsigned char **xmp, size_t *xmplen)
{
	fz_context *ctx = d->ctx;
	fz_buffer *buf = NULL;
	int rc = PB_OK;
	info[0] = 0;
	*xmp = NULL;
	*xmplen = 0;
	if (d->st.over)
		return PB_ERR_CORRUPT;
	fz_var(buf);
	fz_try(ctx) {
		if (fz_lookup_metadata(ctx, d->doc, FZ_META_INFO_CREATIONDATE, info, (int)infolen) < 0)
			info[0] = 0;
		pdf_document *pdf = pdf_specifics(ctx, d->doc);
		pdf_obj *root = pdf ? pdf_dict_gets(ctx, pdf_trailer(ctx, pdf), "Root") : NULL;
		pdf_obj *md = root ? pdf_dict_gets(ctx, root, "Metadata") : NULL;
		if (md && pdf_is_stream(ctx, md)) {
			unsigned char *data;
			buf = pdf_load_stream(ctx, md);
			size_t n = fz_buffer_storage(ctx, buf, &data);
			if (n > 1 << 20)
				n = 1 << 20; /* the packet's head holds the dates */
			*xmp = malloc(n ? n : 1);
			if (*xmp) {
				memcpy(*xmp, data, n);
				*xmplen = n;
			}
		}
	}
	fz_always(ctx)
		fz_drop_buffer(ctx, buf);
	fz_catch(ctx) {
		rc = PB_ERR_CORRUPT;
	}
	return rc;
}

int pb_made_by(pb_doc *d, char *out, size_t outlen)
{
	fz_context *ctx = d->ctx;
	int rc = PB_OK;
	char creator[256];
	out[0] = 0;
	if (d->st.over)
		return PB_ERR_CORRUPT;
	fz_try(ctx) {
		if (fz_lookup_metadata(ctx, d->doc, FZ_META_INFO_PRODUCER, out, (int)outlen) < 0)
			out[0] = 0;
		if (fz_lookup_metadata(ctx, d->doc, FZ_META_INFO_CREATOR, creator, (int)sizeof creator) < 0)
			creator[0] = 0;
		size_t n = strlen(out);
		if (creator[0] && n + 1 < outlen) {
			out[n] = '\n';
			fz_strlcpy(out + n + 1, creator, outlen - n - 1);
		}
	}
	fz_catch(ctx) {
		rc = PB_ERR_CORRUPT;
	}
	return rc;
}

int pb_info(pb_doc *d, const char *key, char *out, size_t outlen)
{
	fz_context *ctx = d->ctx;
	int rc = PB_OK;
	out[0] = 0;
	if (d->st.over)
		return PB_ERR_CORRUPT;
	fz_try(ctx) {
		if (fz_lookup_metadata(ctx, d->doc, key, out, (int)outlen) < 0)
			out[0] = 0;
	}
	fz_catch(ctx) {
		rc = PB_ERR_CORRUPT;
	}
	return rc;
}

void pb_free(void *p)
{
	free(p);
}
