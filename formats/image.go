package formats

import (
	"context"
	"fmt"
	"image"
	"io"

	"convfiles/content/images"
	"convfiles/files"
)

// ImageInfo returns an image's size (as shown, after EXIF orientation),
// format and color depth, from its header.
func ImageInfo(ctx context.Context, e Env, a FileArgs) (images.Info, error) {
	return e.probe(ctx, "image.info", a.File)
}

// headBytes is how much of an image probe reads first: the header, the
// EXIF and a colour profile are nearly always within it.
const headBytes = 64 << 10

// probe reads an image's header from the start of its file. Only an image
// whose header lies further in (a TIFF may put it at the end) is read
// whole, within MaxInputBytes.
func (e Env) probe(ctx context.Context, op, idOrName string) (images.Info, error) {
	name, err := e.Space.Resolve(ctx, idOrName)
	if err != nil {
		return images.Info{}, err
	}
	f, info, err := e.Space.Open(ctx, name)
	if err != nil {
		return images.Info{}, err
	}
	head := make([]byte, min(info.Size, headBytes))
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && err != io.ErrUnexpectedEOF {
		return images.Info{}, files.E(op, files.KindInternal, name, "reading the image failed", err)
	}
	out, err := images.Probe(head[:n])
	if err == nil || info.Size <= int64(n) {
		return out, refused(op, name, err)
	}
	src, err := e.load(ctx, name)
	if err != nil {
		return images.Info{}, err
	}
	out, err = images.Probe(src.data)
	return out, refused(op, name, err)
}

// ImageOutput says where and how a new image is written.
type ImageOutput struct {
	// Output names the new file, replacing a file of that name (kept as a
	// version), the source included. By default it is named after the
	// source with what was done ("photo-1024x768.jpg"), never replacing a
	// file: "photo-1024x768-2.jpg" when that name is taken.
	Output   string `json:"output,omitempty"`
	Quality  int    `json:"quality,omitempty"`  // JPEG and WebP, 1–100
	Lossless bool   `json:"lossless,omitempty"` // WebP
}

// ImageWritten is a new image: the file and its size in pixels.
type ImageWritten struct {
	Written
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Format string `json:"format"`
}

// transform decodes an image, applies fn and writes the result in format
// f ("" keeps the source's, or PNG for one convfiles does not write).
func (e Env) transform(ctx context.Context, op, file string, o ImageOutput, f images.Format, suffix func(image.Image) string,
	fn func(img image.Image) (image.Image, error)) (ImageWritten, error) {
	return e.transformDecoded(ctx, op, file, o, f, suffix, images.Decode, fn)
}

// transformDecoded is transform with the decode it does: Resize decodes
// a large JPEG straight at the size it needs.
func (e Env) transformDecoded(ctx context.Context, op, file string, o ImageOutput, f images.Format, suffix func(image.Image) string,
	decode func([]byte) (image.Image, images.Info, error), fn func(img image.Image) (image.Image, error)) (ImageWritten, error) {
	src, err := e.load(ctx, file)
	if err != nil {
		return ImageWritten{}, err
	}
	img, info, err := decode(src.data)
	if err != nil {
		return ImageWritten{}, refused(op, src.name, err)
	}
	if err := ctx.Err(); err != nil {
		return ImageWritten{}, err
	}
	out, err := fn(img)
	if err != nil {
		return ImageWritten{}, refused(op, src.name, err)
	}
	if f == "" {
		f = writable(info.Format)
	}
	buf := buffer(len(src.data))
	if err := images.Encode(buf, out, f, images.EncodeOptions{Quality: o.Quality, Lossless: o.Lossless}); err != nil {
		return ImageWritten{}, refused(op, src.name, err)
	}
	w, err := e.save(ctx, o.Output, derivedName(src.name, suffix(out), f.Extension()), buf.Bytes(), src)
	if err != nil {
		return ImageWritten{}, err
	}
	b := out.Bounds()
	return ImageWritten{Written: w, Width: b.Dx(), Height: b.Dy(), Format: string(f)}, nil
}

// writable is the format a transformed image is written in: its own when
// convfiles writes it, else PNG.
func writable(f images.Format) images.Format {
	switch f {
	case images.PNG, images.JPEG, images.WebP, images.GIF:
		return f
	}
	return images.PNG
}

func sizeSuffix(img image.Image) string {
	return fmt.Sprintf("-%dx%d", img.Bounds().Dx(), img.Bounds().Dy())
}

// ResizeArgs resize an image.
type ResizeArgs struct {
	File   string `json:"file"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Fit    string `json:"fit,omitempty"` // cover (default), contain, fill, inside
	ImageOutput
}

// Resize scales an image into a new file.
func Resize(ctx context.Context, e Env, a ResizeArgs) (ImageWritten, error) {
	fit, err := images.ParseFit(a.Fit)
	if err != nil {
		return ImageWritten{}, refused("image.resize", a.File, err)
	}
	decode := func(data []byte) (image.Image, images.Info, error) {
		return images.DecodeToResize(data, a.Width, a.Height, fit)
	}
	return e.transformDecoded(ctx, "image.resize", a.File, a.ImageOutput, "", sizeSuffix, decode, func(img image.Image) (image.Image, error) {
		return images.Resize(img, a.Width, a.Height, fit)
	})
}

// CropArgs crop an image.
type CropArgs struct {
	File   string        `json:"file"`
	Region images.Region `json:"region"`
	ImageOutput
}

// Crop cuts a region out of an image into a new file.
func Crop(ctx context.Context, e Env, a CropArgs) (ImageWritten, error) {
	suffix := func(img image.Image) string { return "-crop" + sizeSuffix(img) }
	return e.transform(ctx, "image.crop", a.File, a.ImageOutput, "", suffix, func(img image.Image) (image.Image, error) {
		return images.Crop(img, a.Region)
	})
}

// ConvertArgs convert an image to another format.
type ConvertArgs struct {
	File   string `json:"file"`
	Format string `json:"format"` // png, jpeg, webp or gif
	ImageOutput
}

// Convert writes an image in another format, as a new file named with
// the format's extension.
func Convert(ctx context.Context, e Env, a ConvertArgs) (ImageWritten, error) {
	f, err := images.ParseFormat(a.Format)
	if err != nil {
		return ImageWritten{}, refused("image.convert", a.File, err)
	}
	none := func(image.Image) string { return "" }
	return e.transform(ctx, "image.convert", a.File, a.ImageOutput, f, none, func(img image.Image) (image.Image, error) { return img, nil })
}

// Overlay is one image laid over another in Composite.
type Overlay struct {
	Image   string   `json:"image"` // a file of the conversation
	Left    int      `json:"left,omitempty"`
	Top     int      `json:"top,omitempty"`
	Opacity *float64 `json:"opacity,omitempty"` // 0–1, 1 by default
}

// CompositeArgs lay images over an image.
type CompositeArgs struct {
	File     string    `json:"file"`
	Overlays []Overlay `json:"overlays"`
	ImageOutput
}

// MaxOverlays is the most images one Composite lays.
const MaxOverlays = 32

// Composite lays overlays, in order, over an image into a new file.
func Composite(ctx context.Context, e Env, a CompositeArgs) (ImageWritten, error) {
	if len(a.Overlays) == 0 || len(a.Overlays) > MaxOverlays {
		return ImageWritten{}, files.E("image.composite", files.KindInvalid, a.File,
			fmt.Sprintf("give 1 to %d overlays, like [{image: \"logo.png\", left: 10, top: 10}]", MaxOverlays), nil)
	}
	// Every image the operation holds is counted before any is decoded:
	// each may pass the per-image cap while all of them together need
	// gigabytes.
	base, err := e.probe(ctx, "image.composite", a.File)
	if err != nil {
		return ImageWritten{}, err
	}
	pixels := int64(base.Width) * int64(base.Height)
	srcs := make([]source, len(a.Overlays))
	for i, o := range a.Overlays {
		if srcs[i], err = e.load(ctx, o.Image); err != nil {
			return ImageWritten{}, err
		}
		info, err := images.Probe(srcs[i].data)
		if err != nil {
			return ImageWritten{}, refused("image.composite", srcs[i].name, err)
		}
		if pixels += int64(info.Width) * int64(info.Height); pixels > images.MaxPixels {
			return ImageWritten{}, files.E("image.composite", files.KindTooLarge, a.File, fmt.Sprintf(
				"the image and its overlays hold more than %d megapixels together, more than one operation decodes: use fewer or smaller overlays",
				images.MaxPixels/1_000_000), nil)
		}
	}
	layers := make([]images.Layer, len(a.Overlays))
	for i, o := range a.Overlays {
		src := srcs[i]
		img, _, err := images.Decode(src.data)
		if err != nil {
			return ImageWritten{}, refused("image.composite", src.name, err)
		}
		op := 1.0
		if o.Opacity != nil {
			op = *o.Opacity
		}
		layers[i] = images.Layer{Image: img, Left: o.Left, Top: o.Top, Opacity: op}
	}
	suffix := func(image.Image) string { return "-composite" }
	return e.transform(ctx, "image.composite", a.File, a.ImageOutput, "", suffix, func(img image.Image) (image.Image, error) {
		return images.Composite(img, layers)
	})
}

// Base64Args ask for an image as base64, shrunk to fit a box.
type Base64Args struct {
	File      string `json:"file"`
	MaxWidth  int    `json:"max_width,omitempty"`  // 2048 by default
	MaxHeight int    `json:"max_height,omitempty"` // 2048 by default
	// MaxBytes, when set, bounds the encoded bytes: the box halves until
	// the image fits, down to minSide.
	MaxBytes int `json:"max_bytes,omitempty"`
}

// minSide is the smallest box ToBase64 shrinks an image to for MaxBytes.
const minSide = 32

// Encoded is an image as base64, with its media type and size.
type Encoded struct {
	Data   []byte `json:"data"` // base64 in JSON
	MIME   string `json:"mime_type"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// DefaultMaxSide bounds ToBase64's result when no box is given.
const DefaultMaxSide = 2048

// ToBase64 returns an image for a vision model or a web page: turned the
// way its EXIF says, shrunk to fit the box, as PNG, JPEG, WebP or GIF. An
// image that needs neither is returned as its own bytes.
func ToBase64(ctx context.Context, e Env, a Base64Args) (Encoded, error) {
	src, err := e.load(ctx, a.File)
	if err != nil {
		return Encoded{}, err
	}
	mw, mh := a.MaxWidth, a.MaxHeight
	if mw <= 0 {
		mw = DefaultMaxSide
	}
	if mh <= 0 {
		mh = DefaultMaxSide
	}
	info, err := images.Probe(src.data)
	if err != nil {
		return Encoded{}, refused("image.toBase64", src.name, err)
	}
	f := writable(info.Format)
	fits := a.MaxBytes <= 0 || len(src.data) <= a.MaxBytes
	if f == info.Format && info.Orientation == 1 && info.Width <= mw && info.Height <= mh && fits {
		return Encoded{Data: src.data, MIME: f.MIME(), Width: info.Width, Height: info.Height}, nil
	}
	img, _, err := images.DecodeToFit(src.data, mw, mh)
	if err != nil {
		return Encoded{}, refused("image.toBase64", src.name, err)
	}
	for {
		fitted := images.FitWithin(img, mw, mh)
		buf := buffer(len(src.data))
		if err := images.Encode(buf, fitted, f, images.EncodeOptions{}); err != nil {
			return Encoded{}, refused("image.toBase64", src.name, err)
		}
		b := fitted.Bounds()
		if a.MaxBytes <= 0 || buf.Len() <= a.MaxBytes {
			return Encoded{Data: buf.Bytes(), MIME: f.MIME(), Width: b.Dx(), Height: b.Dy()}, nil
		}
		if max(b.Dx(), b.Dy()) <= minSide {
			return Encoded{}, files.E("image.toBase64", files.KindTooLarge, src.name,
				fmt.Sprintf("even at %d×%d the image takes more than %s", b.Dx(), b.Dy(), files.FormatBytes(int64(a.MaxBytes))), nil)
		}
		mw, mh = max(b.Dx()/2, 1), max(b.Dy()/2, 1)
	}
}
