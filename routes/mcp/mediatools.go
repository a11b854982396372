package mcp

import (
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/content"
	"convfiles/files"
	"convfiles/runtime"
)

// visionTypes are the image types MCP clients hand to vision models; other
// images go out as embedded resources.
var visionTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// readWhole reads a file of at most max bytes through the Space, with its
// kind and MIME type sniffed from its bytes.
func readWhole(sp *files.Space, name string, max int64, what string) ([]byte, content.Kind, string, error) {
	data, info, err := sp.ReadFile(name, max)
	if files.KindOf(err) == files.KindTooLarge {
		return nil, "", "", files.E(what, files.KindTooLarge, info.Name,
			fmt.Sprintf("the file is %d bytes, more than the %d this answer may carry; read a text file in parts with file_read_text, or give the user its link", info.Size, max), nil)
	}
	if err != nil {
		return nil, "", "", err
	}
	kind, mt := content.Detect(name, data[:min(len(data), content.SniffLen)], true)
	return data, kind, mt, nil
}

// fileReadMedia answers an image as image content and anything else as an
// embedded resource, after a line that says what the file is.
func (s *Server) fileReadMedia(c *call, in idIn) (*sdk.CallToolResult, error) {
	name, err := c.sp.Resolve(in.ID)
	if err != nil {
		return nil, err
	}
	data, kind, mt, err := readWhole(c.sp, name, s.cfg.MaxMediaBytes, "file_read_media")
	if err != nil {
		return nil, err
	}
	uri := resourceURI(c.conv, name)
	desc := fmt.Sprintf("[%s: %s, %s, %d bytes]", kind, name, mt, len(data))
	if kind == content.KindImage {
		desc = content.Parse(name, data).String() // with its size in pixels
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: desc}}}
	switch {
	case kind == content.KindImage && visionTypes[mt]:
		res.Content = append(res.Content, &sdk.ImageContent{Data: data, MIMEType: mt})
	case kind == content.KindText:
		res.Content = append(res.Content, &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: mt, Text: string(data)}})
	default:
		res.Content = append(res.Content, &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: mt, Blob: data}})
	}
	return res, nil
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
