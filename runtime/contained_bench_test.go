package runtime

import (
	"context"
	"testing"

	"convfiles/internal/benchrun"
)

// BenchmarkHelloWorldContained is BenchmarkHelloWorld as a sandbox worker
// runs it: without the in-VM size guards (Config.Contained).
func BenchmarkHelloWorldContained(b *testing.B) {
	r := New(Config{Contained: true})
	benchrun.ReportMedian(b, func() {
		if _, err := r.Run(context.Background(), Request{Source: helloWorld}); err != nil {
			b.Fatal(err)
		}
	})
}
