package routes

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"convfiles/auth"
)

// TestHostedPageSignsInInChromium: the hosted web page shows a sign-in
// form, signs in with a token handed over in the address, keeps it in an
// HttpOnly cookie the page's script cannot read, shows the tenant's
// conversations only and their folders, and refuses a change that rides on the cookie
// without the session's CSRF token. Signing out forgets the session.
func TestHostedPageSignsInInChromium(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello\n")
	e.write("acme-1", "docs/b.txt", "in a folder\n")
	e.write("other-1", "b.txt", "secret\n")
	key, _ := e.key(auth.Read|auth.Write, "acme-")
	p, err := e.auth.Authenticate(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.auth.Mint(p, auth.TokenRequest{TTL: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)

	run(t, ctx, chromedp.Navigate(e.srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("signin")))
	browserPage{t: t, ctx: ctx}.checkAxe("the sign-in form", axeSource(t))
	run(t, ctx, chromedp.SendKeys(chromedp.ID("token"), "cfk_not-a-token"), chromedp.Click(`#signin-form button`))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("signin-message").textContent.includes("never the API key")`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("an API key pasted into the sign-in form is not refused: %v (%q)", err, eval[string](t, ctx, `document.getElementById("signin-message").textContent`))
	}

	run(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(e.srv.URL+"/#token="+tok.Token), chromedp.WaitVisible(chromedp.ID("main")))
	if href := eval[string](t, ctx, `location.href`); strings.Contains(href, tok.Token) {
		t.Fatalf("the token stays in the address bar: %s", href)
	}
	if cookies := eval[string](t, ctx, `document.cookie`); cookies != "" {
		t.Fatalf("the page's script reads the session cookie: %q", cookies)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#conv-items li").length === 1 && document.getElementById("conv-items").textContent.includes("acme-1")`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the conversation list is not the tenant's alone: %v (%s)", err, eval[string](t, ctx, `document.getElementById("conv-items").textContent`))
	}
	eval[bool](t, ctx, `location.hash = "#c=acme-1"; true`)
	waitCard(t, ctx, "a.txt")
	// The folder's size comes from an operation the page posts with its
	// CSRF token.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(document.querySelector('#rows tr[data-folder="docs"] .c-size') || {}).textContent === "12 B"`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the hosted page shows no folder with its size: %v", err)
	}

	// The shared event stream carries the tenant's changes, never another's.
	page := browserPage{t: t, ctx: ctx}
	page.poll("the hosted page goes live", `document.getElementById("live").textContent === "live"`)
	e.write("other-1", "hidden.txt", "another tenant's\n")
	e.write("acme-1", "live.txt", "written while the page is open\n")
	waitCard(t, ctx, "live.txt")
	if leaked := eval[string](t, ctx, `window.convfilesEvents.filter((ev) => ev.conversation !== "acme-1").map((ev) => ev.conversation + "/" + ev.name).join()`); leaked != "" {
		t.Fatalf("the tenant's page received another's events: %s", leaked)
	}

	// A change without the CSRF token is refused; the page's own carries it.
	status := eval[float64](t, ctx, `fetch("/api/conversations/acme-1", {method: "DELETE"}).then(r => r.status)`)
	if status != 403 {
		t.Fatalf("DELETE riding on the cookie alone: %v", status)
	}
	status = eval[float64](t, ctx, `fetch("/api/conversations/other-1/files").then(r => r.status)`)
	if status != 404 {
		t.Fatalf("another tenant's conversation through the session: %v", status)
	}
	eval[bool](t, ctx, `window.confirm = () => true, true`)
	clickIn(t, ctx, "a.txt", "button.delete")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("!"+cardExpr("a.txt"), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the page's own delete (with its CSRF token) did not land: %v", err)
	}

	run(t, ctx, chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signin")))
	if status := eval[float64](t, ctx, `fetch("/api/conversations").then(r => r.status)`); status != 401 {
		t.Fatalf("after signing out: %v", status)
	}
	page.poll("the stream ends with the session", `document.getElementById("live").textContent !== "live"`)
}
