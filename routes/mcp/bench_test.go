package mcp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/routes/mcp"
)

// BenchmarkToolCall measures one tool call through the SDK's in-memory
// transport: the server's share of a call, without a process boundary.
func BenchmarkToolCall(b *testing.B) {
	for _, tc := range []struct {
		name string
		args func(i int) *sdk.CallToolParams
	}{
		{"write-1KiB", func(i int) *sdk.CallToolParams {
			return &sdk.CallToolParams{Name: "file_write_text", Arguments: map[string]any{"id": fmt.Sprintf("f%d.txt", i%100), "content": strings.Repeat("x", 1023) + "\n"}}
		}},
		{"read-1KiB", func(i int) *sdk.CallToolParams {
			return &sdk.CallToolParams{Name: "file_read_text", Arguments: map[string]any{"id": fmt.Sprintf("f%d.txt", i%100)}}
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			e := newEnv(b, "bench")
			ctx := context.Background()
			for i := range 100 {
				e.client.CallTool(ctx, &sdk.CallToolParams{Name: "file_write_text", Arguments: map[string]any{"id": fmt.Sprintf("f%d.txt", i), "content": "x"}})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := e.client.CallTool(ctx, tc.args(i))
				if err != nil || res.IsError {
					b.Fatal(err, text(res))
				}
			}
		})
	}
}

// BenchmarkStdioRead is the server's whole share of a 1 KiB file_read_text
// over the stdio transport: raw request lines in, answer lines out, no
// client library; of a durable 1 KiB file_write_text (write-1KiB); and of
// a ping, the floor of any request through the MCP SDK.
func BenchmarkStdioRead(b *testing.B) {
	b.Run("read-1KiB", func(b *testing.B) {
		stdioRoundTrips(b, func(i int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"file_read_text","arguments":{"id":"f.txt"}}}`, i)
		})
	})
	b.Run("write-1KiB", func(b *testing.B) {
		content := strings.Repeat("x", 1023) + `\n`
		stdioRoundTrips(b, func(i int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"file_write_text","arguments":{"id":"f%d.txt","content":"%s"}}}`, i, i%100, content)
		})
	})
	b.Run("ping", func(b *testing.B) {
		stdioRoundTrips(b, func(i int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i) })
	})
}

// stdioRoundTrips sends b.N requests, each line(i) after the last one's
// answer, to a server over stdio that holds a 1 KiB f.txt.
func stdioRoundTrips(b *testing.B, line func(i int) string) {
	e := newEnv(b, "bench")
	e.ok("file_write_text", map[string]any{"id": "f.txt", "content": strings.Repeat("x", 1023) + "\n"}, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.server.Run(ctx, &mcp.StdioTransport{Reader: inR, Writer: outW})
	out := bufio.NewReader(outR)
	roundTrip := func(line string) {
		io.WriteString(inW, line+"\n")
		if _, err := out.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		roundTrip(line(i + 1))
	}
}
