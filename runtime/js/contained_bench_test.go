package js

import (
	"context"
	"testing"

	"convfiles/internal/benchrun"
	"convfiles/runtime"
)

// BenchmarkHelloWorldContained is BenchmarkHelloWorld as a sandbox worker
// runs it: without the in-VM size guards (Config.Contained).
func BenchmarkHelloWorldContained(b *testing.B) {
	r := runtime.New(runtime.Config{Contained: true})
	benchrun.ReportMedian(b, func() {
		if _, err := r.Run(context.Background(), runtime.Request{Source: helloWorld}); err != nil {
			b.Fatal(err)
		}
	})
}
