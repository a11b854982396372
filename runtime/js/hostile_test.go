package js

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"convfiles/internal/hostile"
	"convfiles/runtime"
)

// TestHostileNamesThroughJSHelpers sends every hostile name through
// read_file, write_file and delete_file and checks each is refused with a
// clear error or contained inside the conversation, and that nothing
// outside the conversation was read or written.
func TestHostileNamesThroughJSHelpers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	fx := hostile.NewFixture(t, dir)
	store := fx.OpenStore(t)
	r := runtime.New(runtime.Config{})
	type opResult struct {
		OK                  bool
		Name, Message, Text string
	}
	for _, c := range hostile.Names() {
		sp, _ := store.Space(hostile.Conversation)
		arg := jsLiteral(c.Name)
		src := `
const name = ` + arg + `;
const trap = ` + fmt.Sprint(c.Outcome == hostile.Trap) + `;
function attempt(f) { try { const v = f(); return {ok: true, text: typeof v === "object" ? v.get_str() : String(v)} } catch (e) { return {ok: false, name: e.name, message: e.message} } }
({read: attempt(() => read_file(name)), ioread: attempt(() => io.open(name, "r").read("a")),
  iowrite: attempt(() => { if (trap) throw {name: "skipped", message: "a planted link: checked by write"}; const h = io.open(name, "w"); h.write("x"); return h.close() }),
  save: attempt(() => trap ? (() => { throw {name: "skipped", message: "checked by write"} })() : file.save(name, "x")),
  write: attempt(() => write_file(name, "x")), reread: attempt(() => read_file(name)),
  del: trap ? {} : attempt(() => delete_file(name)), osremove: trap ? {} : attempt(() => os.remove(name))})`
		rep, err := r.Run(context.Background(), runtime.Request{Source: src, Space: sp})
		sp.Close()
		if err != nil {
			t.Fatalf("%q: the script itself failed: %v", c.Name, err)
		}
		if strings.Contains(string(rep.Result), hostile.Secret) {
			t.Fatalf("%q: a helper returned content from outside the conversation: %s", c.Name, rep.Result)
		}
		var got map[string]opResult
		json.Unmarshal(rep.Result, &got)
		refused := func(op string) {
			o := got[op]
			if o.OK || (o.Name != "ValidationError" && o.Name != "PermissionError") || len(o.Message) < 20 {
				t.Errorf("%q: %s gave %+v, want a clear ValidationError or PermissionError", c.Name, op, o)
			}
			if strings.Contains(o.Message, fx.Outside) || strings.Contains(o.Message, dir) {
				t.Errorf("%q: %s error leaks a host path: %s", c.Name, op, o.Message)
			}
		}
		switch c.Outcome {
		case hostile.Refuse:
			for _, op := range []string{"read", "ioread", "iowrite", "save", "write", "del", "osremove"} {
				refused(op)
			}
		case hostile.Contain:
			if !got["write"].OK || got["reread"].Text != "x" || !got["del"].OK || !got["iowrite"].OK || !got["save"].OK {
				t.Errorf("%q: literal name not usable: %+v", c.Name, got)
			}
		case hostile.Trap:
			refused("read")
			refused("ioread")
			if !got["write"].OK || got["reread"].Text != "x" {
				t.Errorf("%q: writing over a planted link: %+v", c.Name, got)
			}
		}
		if c.Outcome == hostile.Trap {
			fx.CheckContained(t, c.Name)
		}
	}
	fx.CheckUntouched(t)
}

// jsLiteral writes name as a JS string literal. Bytes that are not UTF-8
// cannot exist in a JS string; they become lone surrogates, the closest
// thing a script can send.
func jsLiteral(name string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, "\\ud8%02x", name[i]&0x3f)
			i++
			continue
		}
		q, _ := json.Marshal(string(r))
		b.WriteString(strings.Trim(string(q), `"`))
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
