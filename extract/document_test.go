package extract

import (
	"testing"

	"passbook/extract/source"
)

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		head string
		want string
	}{
		{"\x89PNG\r\n\x1a\nxxxx", "png"},
		{"\xff\xd8\xff\xe0xxxx", "jpeg"},
		{"II*\x00xxxx", "tiff"},
		{"RIFF\x00\x00\x00\x00WEBPVP8 ", "webp"},
		{"junk\n%PDF-1.7\n", "pdf"},
		{"GIF89a", ""},
	} {
		if got := source.Sniff([]byte(c.head)); got != c.want {
			t.Errorf("Sniff(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}
