package worker

import (
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the worker's Prometheus metrics. They live in their own
// registry so that tests can build many workers in one process and
// `selah serve` can gather the web's and the worker's together.
type Metrics struct {
	Registry  *prometheus.Registry
	queueWait *prometheus.HistogramVec
	duration  *prometheus.HistogramVec
	stage     *prometheus.HistogramVec
	failures  *prometheus.CounterVec
}

var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// NewMetrics registers the worker's metrics and, when insp is not nil, a
// collector of the Asynq queues' sizes.
func NewMetrics(insp *asynq.Inspector, queues []string, log *slog.Logger) *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		queueWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "selah", Subsystem: "job", Name: "queue_wait_seconds",
			Help:    "Time from enqueue until a worker starts the job, by job type.",
			Buckets: latencyBuckets,
		}, []string{"type"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "selah", Subsystem: "job", Name: "duration_seconds",
			Help:    "Time a worker spends on a job, by job type and outcome (ok or the error code).",
			Buckets: latencyBuckets,
		}, []string{"type", "outcome"}),
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "selah", Subsystem: "pipeline", Name: "stage_seconds",
			Help:    "Latency of pipeline stages (embed, retrieve, generate) by stage and implementation.",
			Buckets: latencyBuckets,
		}, []string{"stage", "impl"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "selah", Subsystem: "pipeline", Name: "failures_total",
			Help: "Pipeline stage failures (embedder or generator errors, generator fallbacks) by stage and implementation.",
		}, []string{"stage", "impl"}),
	}
	m.Registry.MustRegister(m.queueWait, m.duration, m.stage, m.failures)
	if insp != nil {
		m.Registry.MustRegister(&queueCollector{insp: insp, queues: queues, log: log})
	}
	return m
}

// ObserveStage records how long a pipeline stage took; failed counts it
// as a failure too.
func (m *Metrics) ObserveStage(stage, impl string, d time.Duration, failed bool) {
	if m == nil {
		return
	}
	m.stage.WithLabelValues(stage, impl).Observe(d.Seconds())
	if failed {
		m.failures.WithLabelValues(stage, impl).Inc()
	}
}

// queueCollector reports the Asynq queues' sizes at scrape time: one Redis
// round trip per queue, only when Prometheus asks.
type queueCollector struct {
	insp   *asynq.Inspector
	queues []string
	log    *slog.Logger
}

var queueSizeDesc = prometheus.NewDesc("selah_queue_tasks", "Tasks in an Asynq queue by state.", []string{"queue", "state"}, nil)
var queueLatencyDesc = prometheus.NewDesc("selah_queue_latency_seconds", "Age of the oldest pending task in an Asynq queue.", []string{"queue"}, nil)

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- queueSizeDesc
	ch <- queueLatencyDesc
}

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	for _, q := range c.queues {
		info, err := c.insp.GetQueueInfo(q)
		if err != nil {
			// A queue nobody has used yet does not exist in Redis.
			continue
		}
		for state, n := range map[string]int{"pending": info.Pending, "active": info.Active,
			"scheduled": info.Scheduled, "retry": info.Retry, "archived": info.Archived, "completed": info.Completed} {
			ch <- prometheus.MustNewConstMetric(queueSizeDesc, prometheus.GaugeValue, float64(n), q, state)
		}
		ch <- prometheus.MustNewConstMetric(queueLatencyDesc, prometheus.GaugeValue, info.Latency.Seconds(), q)
	}
}
