package routes

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/sqlite"
)

// sseEvent is one server-sent event as a client parses it.
type sseEvent struct {
	id, event string
	data      map[string]any
}

// openStream connects to the event stream and returns a channel of
// parsed events; it ends when ctx does.
func openStream(t testing.TB, ctx context.Context, url, lastID string) <-chan sseEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	return streamOf(t, req)
}

// streamOf sends req and returns a channel of the stream's parsed
// events; it ends when the stream does.
func streamOf(t testing.TB, req *http.Request) <-chan sseEvent {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %v", resp.StatusCode, resp.Header)
	}
	return eventsOf(resp)
}

// eventsOf parses an open stream's events into a channel, closed when
// the stream ends.
func eventsOf(resp *http.Response) <-chan sseEvent {
	out := make(chan sseEvent, 64)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.event != "" {
					out <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.data)
			}
		}
	}()
	return out
}

func next(t testing.TB, c <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-c:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return sseEvent{}
}

// TestEventsStreamEveryDoorAndResume: changes made in this process, by the
// REST API and by another process sharing the index all arrive as events
// with seed 004's payloads, only for the conversation asked for, and a
// client reconnecting with Last-Event-ID gets exactly what it missed.
func TestEventsStreamEveryDoorAndResume(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	stream := openStream(t, ctx, e.srv.URL+"/api/events?conversation=c1", "")

	created := write(t, e.store, "c1", "a.txt", "one")
	write(t, e.store, "other", "x.txt", "not for this stream")
	write(t, e.store, "c1", "a.txt", "two!")
	ev := next(t, stream)
	if ev.event != "file:created" || ev.data["id"] != created.ID || ev.data["name"] != "a.txt" || ev.data["size"] != float64(3) || ev.data["mime_type"] != "text/plain" {
		t.Fatalf("created: %+v", ev)
	}
	ev = next(t, stream)
	if ev.event != "file:modified" || ev.data["id"] != created.ID || ev.data["size"] != float64(4) || ev.data["modified_on"] == nil {
		t.Fatalf("modified: %+v", ev)
	}
	lastSeen := ev.id
	cancel()

	if st := e.do("DELETE", "/api/files/"+created.ID, nil, nil); st != 200 {
		t.Fatalf("delete: %d", st)
	}
	// Another process (the CLI) writes through its own index connection.
	other := openSecondStore(t, e)
	sp, _ := other.Space("c1")
	sp.WriteBytes(context.Background(), "from-cli.txt", []byte("cli"), files.WriteOptions{})
	sp.Close()

	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	resumed := openStream(t, ctx2, e.srv.URL+"/api/events?conversation=c1", lastSeen)
	if ev := next(t, resumed); ev.event != "file:deleted" || ev.data["id"] != created.ID {
		t.Fatalf("resumed first: %+v", ev)
	}
	if ev := next(t, resumed); ev.event != "file:created" || ev.data["name"] != "from-cli.txt" {
		t.Fatalf("resumed second: %+v", ev)
	}
	sp, _ = other.Space("c1")
	sp.WriteBytes(context.Background(), "later-cli.txt", []byte("cli"), files.WriteOptions{})
	sp.Close()
	if ev := next(t, resumed); ev.data["name"] != "later-cli.txt" {
		t.Fatalf("live event from another process: %+v", ev)
	}
	var bad envelopeOf[any]
	if st := e.do("GET", "/api/events?conversation=../x", nil, &bad); st != 400 {
		t.Fatalf("hostile conversation: %d", st)
	}
}

// openSecondStore opens the env's folder and index a second time, as the
// CLI does while the server runs.
func openSecondStore(t *testing.T, e *apiEnv) *engine.Store {
	t.Helper()
	ix, err := sqlite.Open(e.indexPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.OpenStore(e.dir, engine.Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); ix.Close() })
	return s
}
