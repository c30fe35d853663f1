package pdf

import (
	"errors"
	"strings"
	"testing"

	"passbook/extract"
	"passbook/extract/pdf/hostile"
)

// pageText is the text of a page's words, joined by spaces.
func pageText(t *testing.T, d *Doc, page int) string {
	t.Helper()
	pg, err := d.Words(page)
	if err != nil {
		t.Fatalf("page %d: %v", page+1, err)
	}
	var words []string
	for _, w := range pg.Words {
		words = append(words, w.Text)
	}
	return strings.Join(words, " ")
}

// TestPageCountWalksTree counts pages by the page tree, not by what its
// /Count claims, and every page counted loads, in order, with what it
// inherits from the tree.
func TestPageCountWalksTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pdf   []byte
		pages int
		// check maps a page (from 0) to the text it must show.
		check map[int]string
	}{
		{"true counts", hostile.PageTree(3, 3), 3, map[int]string{2: "Page 3 of the statement"}},
		{"1 page claiming 499", hostile.PageTree(1, 499), 1, map[int]string{0: "Page 1 of the statement"}},
		{"900 pages claiming 1", hostile.PageTree(900, 1), 900,
			map[int]string{0: "Page 1 of the statement", 450: "Page 451 of the statement", 899: "Page 900 of the statement"}},
		{"inner counts wrong, root right", hostile.Tree(map[string][]string{"root": {"a", "b"}, "a": {"1", "2"}, "b": {"3"}},
			map[string]int{"a": 7, "b": 0}, nil), 3, map[int]string{1: "Page 2 of the statement", 2: "Page 3 of the statement"}},
		{"a node that is its own descendant", hostile.Tree(map[string][]string{"root": {"1", "a"}, "a": {"2", "root"}}, nil, nil),
			2, map[int]string{1: "Page 2 of the statement"}},
		{"a font among the kids", hostile.Tree(map[string][]string{"root": {"1", "font", "2"}},
			map[string]int{"root": 3}, map[string]string{"font": "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"}),
			2, map[int]string{1: "Page 2 of the statement"}},
		{"a kid that is not there", hostile.Tree(map[string][]string{"root": {"1", "gone", "2"}},
			map[string]int{"root": 3}, map[string]string{"gone": "null"}), 2, map[int]string{1: "Page 2 of the statement"}},
		{"64 levels deep", hostile.DeepTree(64), 1, map[int]string{0: "Page 1 of the statement"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(tc.pdf, "")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if got := d.PageCount(); got != tc.pages {
				t.Fatalf("PageCount = %d, want %d", got, tc.pages)
			}
			for page, want := range tc.check {
				if got := pageText(t, d, page); got != want {
					t.Errorf("page %d reads %q, want %q", page+1, got, want)
				}
			}
			if _, err := d.Words(tc.pages); !errors.Is(err, extract.ErrCorrupt) {
				t.Errorf("page %d of %d: %v, want ErrCorrupt", tc.pages+1, tc.pages, err)
			}
		})
	}
}

// TestPageTreeBounds refuses page trees built to make the walk itself
// expensive: too deep, or sharing subtrees until they name millions of
// pages.
func TestPageTreeBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		pdf  []byte
		want string
	}{
		{"65 levels deep", hostile.DeepTree(65), "more than 64 levels deep"},
		{"2^24 pages from 24 objects", hostile.WideDAG(24), "more than 100000 nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(tc.pdf, "")
			if err == nil {
				d.Close()
				t.Fatalf("opened, with %d pages", d.PageCount())
			}
			if !errors.Is(err, extract.ErrTooLarge) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want ErrTooLarge saying %q", err, tc.want)
			}
		})
	}
}
