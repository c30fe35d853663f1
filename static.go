//go:build static

package main

// The release build (make build, -tags static) links every C library into
// the binary: MuPDF from go-fitz's archives, Tesseract and Leptonica and
// their image codecs from Debian's .a files. A dynamically linked passbook
// loads 57 shared libraries at every start (libtesseract pulls in libcurl
// and libarchive, and through them GnuTLS, Kerberos, LDAP and ICU); that
// cost ~40 ms of CPU and 25 MB before main ran, paid by every CLI call and
// every worker process. Statically linked, the loader has nothing to do.
//
// Tesseract only calls libcurl to read an image from a URL and libarchive
// to read a model from a zip; Passbook does neither (pages come from
// memory, models from a directory), so those two are stubs that fail,
// which Tesseract already handles: a URL input errors, and a model file
// that is not an archive is read as a plain file.

/*
#include <stddef.h>

void *curl_easy_init(void) { return NULL; }
int curl_easy_setopt(void *h, int opt, ...) { return 1; }
int curl_easy_perform(void *h) { return 1; }
void curl_easy_cleanup(void *h) {}
const char *curl_easy_strerror(int code) { return "passbook is built without libcurl"; }

void *archive_read_new(void) { return NULL; }
int archive_read_support_format_all(void *a) { return -30; }
int archive_read_support_filter_all(void *a) { return -30; }
int archive_read_open_filename(void *a, const char *name, size_t block) { return -30; }
int archive_read_next_header(void *a, void **entry) { return -30; }
long archive_read_data(void *a, void *buf, size_t n) { return -30; }
int archive_read_free(void *a) { return 0; }
long long archive_entry_size(void *entry) { return 0; }
const char *archive_entry_pathname(void *entry) { return NULL; }
*/
import "C"
