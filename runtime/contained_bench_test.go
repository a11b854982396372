package runtime

import (
	"context"
	"testing"
)

// BenchmarkHelloWorldContained is BenchmarkHelloWorld as a sandbox worker
// runs it: without the in-VM size guards (Config.Contained).
func BenchmarkHelloWorldContained(b *testing.B) {
	r := New(Config{Contained: true})
	reportMedian(b, func() {
		if _, err := r.Run(context.Background(), Request{Source: helloWorld}); err != nil {
			b.Fatal(err)
		}
	})
}
