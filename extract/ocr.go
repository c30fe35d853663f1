package extract

import (
	"errors"
	"image"
)

// errOCRNotReady is returned while the OCR path is being written.
var errOCRNotReady = errors.New("extract: OCR not implemented yet")

// ocrImage cleans up one page image (orientation, deskew, contrast, crop) and reads its words.
// dpi is the image's resolution when known (rendered PDF pages), 0 to estimate it. Word boxes are returned
// in points (px * 72 / dpi) with top-left origin, Page.OCR = true.
func ocrImage(img image.Image, dpi float64, pageNo int) (Page, error) {
	return Page{Number: pageNo, OCR: true}, errOCRNotReady
}

// decodeImage returns the pages (frames) of an uploaded PNG, JPEG, TIFF (all pages) or WebP.
func decodeImage(data []byte) ([]image.Image, error) {
	return nil, errOCRNotReady
}

// imagePageCount counts pages or frames without decoding pixels (TIFF: walk the IFD chain).
func imagePageCount(data []byte) (int, error) {
	return 0, errOCRNotReady
}
