package ocr

import "image"

// Photos that cut the page off.
//
// A photo that shows the desk around the page on some sides and none on
// another, with print running into that edge, has cut the page off
// there: the rows beyond the edge are missing and nothing read can tell.
// A scan or a screenshot shows no desk, and is not judged: its page ends
// where the image does.

// cutOffBand is the band along an edge, as a share of the image's side,
// in which print means the page runs on beyond it: a printed page keeps
// a margin wider than this.
const cutOffBand = 0.015

// cutOffInk is the share of a band's pixels that must be ink (a line of
// print crossing it, not a speck).
const cutOffInk = 0.004

// cutOffSides names the sides of a photographed page (one whose
// background crop trimmed desk on some side) where the paper reaches the
// image's edge with print in the band along it.
func cutOffSides(g *image.Gray, crop image.Rectangle) []string {
	b := g.Rect
	trimmed := crop.Min.X > b.Min.X || crop.Min.Y > b.Min.Y || crop.Max.X < b.Max.X || crop.Max.Y < b.Max.Y
	if !trimmed || crop.Dx() < 100 || crop.Dy() < 100 {
		return nil
	}
	var hist [256]int
	for y := crop.Min.Y; y < crop.Max.Y; y += 4 {
		for x := crop.Min.X; x < crop.Max.X; x += 4 {
			hist[g.Pix[g.PixOffset(x, y)]]++
		}
	}
	paper, dark := percentile(&hist, 0.7), percentile(&hist, 0.005)
	if paper-dark < 60 {
		return nil // no clear print on paper to judge by
	}
	ink := uint8((paper + dark) / 2)
	bw, bh := max(2, int(cutOffBand*float64(crop.Dx()))), max(2, int(cutOffBand*float64(crop.Dy())))
	inked := func(r image.Rectangle) bool {
		n, total := 0, 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				total++
				if g.Pix[g.PixOffset(x, y)] < ink {
					n++
				}
			}
		}
		return total > 0 && float64(n) >= cutOffInk*float64(total)
	}
	// The band stops short of the corners: the desk of a side that was
	// trimmed is dark, and is not print.
	inset := func(r image.Rectangle, dx, dy int) image.Rectangle {
		return image.Rect(r.Min.X+dx, r.Min.Y+dy, r.Max.X-dx, r.Max.Y-dy)
	}
	var out []string
	if crop.Max.Y == b.Max.Y && inked(inset(image.Rect(crop.Min.X, crop.Max.Y-bh, crop.Max.X, crop.Max.Y), bw*2, 0)) {
		out = append(out, "bottom")
	}
	if crop.Min.Y == b.Min.Y && inked(inset(image.Rect(crop.Min.X, crop.Min.Y, crop.Max.X, crop.Min.Y+bh), bw*2, 0)) {
		out = append(out, "top")
	}
	if crop.Min.X == b.Min.X && inked(inset(image.Rect(crop.Min.X, crop.Min.Y, crop.Min.X+bw, crop.Max.Y), 0, bh*2)) {
		out = append(out, "left")
	}
	if crop.Max.X == b.Max.X && inked(inset(image.Rect(crop.Max.X-bw, crop.Min.Y, crop.Max.X, crop.Max.Y), 0, bh*2)) {
		out = append(out, "right")
	}
	return out
}
