package images

import (
	"image"
	"image/color"
)

// shrinkFor reduces a large image by a whole factor, averaging each k×k
// block of pixels, before Lanczos resampling takes it to w × h: as
// libvips shrinks a JPEG while it loads, so the costly filter runs on a
// quarter or less of the pixels. The factor leaves at least 1.5 times the
// size asked for in both directions, so the filter still does the last
// step and the result looks the same. A photo as JPEG decodes to YCbCr,
// whose planes are averaged before they are turned into colours, so most
// pixels are never converted at all; other images are returned as they
// are.
func shrinkFor(img image.Image, w, h int) image.Image {
	src, ok := img.(*image.YCbCr)
	if !ok || w <= 0 || h <= 0 {
		return img
	}
	b := src.Rect
	k := min(b.Dx()*2/(3*w), b.Dy()*2/(3*h))
	if k < 2 {
		return img
	}
	return shrinkYCbCr(src, k)
}

// shrinkYCbCr averages each k×k block of luma, and the chroma samples
// that cover it, into one pixel of an NRGBA image.
func shrinkYCbCr(src *image.YCbCr, k int) *image.NRGBA {
	b := src.Rect
	dw, dh := b.Dx()/k, b.Dy()/k
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	n := k * k
	hs := 1 // how many luma columns share a chroma column
	switch src.SubsampleRatio {
	case image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio420:
		hs = 2
	case image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410:
		hs = 4
	}
	for dy := range dh {
		y0 := b.Min.Y + dy*k
		row := dst.Pix[dy*dst.Stride : dy*dst.Stride+dw*4]
		for dx := range dw {
			x0 := b.Min.X + dx*k
			var ys, cbs, crs int
			for y := y0; y < y0+k; y++ {
				yi := src.YOffset(x0, y)
				for _, v := range src.Y[yi : yi+k] {
					ys += int(v)
				}
				ci := src.COffset(x0, y) - x0/hs
				for x := x0; x < x0+k; x++ {
					cbs += int(src.Cb[ci+x/hs])
					crs += int(src.Cr[ci+x/hs])
				}
			}
			r, g, bl := color.YCbCrToRGB(uint8((ys+n/2)/n), uint8((cbs+n/2)/n), uint8((crs+n/2)/n))
			p := row[dx*4 : dx*4+4 : dx*4+4]
			p[0], p[1], p[2], p[3] = r, g, bl, 0xff
		}
	}
	return dst
}
