// Package metrics counts what the server does, for /metrics in the
// Prometheus text format: requests and their latencies, script runs, limits
// hit, bytes stored and file events. Every method is safe on a nil
// *Metrics, which counts nothing, so the doors never check.
//
// It must never import a door, the engine or a storage implementation.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"convfiles/files"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one server's counters, on a registry of their own.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	runs     *prometheus.CounterVec
	limits   *prometheus.CounterVec
	events   *prometheus.CounterVec
	written  prometheus.Counter
	// byRequest keeps each (route, method, code)'s series, so that a
	// request costs a map look-up, not a hash of its labels. Routes are
	// templates and methods are mapped to a few, so it stays small.
	byRequest sync.Map // requestKey → requestSeries
}

// requestKey names one request series.
type requestKey struct {
	route, method string
	code          int
}

// requestSeries is a request series' counter and latency histogram.
type requestSeries struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// New returns the server's metrics, with the Go runtime's and the
// process's. stored, when not nil, is asked for the bytes stored at each
// scrape.
func New(stored func() (int64, error)) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "convfiles_http_requests_total",
		Help: "HTTP requests answered, by route, method and status code."}, []string{"route", "method", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "convfiles_http_request_duration_seconds",
		Help: "Time to answer an HTTP request, by route and method.", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10)},
		[]string{"route", "method"})
	m.runs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "convfiles_script_runs_total",
		Help: "Script runs finished, by outcome: ok, or the error type (TimeoutError, LimitError...)."}, []string{"outcome"})
	m.limits = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "convfiles_limits_hit_total",
		Help: "Requests refused by a limit: rate, size, storage, streams."}, []string{"limit"})
	m.events = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "convfiles_file_events_total",
		Help: "File events published, by type."}, []string{"type"})
	m.written = prometheus.NewCounter(prometheus.CounterOpts{Name: "convfiles_bytes_written_total",
		Help: "Bytes of files created or modified."})
	m.reg.MustRegister(m.requests, m.latency, m.runs, m.limits, m.events, m.written,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if stored != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "convfiles_stored_bytes",
			Help: "Bytes stored in every conversation, kept versions included."}, func() float64 {
			n, err := stored()
			if err != nil {
				return -1
			}
			return float64(n)
		}))
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{MaxRequestsInFlight: 4})
}

// Request counts one answered request. route is the route's template,
// never its path, so that labels stay few.
func (m *Metrics) Request(route, method string, code int, took time.Duration) {
	if m == nil {
		return
	}
	k := requestKey{route, methodLabel(method), code}
	rs, ok := m.byRequest.Load(k)
	if !ok {
		rs, _ = m.byRequest.LoadOrStore(k, requestSeries{
			count:   m.requests.WithLabelValues(k.route, k.method, strconv.Itoa(code)),
			latency: m.latency.WithLabelValues(k.route, k.method),
		})
	}
	rs.(requestSeries).count.Inc()
	rs.(requestSeries).latency.Observe(took.Seconds())
	switch code {
	case http.StatusTooManyRequests:
		m.LimitHit("rate")
	case http.StatusRequestEntityTooLarge:
		m.LimitHit("size")
	case http.StatusInsufficientStorage:
		m.LimitHit("storage")
	}
}

// methodLabel is the label of a request's method: one of HTTP's own, or
// OTHER. A client chooses the method, and a label per method it makes up
// would let it grow the server's series without bound.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// Run counts a finished script run; outcome is "ok" or its error type.
func (m *Metrics) Run(outcome string) {
	if m == nil {
		return
	}
	m.runs.WithLabelValues(outcome).Inc()
	if outcome == "LimitError" || outcome == "TimeoutError" {
		m.LimitHit(outcome)
	}
}

// LimitHit counts a refusal by a limit.
func (m *Metrics) LimitHit(limit string) {
	if m == nil {
		return
	}
	m.limits.WithLabelValues(limit).Inc()
}

// Follow counts the bus's events until ctx ends.
func (m *Metrics) Follow(ctx context.Context, bus *files.Bus) {
	if m == nil || bus == nil {
		return
	}
	sub := bus.Subscribe(1024)
	go func() {
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-sub.C:
				if !ok {
					return
				}
				m.events.WithLabelValues(string(ev.Type)).Inc()
				if ev.Type == files.FileCreated || ev.Type == files.FileModified {
					m.written.Add(float64(ev.Size))
				}
			}
		}
	}()
}
