package metrics

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// scrape returns what /metrics answers.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func TestRequestsAreCountedByRouteMethodAndCode(t *testing.T) {
	m := New(nil)
	for range 3 {
		m.Request("/files/{conversation}/{name}", "GET", 200, time.Millisecond)
	}
	m.Request("/files/{conversation}/{name}", "HEAD", 304, time.Millisecond)
	out := scrape(t, m)
	for _, want := range []string{
		`convfiles_http_requests_total{code="200",method="GET",route="/files/{conversation}/{name}"} 3`,
		`convfiles_http_requests_total{code="304",method="HEAD",route="/files/{conversation}/{name}"} 1`,
		`convfiles_http_request_duration_seconds_count{method="GET",route="/files/{conversation}/{name}"} 3`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestMadeUpMethodsShareOneLabel(t *testing.T) {
	m := New(nil)
	for i := range 500 {
		m.Request("unmatched", fmt.Sprintf("M%d", i), 405, time.Millisecond)
	}
	out := scrape(t, m)
	if n := strings.Count(out, `method="M`); n != 0 {
		t.Fatalf("%d series carry a client's made-up method; want them all under OTHER", n)
	}
	if !strings.Contains(out, `convfiles_http_requests_total{code="405",method="OTHER",route="unmatched"} 500`) {
		t.Fatalf("the 500 requests are not counted under OTHER:\n%s", out)
	}
}
