#include <mupdf/fitz.h>
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

struct pb_doc {
	fz_context *ctx;
	fz_document *doc;
	unsigned char *data;
	int pages;
};

static void pb_quiet(void *user, const char *message)
{
	(void)user;
	(void)message;
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
 * wrong, and returns the number of pages. It throws. */
static int pb_count_pages(fz_context *ctx, fz_document *doc)
{
	pdf_document *pdf = pdf_specifics(ctx, doc);
	pdf_obj *catalog, *root, *kids = NULL, *node = NULL;
	pb_walk w;
	int i, n;
	if (!pdf)
		return fz_count_pages(ctx, doc);
	memset(&w, 0, sizeof w);
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
	fz_catch(ctx)
		fz_rethrow(ctx);
	return n;
}

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
	d->ctx = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
	if (!d->ctx) {
		free(d->data);
		free(d);
		*err = PB_ERR_NOMEM;
		return NULL;
	}
	/* Warnings about damaged files go to stderr by default; keep them quiet. */
	fz_set_warning_callback(d->ctx, pb_quiet, NULL);
	fz_set_error_callback(d->ctx, pb_quiet, NULL);
	fz_var(stm);
	fz_try(d->ctx) {
		fz_register_document_handlers(d->ctx);
		stm = fz_open_memory(d->ctx, d->data, len);
		d->doc = fz_open_document_with_stream(d->ctx, "application/pdf", stm);
	}
	fz_always(d->ctx) {
		fz_drop_stream(d->ctx, stm);
	}
	fz_catch(d->ctx) {
		pb_msg(d->ctx, msg, msglen);
		*err = PB_ERR_CORRUPT;
		pb_close(d);
		return NULL;
	}
	int needs = 0;
	fz_try(d->ctx) {
		needs = fz_needs_password(d->ctx, d->doc);
		if (needs) {
			if (!password || !fz_authenticate_password(d->ctx, d->doc, password))
				*err = PB_ERR_PASSWORD;
		}
		if (*err == PB_OK)
			d->pages = pb_count_pages(d->ctx, d->doc);
	}
	fz_catch(d->ctx) {
		pb_msg(d->ctx, msg, msglen);
		*err = fz_caught(d->ctx) == FZ_ERROR_LIMIT ? PB_ERR_TOO_LARGE : PB_ERR_CORRUPT;
	}
	if (*err != PB_OK) {
		pb_close(d);
		return NULL;
	}
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
			{}
		fz_drop_context(d->ctx);
	}
	free(d->data);
	free(d);
}

int pb_page_count(pb_doc *d)
{
	return d->pages;
}

static float qmin(float a, float b, float c, float e) { float m = a; if (b < m) m = b; if (c < m) m = c; if (e < m) m = e; return m; }
static float qmax(float a, float b, float c, float e) { float m = a; if (b > m) m = b; if (c > m) m = c; if (e > m) m = e; return m; }

int pb_page_chars(pb_doc *d, int page, pb_char **out, int *n, float *w, float *h, char *msg, size_t msglen)
{
	fz_context *ctx = d->ctx;
	fz_page *pg = NULL;
	fz_stext_page *tp = NULL;
	pb_char *buf = NULL;
	int cap = 0, cnt = 0, line = 0;
	int rc = PB_OK;
	*out = NULL;
	*n = 0;
	fz_var(pg);
	fz_var(tp);
	fz_var(buf);
	fz_var(cap);
	fz_var(cnt);
	fz_var(line);
	fz_try(ctx) {
		fz_stext_options opts;
		fz_rect b;
		memset(&opts, 0, sizeof opts);
		pg = fz_load_page(ctx, d->doc, page);
		b = fz_bound_page(ctx, pg);
		*w = b.x1 - b.x0;
		*h = b.y1 - b.y0;
		tp = fz_new_stext_page_from_page(ctx, pg, &opts);
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
				}
				line++;
			}
		}
	}
	fz_always(ctx) {
		fz_drop_stext_page(ctx, tp);
		fz_drop_page(ctx, pg);
	}
	fz_catch(ctx) {
		pb_msg(ctx, msg, msglen);
		free(buf);
		buf = NULL;
		cnt = 0;
		rc = PB_ERR_CORRUPT;
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
	int rc = PB_OK;
	*out = NULL;
	fz_var(pg);
	fz_var(pix);
	fz_try(ctx) {
		float s = dpi / 72.0f;
		fz_matrix m = fz_scale(s, s);
		fz_rect b;
		pg = fz_load_page(ctx, d->doc, page);
		b = fz_transform_rect(fz_bound_page(ctx, pg), m);
		if ((double)(b.x1 - b.x0) * (double)(b.y1 - b.y0) > (double)maxpix) {
			rc = PB_ERR_TOO_LARGE;
		} else {
			pix = fz_new_pixmap_from_page(ctx, pg, m, fz_device_gray(ctx), 0);
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
		fz_drop_pixmap(ctx, pix);
		fz_drop_page(ctx, pg);
	}
	fz_catch(ctx) {
		pb_msg(ctx, msg, msglen);
		rc = PB_ERR_CORRUPT;
	}
	return rc;
}

int pb_page_size(pb_doc *d, int page, float *w, float *h, char *msg, size_t msglen)
{
	fz_context *ctx = d->ctx;
	fz_page *pg = NULL;
	int rc = PB_OK;
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
		pb_msg(ctx, msg, msglen);
		rc = PB_ERR_CORRUPT;
	}
	return rc;
}

void pb_free(void *p)
{
	free(p);
}
