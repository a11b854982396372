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
// that cover it, into one pixel of an NRGBA image. Chroma is read at its
// own resolution: a quarter of the samples in 4:2:0.
func shrinkYCbCr(src *image.YCbCr, k int) *image.NRGBA {
	b := src.Rect
	dw, dh := b.Dx()/k, b.Dy()/k
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	hs, vs := chromaSteps(src.SubsampleRatio)
	n := k * k
	for dy := range dh {
		y0 := b.Min.Y + dy*k
		cy0, cy1 := y0/vs, (y0+k-1)/vs
		row := dst.Pix[dy*dst.Stride : dy*dst.Stride+dw*4]
		for dx := range dw {
			x0 := b.Min.X + dx*k
			var ys int
			for y := y0; y < y0+k; y++ {
				yi := src.YOffset(x0, y)
				for _, v := range src.Y[yi : yi+k] {
					ys += int(v)
				}
			}
			cx0, cx1 := x0/hs, (x0+k-1)/hs
			var cbs, crs, cn int
			for cy := cy0; cy <= cy1; cy++ {
				ci := src.COffset(cx0*hs, cy*vs)
				for i := ci; i <= ci+cx1-cx0; i++ {
					cbs += int(src.Cb[i])
					crs += int(src.Cr[i])
				}
				cn += cx1 - cx0 + 1
			}
			r, g, bl := color.YCbCrToRGB(uint8((ys+n/2)/n), uint8((cbs+cn/2)/cn), uint8((crs+cn/2)/cn))
			p := row[dx*4 : dx*4+4 : dx*4+4]
			p[0], p[1], p[2], p[3] = r, g, bl, 0xff
		}
	}
	return dst
}

// chromaSteps are how many luma columns and rows share one chroma sample.
func chromaSteps(r image.YCbCrSubsampleRatio) (hs, vs int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}
