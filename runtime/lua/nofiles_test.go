package lua

import (
	"context"
	"strings"
	"testing"

	"convfiles/runtime"
)

// TestNoConversationMeansNoFilesInLua: with file access off, seed 001's
// io and seed 000's file globals (and os.remove) are absent, not present
// and throwing; os.clock stays.
func TestNoConversationMeansNoFilesInLua(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Language: runtime.Lua, Source: `return {type(io), type(file), type(os.remove), type(os.clock)}`})
	if err != nil || string(rep.Result) != `["nil","nil","nil","function"]` {
		t.Fatalf("Lua without files: %s %v", rep.Result, err)
	}
	rep, _ = r.Run(context.Background(), runtime.Request{Language: runtime.Lua, Source: `file.save("a.txt", "x")`})
	if rep.Error == nil || !strings.Contains(rep.Error.Message, "nil") {
		t.Fatalf("file.save without files: %+v", rep.Error)
	}
}
