// Command mcpanchor is the floor bench/mcp.sh measures convfiles' MCP
// tools against: a server on the same MCP SDK and the same stdio
// transport, with two tools and nothing else. read_text_file answers a
// file's text; write_file writes it as durably as convfiles does (a
// temporary file synced, renamed over the name, and the folder synced),
// with no index, no names checked, no quota and no events. What convfiles
// costs above it is its own; what it costs itself is the SDK's and the
// disk's.
//
//	go run ./bench/mcpanchor DIR
package main

import (
	"context"
	"encoding/json"
	"log"
	"os"
	"path/filepath"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: mcpanchor DIR")
	}
	dir := os.Args[1]
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpanchor", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "read_text_file", InputSchema: schema("path")}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Path string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(in.Path)))
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "write_file", InputSchema: schema("path", "content")}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Path, Content string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		if err := writeDurably(dir, filepath.Base(in.Path), []byte(in.Content)); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// schema is an object of the string properties names, all required.
func schema(names ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, Required: names}
	for _, n := range names {
		s.Properties[n] = &jsonschema.Schema{Type: "string"}
	}
	return s
}

// writeDurably puts data at dir/name so that a crash leaves either the
// old bytes or the new: a synced temporary file renamed over the name,
// then the folder synced.
func writeDurably(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
