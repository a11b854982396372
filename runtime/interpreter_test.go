package runtime

import (
	"context"
	"strings"
	"testing"
)

// TestALanguageNoPackageRegisteredIsRefused: the core runs no language of
// its own. A program that does not link a language's package refuses its
// scripts and lints with the reason, instead of running them as another
// language; a second registration of a language is a programming error.
func TestALanguageNoPackageRegisteredIsRefused(t *testing.T) {
	r := New(Config{})
	rep, err := r.Run(context.Background(), Request{Source: "1 + 1", Language: JavaScript})
	if err == nil || rep.Error == nil || !strings.Contains(rep.Error.Message, `no interpreter runs "javascript" scripts`) {
		t.Fatalf("got %+v, %v; want the language refused", rep, err)
	}
	if d := r.Lint(context.Background(), "a.lua", "x = 1", ""); len(d) != 1 || !strings.Contains(d[0].Message, `"lua"`) {
		t.Fatalf("lint: %+v", d)
	}
	Register(func(Config) Interpreter { return nil }, "cobol")
	defer func() {
		if recover() == nil {
			t.Fatal("a second registration of a language did not panic")
		}
	}()
	Register(func(Config) Interpreter { return nil }, "cobol")
}
