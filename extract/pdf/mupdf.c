#include <mupdf/fitz.h>
#include <stdlib.h>
#include <string.h>
#include "mupdf.h"

struct pb_doc {
	fz_context *ctx;
	fz_document *doc;
	unsigned char *data;
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
	}
	fz_catch(d->ctx) {
		pb_msg(d->ctx, msg, msglen);
		*err = PB_ERR_CORRUPT;
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
	int n = -1;
	fz_try(d->ctx)
		n = fz_count_pages(d->ctx, d->doc);
	fz_catch(d->ctx)
		n = -1;
	return n;
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
