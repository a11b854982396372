package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"convfiles/auth"
	"convfiles/content"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/ops"
	"convfiles/runtime"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// visionTypes are the image types MCP clients hand to vision models; other
// images go out as embedded resources.
var visionTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// readWhole reads a file of at most max bytes through the Space, with its
// kind and MIME type sniffed from its bytes.
func readWhole(ctx context.Context, sp *engine.Space, name string, max int64, what string) ([]byte, content.Kind, string, error) {
	data, info, err := sp.ReadFile(ctx, name, max)
	if files.KindOf(err) == files.KindTooLarge {
		return nil, "", "", files.E(what, files.KindTooLarge, info.Name,
			fmt.Sprintf("the file is %d bytes, more than the %d one answer may carry; read it in parts with file_read_text (text) or file_read_bytes, or give the user its link", info.Size, max), nil)
	}
	if err != nil {
		return nil, "", "", err
	}
	kind, mt := content.Detect(name, data[:min(len(data), content.SniffLen)], true)
	return data, kind, mt, nil
}

// fileReadMedia answers an image as image content and anything else as an
// embedded resource, after a line that says what the file is. No answer
// carries more than MaxMediaBytes: an image is scaled down until it fits
// (in a worker, where a hostile file can be stopped), anything else over
// the cap is refused with the tool that reads it in parts.
func (s *Server) fileReadMedia(c *call, in idIn) (*sdk.CallToolResult, error) {
	name, err := c.sp.Resolve(c.ctx, in.ID)
	if err != nil {
		return nil, err
	}
	kind, mt, size, err := sniff(c.ctx, c.sp, name)
	if err != nil {
		return nil, err
	}
	uri := resourceURI(c.conv, name)
	if kind == content.KindImage && visionTypes[mt] {
		return s.scaledImage(c, name, size)
	}
	data, kind, mt, err := readWhole(c.ctx, c.sp, name, s.cfg.MaxMediaBytes, "file_read_media")
	if err != nil {
		return nil, err
	}
	desc := fmt.Sprintf("[%s: %s, %s, %d bytes]", kind, name, mt, len(data))
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: desc}}}
	if kind == content.KindText {
		res.Content = append(res.Content, &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: mt, Text: string(data)}})
	} else {
		res.Content = append(res.Content, &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: mt, Blob: data}})
	}
	return res, nil
}

// scaledImage answers an image for a vision model, turned the way its
// EXIF says and shrunk until it fits both a 2048-pixel box and the answer
// cap; the text line says when it was scaled, and from what.
func (s *Server) scaledImage(c *call, name string, size int64) (*sdk.CallToolResult, error) {
	raw, err := s.cfg.Formats.Call(c.ctx, formats.Env{Space: c.sp}, formats.NameOf(formats.ToBase64),
		formats.Base64Args{File: name, MaxBytes: int(s.cfg.MaxMediaBytes)})
	if err != nil {
		return nil, err
	}
	var img formats.Encoded
	if err := json.Unmarshal(raw, &img); err != nil {
		return nil, err
	}
	desc := fmt.Sprintf("[image: %s, %s, %d×%d, %d bytes]", name, img.MIME, img.Width, img.Height, len(img.Data))
	if int64(len(img.Data)) != size {
		desc = fmt.Sprintf("[image: %s, scaled down to %d×%d (%s, %d bytes) to fit one answer of at most %s; the file itself holds %d bytes]",
			name, img.Width, img.Height, img.MIME, len(img.Data), files.FormatBytes(s.cfg.MaxMediaBytes), size)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: desc}, &sdk.ImageContent{Data: img.Data, MIMEType: img.MIME}}}, nil
}

// sniff returns the kind and MIME type of a file from its first bytes,
// and its size, without reading the rest.
func sniff(ctx context.Context, sp *engine.Space, name string) (content.Kind, string, int64, error) {
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return "", "", 0, err
	}
	defer f.Close()
	kind, mt := content.DetectReader(info.Name, f, info.Size)
	return kind, mt, info.Size, nil
}

type downloadIn struct {
	Scope
	URL      string `json:"url"`
	Filename string `json:"filename,omitempty"`
}

type downloadOut struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Size int64  `json:"size"`
	MIME string `json:"mime_type"`
	URL  string `json:"url,omitempty"`
}

func (s *Server) fileDownload(c *call, in downloadIn) (downloadOut, error) {
	if err := ops.Authorize(c.ctx, c.conv, auth.Write); err != nil {
		return downloadOut{}, err
	}
	if s.cfg.Downloader == nil {
		return downloadOut{}, files.E("file_download", files.KindForbidden, "", "downloads are not enabled on this server", nil)
	}
	d, err := runtime.Download(c.ctx, s.cfg.Downloader, c.sp, in.URL, in.Filename, c.writeOpts())
	var fetchErr *runtime.FetchError
	if errors.As(err, &fetchErr) {
		// The policy's refusal (a private address) or the fetch's failure
		// (a 404, a timeout): the model should try another URL, not retry.
		kind := files.KindInvalid
		var r runtime.Refusal
		if errors.As(err, &r) && r.Refused() {
			kind = files.KindForbidden
		}
		return downloadOut{}, files.E("file_download", kind, "", fetchErr.Error(), nil)
	}
	if err != nil {
		return downloadOut{}, err
	}
	return downloadOut{ID: d.ID, Name: d.Name, Size: d.Size, MIME: d.MIME, URL: s.link(c.conv, d.Name)}, nil
}
