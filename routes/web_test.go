package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/internal/needs"
	"convfiles/internal/samples"
	"convfiles/runtime"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// newBrowser starts headless Chromium (Debian's chromium, installed by
// .ci/run) and returns a tab. Without Chromium the test is skipped, unless
// CONVFILES_REQUIRE (set by .ci/run) demands it.
func newBrowser(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path := needs.Program(t, needs.Chromium, "chromium", "chromium-browser", "google-chrome")
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()),
	}
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	return ctx
}

// run runs browser actions, failing the test on an error.
func run(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// cardExpr is a JavaScript expression for the row (list view) or card
// (card view) of a file name.
func cardExpr(name string) string {
	q, _ := json.Marshal(name)
	return `document.querySelector('[data-file][data-name="' + CSS.escape(` + string(q) + `) + '"]')`
}

// waitCard waits until the page shows a card for name and returns its
// size and type as shown.
func waitCard(t testing.TB, ctx context.Context, name string) (size, typ string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("!!"+cardExpr(name), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("no card for %q: %v", name, err)
	}
	return eval[string](t, ctx, cardExpr(name)+".querySelector('.size').textContent"),
		eval[string](t, ctx, cardExpr(name)+".querySelector('.type').title")
}

// clickIn clicks a control of a file's card. The click runs in the page in
// one step: a live update may replace the cards at any moment, and a node
// looked up before it would then be gone.
func clickIn(t testing.TB, ctx context.Context, name, selector string) {
	t.Helper()
	q, _ := json.Marshal(selector)
	eval[bool](t, ctx, `(() => { `+cardExpr(name)+`.querySelector(`+string(q)+`).click(); return true })()`)
}

// artifactPath is where a test leaves files for people to look at:
// $CONVFILES_ARTIFACTS, or artifacts/ at the top of the repository.
func artifactPath(t testing.TB, name string) string {
	dir := os.Getenv("CONVFILES_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

// TestWebPageInChromium drives the page in a real browser: upload through
// the file input and by drag-and-drop, a script's file appearing as a
// download card without a reload, the download returning the same bytes,
// and an uploaded HTML file that must not run in the page's origin.
func TestWebPageInChromium(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	ctx := newBrowser(t) // closed first: its event stream ends before the server does
	png := samples.Path(t, "sample.png")
	csv := samples.Path(t, "sample.csv")
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/#c=web-1"), chromedp.WaitVisible(chromedp.ID("workspace")))
	eval[bool](t, ctx, `window.notReloaded = true`)

	// Upload through the file input.
	run(t, ctx, chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{png}))
	pngInfo, _ := os.Stat(png)
	if size, typ := waitCard(t, ctx, "sample.png"); size != humanSizeForTest(pngInfo.Size()) || typ != "image/png" {
		t.Errorf("uploaded card shows %q, %q", size, typ)
	}

	// Upload by dropping a file on the page. The drop waits until the page
	// has seen the drag (it marks the body), as a hand would hover first.
	drag := &input.DragData{Files: []string{csv}, DragOperationsMask: 1}
	dispatch := func(types ...input.DispatchDragEventType) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			for _, typ := range types {
				if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: 400, Y: 300, Data: drag}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	run(t, ctx, dispatch(input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.classList.contains("dragging")`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the page did not see the drag: %v", err)
	}
	run(t, ctx, dispatch(input.DispatchDragEventTypeDragOver), chromedp.Sleep(50*time.Millisecond), dispatch(input.DispatchDragEventTypeDrop))
	if size, typ := waitCard(t, ctx, "sample.csv"); size == "" || typ != "text/csv" {
		t.Errorf("dropped card shows %q, %q", size, typ)
	}

	// A script writes a file: its card appears, live, without a reload.
	sp, _ := e.store.Space("web-1")
	defer sp.Close()
	rep, err := runtime.New(runtime.Config{}).Run(context.Background(), runtime.Request{Space: sp,
		Source: `write_file("report.csv", "region,total\nnorth,12\nsouth,30\n")`})
	if err != nil {
		t.Fatalf("script: %v %+v", err, rep)
	}
	if size, typ := waitCard(t, ctx, "report.csv"); size != "31 B" || typ != "text/csv" {
		t.Errorf("script's card shows %q, %q", size, typ)
	}
	if !eval[bool](t, ctx, `window.notReloaded === true`) {
		t.Error("the page reloaded")
	}

	// Its download card gives the same bytes.
	dir := t.TempDir()
	done := make(chan string, 1)
	go func() {
		for ev, err := range chromedp.Events(ctx, browser.DownloadProgress) {
			if err != nil || ev.State == browser.DownloadProgressStateCompleted {
				done <- ev.GUID
				return
			}
		}
	}()
	yes := true
	run(t, ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes})
		return err
	}))
	clickIn(t, ctx, "report.csv", "a.download")
	select {
	case guid := <-done:
		got, _ := os.ReadFile(filepath.Join(dir, guid))
		if !bytes.Equal(got, []byte("region,total\nnorth,12\nsouth,30\n")) {
			t.Errorf("downloaded %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the download did not complete")
	}

	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(artifactPath(t, "web-page.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}

	checkHTMLStaysInert(t, ctx, e, dir)

}

// checkHTMLStaysInert uploads an HTML file whose script would mark the
// page's origin, opens it through its preview, its link and its view URL,
// and checks that the script never ran there.
func checkHTMLStaysInert(t *testing.T, ctx context.Context, e *apiEnv, dir string) {
	evil := filepath.Join(dir, "evil.html")
	os.WriteFile(evil, []byte(`<!doctype html><html><body><script>localStorage.setItem("pwned", "yes"); document.cookie = "pwned=yes; path=/"; try { parent.document.body.dataset.pwned = "yes" } catch (e) {}</script>hello</body></html>`), 0o644)
	run(t, ctx, chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{evil}))
	waitCard(t, ctx, "evil.html")
	clickIn(t, ctx, "evil.html", "button.preview")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(document.querySelector('#panel-body pre') || {}).textContent?.includes('<script>')`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("the preview did not show the HTML as text: %v", err)
	}
	rec, err := e.store.Space("web-1")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rec.Record(ctx, "evil.html")
	rec.Close()
	link, view := e.srv.URL+"/files/web-1/evil.html", e.srv.URL+"/api/files/"+r.ID+"/view"
	frames, _ := json.Marshal([]string{link, view})
	eval[bool](t, ctx, `(async () => { for (const src of `+string(frames)+`) { const f = document.createElement("iframe"); f.src = src; document.body.append(f); await new Promise(r => setTimeout(r, 500)); } return true })()`)
	chromedp.Do(ctx, chromedp.Navigate(link)) // a download, not a page: the navigation is aborted
	run(t, ctx, chromedp.Navigate(e.srv.URL+"/#c=web-1"), chromedp.WaitVisible(chromedp.ID("workspace")))
	if got := eval[string](t, ctx, `String(localStorage.getItem("pwned")) + "|" + document.cookie + "|" + (document.body.dataset.pwned || "")`); got != "null||" {
		t.Errorf("the uploaded HTML ran in the page's origin: %q", got)
	}
}

// humanSizeForTest is the page's humanSize for sizes under 1 MiB.
func humanSizeForTest(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KiB"
}
