// convfiles web page: the one live connection of a browser. Every tab of
// the page connects to this shared worker, which holds a single event
// stream of every conversation the session reaches and hands each event
// to every tab: a browser allows six connections to a server over
// HTTP/1.1, and a stream per tab would take them all. The browser ends
// the worker, and so the stream, when the last tab closes.
"use strict";

const ports = new Set();
let stream = null;
let live = false;

function post(port, msg) {
  try { port.postMessage(msg); } catch (_) { ports.delete(port); }
}

function broadcast(msg) {
  for (const port of ports) post(port, msg);
}

function setLive(on) {
  live = on;
  broadcast({ kind: "status", live });
}

// open starts the stream, or starts it again for a new session. The tabs
// reload their folders once it is open: what happened before it started
// is in what they read after.
function open() {
  if (stream) stream.close();
  const es = new EventSource("/api/events");
  stream = es;
  es.onopen = () => { setLive(true); broadcast({ kind: "opened" }); };
  es.onerror = () => {
    // A stream the server refused (signed out, a credential ended) is
    // closed for good; one that broke reconnects by itself.
    if (es.readyState === EventSource.CLOSED && stream === es) stream = null;
    setLive(false);
  };
  for (const type of ["file:created", "file:modified", "file:deleted", "conversation:deleted", "reset", "credential-ended"]) {
    es.addEventListener(type, (e) => broadcast({ kind: "event", type, data: e.data || "{}", id: e.lastEventId }));
  }
}

self.onconnect = (e) => {
  const port = e.ports[0];
  ports.add(port);
  port.onmessage = (m) => {
    const op = m.data && m.data.op;
    if (op === "hello") {
      if (!stream) open();
      // The answer comes after the tab is among the ports: what the tab
      // reads next, nothing the stream delivers can have missed.
      post(port, { kind: "hello", live });
    } else if (op === "restart") {
      open();
    } else if (op === "bye") {
      ports.delete(port);
    }
  };
  port.start();
};
