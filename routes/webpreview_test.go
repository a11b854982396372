package routes

import (
	"context"
	"encoding/json"
	"image/color"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/formats"

	"github.com/chromedp/chromedp"
)

// TestWebPreviewsInChromium: in a real browser, an image's row and card
// show its thumbnail; a workbook's preview is a table of its rows with a tab per
// sheet; a PDF's shows its metadata, its first page's text and the
// browser's viewer; an image's shows its size.
func TestWebPreviewsInChromium(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	ctx := newBrowser(t)
	putSample(t, e, "web-prev", "budget.xlsx", nil)
	putSample(t, e, "web-prev", "form.pdf", nil)
	putSample(t, e, "web-prev", "wide.png", photo(t, 800, 600, color.NRGBA{40, 120, 200, 255}))
	// The page is opened under another name than the links' base URL: its
	// previews must still load from its own origin.
	page := strings.Replace(e.srv.URL, "127.0.0.1", "localhost", 1)
	run(t, ctx, chromedp.Navigate(page+"/#c=web-prev"), chromedp.WaitVisible(chromedp.ID("workspace")))
	for _, name := range []string{"budget.xlsx", "form.pdf", "wide.png"} {
		waitCard(t, ctx, name)
	}
	poll := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("%s: %v (panel: %q)", what, err, eval[string](t, ctx, `document.getElementById("panel-body").textContent`))
		}
	}
	texts := func(selector string) []string {
		t.Helper()
		q, _ := json.Marshal(selector)
		return eval[[]string](t, ctx, `Array.from(document.querySelectorAll(`+string(q)+`), (e) => e.textContent)`)
	}

	poll("the image's row has no small thumbnail", `(() => { const i = `+cardExpr("wide.png")+`.querySelector("img.thumb-small");
		return !!i && i.complete && i.naturalWidth === 64 && i.naturalHeight === 48 })()`)
	run(t, ctx, chromedp.Click(chromedp.ID("view-cards")))
	poll("the image's card has no thumbnail", `(() => { const i = `+cardExpr("wide.png")+`.querySelector("img.thumb");
		return !!i && i.complete && i.naturalWidth === 256 && i.naturalHeight === 192 })()`)
	if eval[bool](t, ctx, `!!`+cardExpr("budget.xlsx")+`.querySelector("img")`) {
		t.Error("a workbook's card shows a thumbnail")
	}
	run(t, ctx, chromedp.Click(chromedp.ID("view-list")))

	clickIn(t, ctx, "budget.xlsx", "button.preview")
	poll("the workbook's table", `!!document.querySelector("#panel-body .sheet table")`)
	if got := texts("#panel-body .sheet tr:first-child th"); !reflect.DeepEqual(got, []string{"1", "Item", "Quantity", "Price", "Total"}) {
		t.Errorf("header row %q", got)
	}
	if got := texts("#panel-body .sheets button"); !reflect.DeepEqual(got, []string{"Budget", "Notes"}) {
		t.Errorf("sheet tabs %q", got)
	}
	if got := texts("#panel-body .sheet tr:last-child > *"); len(got) != 5 || got[0] != "5" || got[1] != "Sum" || got[4] != "90" {
		t.Errorf("last row %q", got)
	}
	screenshot(t, ctx, "web-preview-sheet.png")
	eval[bool](t, ctx, `(() => { document.querySelectorAll("#panel-body .sheets button")[1].click(); return true })()`)
	poll("the second sheet", `document.querySelector("#panel-body .sheets button.current")?.textContent === "Notes"`)

	clickIn(t, ctx, "form.pdf", "button.preview")
	poll("the PDF's first page", `document.querySelector("#panel-body pre.pdf-text")?.textContent.includes("Membership application")`)
	facts := texts("#panel-body dl.facts > *")
	if len(facts) < 4 || facts[0] != "Pages" || facts[1] != "1" || !slices.Contains(facts, "Membership application") {
		t.Errorf("PDF facts %q", facts)
	}
	if !eval[bool](t, ctx, `!!document.querySelector("#panel-body iframe")`) {
		t.Error("no PDF viewer")
	}
	// The picture waits for the browser's PDF viewer to draw the page; nothing is asserted on it.
	run(t, ctx, chromedp.Sleep(3*time.Second))
	screenshot(t, ctx, "web-preview-pdf.png")

	clickIn(t, ctx, "wide.png", "button.preview")
	poll("the image's size", `document.querySelector("#panel-body dl.facts dd")?.textContent === "800 × 600 px"`)
	poll("the image", `(() => { const i = document.querySelector("#panel-body > img"); return !!i && i.complete && i.naturalWidth === 800 })()`)
}

// screenshot leaves a picture of the page in the artifacts folder.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(artifactPath(t, name), shot, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestAReportOpensInThePreview makes a PDF report from Markdown and opens
// it in the page: the preview reads its first page's text back.
func TestAReportOpensInThePreview(t *testing.T) {
	p := openConversation(t, "report-1", nil)
	sp, err := p.e.store.Space("report-1")
	if err != nil {
		t.Fatal(err)
	}
	args := formats.ReportArgs{Markdown: "# Quarterly report\n\nRevenue **grew**.\n\n| Region | Total |\n|---|---|\n| North | 150 |\n", Name: "report.pdf"}
	_, err = formats.FromMarkdown(context.Background(), formats.Env{Space: sp}, args)
	sp.Close()
	if err != nil {
		t.Fatal(err)
	}
	p.waitRows("the report", "report.pdf")
	p.click(`#rows tr[data-name="report.pdf"] button.open`)
	p.poll("the report's first page in the preview", `(document.querySelector("#panel-body pre.pdf-text") || {}).textContent?.includes("Quarterly report")`)
	if got := eval[string](p.t, p.ctx, `document.querySelector("#panel-body pre.pdf-text").textContent`); !strings.Contains(strings.Join(strings.Fields(got), " "), "North 150") {
		t.Errorf("the preview's text: %q", got)
	}
}
