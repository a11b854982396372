// convfiles web page: live updates. The tabs of a browser share one event
// stream through a shared worker (live-worker.js); where a browser has no
// shared workers, a tab holds its own stream only while it is shown, and
// catches up from where it stopped when it is shown again. Either way a
// hidden tab never holds a connection of its own.
"use strict";

// Live connects the page to the events of every conversation the session
// reaches. onEvent gets (type, data, id) for each; onStatus(live) when the
// stream opens or breaks; onOpened when it (re)starts, after which the
// page reads its folder again.
class Live {
  constructor(onEvent, onStatus, onOpened) {
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.onOpened = onOpened;
    this.lastId = "";
    this.port = null;
    this.es = null;
  }

  // start connects, and resolves once events from now on will arrive.
  start() {
    if (window.SharedWorker) {
      try {
        return this.startShared();
      } catch (_) { /* a browser that refuses workers: a stream of its own */ }
    }
    document.addEventListener("visibilitychange", () => this.followVisibility());
    this.followVisibility();
    return Promise.resolve();
  }

  startShared() {
    const worker = new SharedWorker("/live-worker.js", { name: "convfiles-live" });
    this.port = worker.port;
    const hello = new Promise((resolve) => {
      this.port.onmessage = (m) => {
        const msg = m.data;
        if (msg.kind === "event") this.deliver(msg.type, msg.data, msg.id);
        else if (msg.kind === "status") this.onStatus(msg.live);
        else if (msg.kind === "opened") this.onOpened();
        else if (msg.kind === "hello") { this.onStatus(msg.live); resolve(); }
      };
    });
    this.port.start();
    this.port.postMessage({ op: "hello" });
    window.addEventListener("pagehide", () => this.port.postMessage({ op: "bye" }));
    return hello;
  }

  // restart begins the stream again: the session changed.
  restart() {
    if (this.port) this.port.postMessage({ op: "restart" });
    else if (this.es) this.openOwn();
  }

  deliver(type, raw, id) {
    if (id) this.lastId = id;
    let data = {};
    try { data = JSON.parse(raw); } catch (_) { /* a keep-alive has none */ }
    this.onEvent(type, data, id);
  }

  followVisibility() {
    if (document.hidden) {
      if (this.es) { this.es.close(); this.es = null; this.onStatus(false); }
    } else if (!this.es) {
      this.openOwn();
    }
  }

  openOwn() {
    if (this.es) this.es.close();
    const q = this.lastId ? "?last_event_id=" + encodeURIComponent(this.lastId) : "";
    const es = new EventSource("/api/events" + q);
    this.es = es;
    es.onopen = () => { this.onStatus(true); this.onOpened(); };
    es.onerror = () => this.onStatus(false);
    for (const type of ["file:created", "file:modified", "file:deleted", "conversation:deleted", "reset", "credential-ended"]) {
      es.addEventListener(type, (e) => this.deliver(type, e.data || "{}", e.lastEventId));
    }
  }
}
