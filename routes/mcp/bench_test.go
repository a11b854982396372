package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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
