package runtime

import "testing"

func TestSmoke(t *testing.T) {
	e := newEnv(t, Config{})
	var got map[string]any
	rep := e.ok("c1", `
const url = write_file("a.txt", "hello");
const c = read_file("a.txt");
console.log("wrote", url, {n: 1});
({url, type: c.type, text: c.get_str(), files: list_files().map(f => f.name)})`, &got)
	t.Logf("%v %v %+v", got, rep.Logs, rep.FilesTouched)
}
