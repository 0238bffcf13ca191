package web

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// metrics holds the web process's metrics. Each Server has its own
// registry so tests can build many servers in one process.
type metrics struct {
	registry   *prometheus.Registry
	requests   *prometheus.HistogramVec
	rejections *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "selah",
			Name:      "http_request_duration_seconds",
			Help:      "HTTP request latency by method, route and status (its _count is the request count).",
			Buckets:   latencyBuckets,
		}, []string{"method", "route", "status"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "selah",
			Name:      "limiter_rejections_total",
			Help:      "Requests refused by the limits, by reason (rate_limited, concurrency_limited, quota_exceeded).",
		}, []string{"reason"}),
	}
	m.registry.MustRegister(m.requests, m.rejections,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observeRequest(method, route string, status int, d time.Duration) {
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Observe(d.Seconds())
}

func (m *metrics) rejected(reason string) { m.rejections.WithLabelValues(reason).Inc() }
