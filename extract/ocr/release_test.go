package ocr

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/otiai10/gosseract/v2"
)

// TestReleasePageReachesTheHandle: releasePage takes gosseract's Client's
// first field for Tesseract's handle; a gosseract that moved it would
// have it clear whatever stands there instead.
func TestReleasePageReachesTheHandle(t *testing.T) {
	f := reflect.TypeOf(gosseract.Client{}).Field(0)
	if f.Name != "api" || f.Offset != 0 || f.Type.Size() != unsafe.Sizeof(unsafe.Pointer(nil)) {
		t.Fatalf("gosseract.Client's first field is %s %s at %d: releasePage needs its TessBaseAPI handle there", f.Name, f.Type, f.Offset)
	}
}
