package routes

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"

	"github.com/chromedp/chromedp"
)

// browserPage drives the file browser of one conversation in Chromium.
type browserPage struct {
	t   *testing.T
	ctx context.Context
	e   *apiEnv
}

// poll waits until expr is true in the page.
func (p browserPage) poll(what, expr string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		p.t.Fatalf("%s: %v (rows: %v, message: %q)", what, err, p.rowNames(), eval[string](p.t, p.ctx, `document.getElementById("message").textContent`))
	}
}

// rowNames lists the names the list view shows, folders first, in order.
func (p browserPage) rowNames() []string {
	p.t.Helper()
	return eval[[]string](p.t, p.ctx, `Array.from(document.querySelectorAll("#rows tr"), (r) => r.dataset.folder !== undefined ? r.dataset.folder + "/" : r.dataset.name)`)
}

// waitRows waits until the list view shows exactly want, in order.
func (p browserPage) waitRows(what string, want ...string) {
	p.t.Helper()
	q, _ := json.Marshal(want)
	p.poll(what, `JSON.stringify(Array.from(document.querySelectorAll("#rows tr"), (r) => r.dataset.folder !== undefined ? r.dataset.folder + "/" : r.dataset.name)) === `+"`"+string(q)+"`")
}

// click clicks what selector finds, once it is there. The lookup and the
// click are one step in the page: a live update may redraw the rows.
func (p browserPage) click(selector string) {
	p.t.Helper()
	q, _ := json.Marshal(selector)
	p.poll("no "+selector, `!!document.querySelector(`+string(q)+`)`)
	eval[bool](p.t, p.ctx, `(document.querySelector(`+string(q)+`).click(), true)`)
}

// doubleClick double-clicks what selector finds, as click does.
func (p browserPage) doubleClick(selector string) {
	p.t.Helper()
	q, _ := json.Marshal(selector)
	p.poll("no "+selector, `!!document.querySelector(`+string(q)+`)`)
	eval[bool](p.t, p.ctx, `document.querySelector(`+string(q)+`).dispatchEvent(new MouseEvent("dblclick", {bubbles: true}))`)
}

// press focuses what selector finds and presses a key on it.
func (p browserPage) press(selector, key string) {
	p.t.Helper()
	q, _ := json.Marshal(selector)
	p.poll("no "+selector, `!!document.querySelector(`+string(q)+`)`)
	eval[bool](p.t, p.ctx, `(document.querySelector(`+string(q)+`).focus(), true)`)
	run(p.t, p.ctx, chromedp.KeyEvent(key))
}

// answer types text into the page's name dialog and confirms it.
func (p browserPage) answer(text string) {
	p.t.Helper()
	p.poll("the name dialog did not open", `document.getElementById("ask").open`)
	q, _ := json.Marshal(text)
	eval[bool](p.t, p.ctx, `(() => { document.getElementById("ask-input").value = `+string(q)+`; document.getElementById("ask-ok").click(); return true })()`)
}

// search types text into the search box as a person would.
func (p browserPage) search(text string) {
	p.t.Helper()
	eval[bool](p.t, p.ctx, `(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); return true })()`)
	if text != "" {
		run(p.t, p.ctx, chromedp.SendKeys(chromedp.ID("search"), text))
	}
}

// names lists what the store holds live in the conversation.
func (p browserPage) names(conv string) []string {
	p.t.Helper()
	sp, err := p.e.store.Space(conv)
	if err != nil {
		p.t.Fatal(err)
	}
	defer sp.Close()
	recs, _, err := sp.Find(context.Background(), files.ListQuery{})
	if err != nil {
		p.t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.Name)
	}
	return out
}

// screenshot saves the page at its present size into the artifacts.
func (p browserPage) screenshot(name string) {
	p.t.Helper()
	shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(artifactPath(p.t, name), shot, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// openConversation starts a server whose conversation conv holds files
// (name to text), and a browser on its page.
func openConversation(t *testing.T, conv string, files map[string]string) browserPage {
	t.Helper()
	e := newAPIEnv(t, engine.Options{})
	for name, text := range files {
		storetest.Put(t, e.store, conv, name, []byte(text))
	}
	ctx := newBrowser(t)
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/#c="+conv))
	return browserPage{t: t, ctx: ctx, e: e}
}

// axeSource is axe-core, which the accessibility checks inject.
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "third_party", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkAxe runs axe-core on the page as it is and fails on any violation,
// naming each rule, its impact and the elements.
func (p browserPage) checkAxe(view, source string) {
	p.t.Helper()
	if !eval[bool](p.t, p.ctx, `typeof window.axe === "object"`) {
		eval[bool](p.t, p.ctx, source+"\n;true")
	}
	out := eval[string](p.t, p.ctx, `axe.run(document, {resultTypes: ["violations"]}).then((r) => JSON.stringify(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" "))}))))`)
	var violations []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal([]byte(out), &violations); err != nil {
		p.t.Fatal(err)
	}
	for _, v := range violations {
		p.t.Errorf("%s: axe-core %s (%s): %s, at %q", view, v.ID, v.Impact, v.Help, v.Nodes)
	}
}

// layoutProblems lists what does not fit at the page's width: the page
// scrolled sideways, or a shown file's row actions hidden or off the
// screen.
func (p browserPage) layoutProblems() []string {
	p.t.Helper()
	return eval[[]string](p.t, p.ctx, `(() => {
		const out = [], w = document.documentElement.clientWidth;
		if (document.documentElement.scrollWidth > w) {
			const wide = Array.from(document.querySelectorAll("body *"), (e) => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.right > w + 0.5 && e.offsetParent);
			out.push("the page is " + document.documentElement.scrollWidth + " px wide in " + w + ": " + wide.slice(0, 4).map(([e, r]) => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(r.left) + "–" + Math.round(r.right)).join(", "));
		}
		const ws = document.getElementById("workspace").getBoundingClientRect();
		if (ws.width < Math.min(300, w - 40)) out.push("the files take " + Math.round(ws.width) + " px");
		for (const row of document.querySelectorAll("#rows tr[data-file], #cards > [data-file]")) {
			for (const a of row.querySelectorAll("a.download, button.rename, button.delete")) {
				const r = a.getBoundingClientRect();
				if (!a.offsetParent || r.width === 0) out.push(row.dataset.name + ": " + a.textContent + " is hidden");
				else if (r.left < 0 || r.right > w) out.push(row.dataset.name + ": " + a.textContent + " is off the screen at " + Math.round(r.left) + "–" + Math.round(r.right));
				else if (r.right > row.getBoundingClientRect().right + 1) out.push(row.dataset.name + ": " + a.textContent + " sticks out of its row");
			}
			const name = row.querySelector("td.c-name, .name");
			if (name && name.getBoundingClientRect().width < 120) out.push(row.dataset.name + ": the name is " + Math.round(name.getBoundingClientRect().width) + " px wide");
		}
		return out;
	})()`)
}
