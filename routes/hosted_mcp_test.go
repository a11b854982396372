package routes

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"convfiles/auth"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds a bearer credential to every request.
type bearer struct {
	cred string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.cred)
	return b.next.RoundTrip(r)
}

// TestHostedMCPScriptsDoWhatTheirCredentialMay: over MCP too, a script run
// with a read-and-execute key reads its conversation and is refused a
// write; with a key that may write, its link comes signed; another
// tenant's conversation answers as a missing one.
func TestHostedMCPScriptsDoWhatTheirCredentialMay(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello")
	reader, _ := e.key(auth.Read|auth.Execute, "acme-")
	writer, _ := e.key(auth.Read|auth.Write|auth.Execute, "acme-")
	ctx := context.Background()
	connect := func(cred string) *sdk.ClientSession {
		c := sdk.NewClient(&sdk.Implementation{Name: "hosted", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp", DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: bearer{cred, http.DefaultTransport}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	run := func(cs *sdk.ClientSession, conv, code string) (string, bool) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "execute_script", Arguments: map[string]any{"conversation_id": conv, "code": code}})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	r := connect(reader)
	if out, isErr := run(r, "acme-1", `read_file("a.txt").get_str()`); isErr || !strings.Contains(out, "hello") {
		t.Fatalf("a reader's script reads: %v %s", isErr, out)
	}
	if out, isErr := run(r, "acme-1", `write_file("b.txt", "x")`); !isErr || !strings.Contains(out, "may not write") {
		t.Fatalf("a reader's script writes: %v %s", isErr, out)
	}
	if id := mustIDOrEmpty(e, "acme-1", "b.txt"); id != "" {
		t.Fatal("the refused write landed")
	}
	w := connect(writer)
	if out, isErr := run(w, "acme-1", `write_file("b.txt", "x")`); isErr || !strings.Contains(out, "/files/acme-1/b.txt?exp=") {
		t.Fatalf("a writer's script: %v %s", isErr, out)
	}
	// Another tenant's conversation, existing or not, is "no such
	// conversation", never a permission to be asked for.
	e.write("other-1", "secret.txt", "no")
	for _, conv := range []string{"other-1", "other-404"} {
		out, isErr := run(w, conv, `1`)
		if !isErr || !strings.Contains(out, "no such conversation") || strings.Contains(out, "ermission") {
			t.Errorf("%s: %v %s", conv, isErr, out)
		}
		if strings.ReplaceAll(out, conv, "X") != strings.ReplaceAll(run1(run(w, "other-1", `1`)), "other-1", "X") {
			t.Errorf("%s answers unlike other-1: %s", conv, out)
		}
	}
}

func run1(out string, _ bool) string { return out }

// mustIDOrEmpty is the index ID of a file, or "" when there is none.
func mustIDOrEmpty(e *hostedEnv, conv, name string) string {
	sp, err := e.store.Space(conv)
	if err != nil {
		return ""
	}
	defer sp.Close()
	rec, err := sp.Record(context.Background(), name)
	if err != nil {
		return ""
	}
	return rec.ID
}
