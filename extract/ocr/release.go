package ocr

/*
#include <tesseract/capi.h>
*/
import "C"

import (
	"unsafe"

	"github.com/otiai10/gosseract/v2"
)

// An instance kept for the next page keeps the last page it read: the
// pixels gosseract decoded, Tesseract's copy of them, its thresholded page
// and its results, some 20 MB for a page of 300 dpi. releasePage lets go
// of them once the words are out, so the instances a worker keeps idle
// (one per language set) hold their models only.

// onePixel is the smallest image gosseract takes in place of a page.
var onePixel = []byte("P5\n1 1\n255\n\xff")

// releasePage frees the page c last read, keeping its model loaded.
func releasePage(c *gosseract.Client) {
	// gosseract v2.4.1 exports no Clear: its Client's first field is the
	// TessBaseAPI handle, which Tesseract's C API clears.
	api := *(*unsafe.Pointer)(unsafe.Pointer(c))
	if api != nil {
		C.TessBaseAPIClear((*C.TessBaseAPI)(api))
	}
	c.SetImageFromBytes(onePixel)
}
