package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/client"
)

// benchAccount is the account selah bench makes its temporary key on; it
// is on the internal plan, whose limits are high enough for load.
const benchAccount = "bench@selah.local"

// benchQueries are what the search and ask runs send, in turn: quotes,
// paraphrases and questions, as real traffic mixes them.
var benchQueries = []string{
	"For God so loved the world", "do not worry about tomorrow", "love is patient and kind",
	"How can I stop worrying?", "What does the Bible say about forgiving others?", "the Lord is my shepherd",
	"Is it wrong to be angry?", "be strong and courageous", "faith without works is dead", "How should I pray?",
}

var benchRefs = []string{"John 3:16", "Psalms 23", "Romans 8:28-39", "Genesis 1", "Matthew 5:3-12", "1 Corinthians 13"}

type benchOpts struct {
	apiURL      string
	endpoints   []string
	concurrency []int
	requests    int
	duration    time.Duration
	markdown    string
	inProcess   bool
	floors      bool // also measure pgbench and redis-benchmark, see benchfloors.go
	scaleOut    bool // the 2 web × 2 worker run instead, see benchscale.go
	serverPID   int  // the loaded server's process, whose CPU time is measured
}

func newBenchCmd(cfg *config) *cobra.Command {
	o := benchOpts{}
	cmd := &cobra.Command{
		Use:   "bench [--endpoints scripture,search,ask] [--concurrency 1,16] [--requests 300] [--duration 20s]",
		Short: "Load a local selah over HTTP and print throughput and latency percentiles",
		Long: `bench sends bounded load to a selah on this machine (loopback only), as wrk
would (kept-alive connections, bodies not decoded): each endpoint at each concurrency, until --requests are done or
--duration has passed. It prints throughput and p50/p95/p99 latency. For
search and ask it also runs the same retrieval and answering in-process
(straight against the database, no HTTP, no queue) and prints the ratio, which
is what the queue and the web layer cost.

It uses a temporary key of the account ` + benchAccount + ` (internal plan),
revoked when it ends, so it needs DATABASE_URL like the server.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd.Context(), cfg, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.apiURL, "api-url", "", "base URL of the server (loopback only; default http://127.0.0.1:$PORT)")
	cfg.bindPort(cmd)
	f.StringSliceVar(&o.endpoints, "endpoints", []string{"scripture", "search", "ask"}, "endpoints to load")
	f.IntSliceVar(&o.concurrency, "concurrency", []int{1, 16}, "concurrent clients, one run each")
	f.IntVar(&o.requests, "requests", 300, "requests per run at most")
	f.DurationVar(&o.duration, "duration", 20*time.Second, "time per run at most")
	f.StringVar(&o.markdown, "markdown", "", "also write the results as a markdown table to this file")
	f.BoolVar(&o.inProcess, "in-process", true, "also run search and ask in-process for the ratio")
	f.BoolVar(&o.floors, "floors", false, "also measure the floors (pgbench SELECT 1, redis-benchmark on the limit script) and print each endpoint's share")
	f.IntVar(&o.serverPID, "server-pid", 0, "process id of the server on --api-url (this machine): its CPU time and Redis's commands per request are measured")
	f.BoolVar(&o.scaleOut, "scale-out", false, "start 2 web and 2 worker processes and measure limits and throughput with 1 and 2 workers")
	return cmd
}

// benchRow is one run's outcome.
type benchRow struct {
	Endpoint    string
	Path        string // "http" or "in-process"
	Concurrency int
	Requests    int
	Errors      int
	Throughput  float64 // requests per second
	P50, P95    time.Duration
	P99         time.Duration
	Ratio       float64 // http p50 / in-process p50, on http rows of search and ask
	// Cost is what the server process and Redis spent on an http row,
	// with --server-pid (benchfloors.go).
	Cost *runCost
}

func runBench(ctx context.Context, cfg *config, o benchOpts, out io.Writer) error {
	cfg.logger()
	if o.apiURL == "" {
		o.apiURL = fmt.Sprintf("http://127.0.0.1:%d", cfg.Port)
	}
	if err := loopbackOnly(o.apiURL); err != nil {
		return err
	}
	if o.requests < 1 || o.duration <= 0 || len(o.concurrency) == 0 {
		return fmt.Errorf("bench: --requests, --duration and --concurrency must be positive")
	}
	st, err := cfg.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if o.scaleOut {
		return runScaleOut(ctx, cfg, st, o, out)
	}
	key, keyID, err := benchKey(ctx, st)
	if err != nil {
		return err
	}
	defer st.RevokeKey(context.WithoutCancel(ctx), keyID)
	c, err := client.New(o.apiURL, key)
	if err != nil {
		return err
	}
	if _, err := c.Health(ctx); err != nil {
		return fmt.Errorf("bench: %s does not answer: %w", o.apiURL, err)
	}
	var fl *floors
	if o.floors {
		if fl, err = measureFloors(ctx, cfg, st); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, "bench: floors done")
	}
	var inproc *inProcess
	if o.inProcess {
		if inproc, err = newInProcess(ctx, st); err != nil {
			return err
		}
	}

	lc := newLoadClient(o.apiURL, key, maxConcurrency(o.concurrency))
	defer lc.close()
	var rows []benchRow
	for _, ep := range o.endpoints {
		call, err := lc.call(ep)
		if err != nil {
			return err
		}
		for _, n := range o.concurrency {
			before := readCost(ctx, cfg, o.serverPID)
			row := measure(ctx, ep, "http", n, o, call)
			row.Cost = before.until(ctx, cfg, o.serverPID, row.Requests)
			if inproc != nil && (ep == "search" || ep == "ask") {
				local := measure(ctx, ep, "in-process", n, o, inproc.call(ep))
				if local.P50 > 0 {
					row.Ratio = float64(row.P50) / float64(local.P50)
				}
				rows = append(rows, row, local)
			} else {
				rows = append(rows, row)
			}
			fmt.Fprintf(os.Stderr, "bench: %s at %d done\n", ep, n)
		}
	}
	writeBenchTable(out, rows)
	if fl != nil {
		writeFloors(out, fl, rows, false)
	}
	if o.markdown != "" {
		f, err := os.Create(o.markdown)
		if err != nil {
			return err
		}
		defer f.Close()
		writeBenchMarkdown(f, rows)
		if fl != nil {
			writeFloors(f, fl, rows, true)
		}
	}
	return nil
}

// loopbackOnly refuses to load anything but this machine.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return fmt.Errorf("bench: --api-url %q is not a URL", raw)
	}
	if u.Hostname() == "localhost" {
		return nil
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("bench: %s is not a loopback address; selah bench only loads this machine", u.Hostname())
}

// benchKey makes a fresh key of the bench account, creating the account on
// the internal plan the first time.
func benchKey(ctx context.Context, st *store.Store) (key, id string, err error) {
	a, err := st.AccountByEmail(ctx, benchAccount)
	if errors.Is(err, selah.ErrNotFound) {
		a, err = st.CreateAccount(ctx, benchAccount, "", store.PlanInternal, false)
	}
	if err != nil {
		return "", "", err
	}
	key, k, err := st.CreateKey(ctx, a.ID, "bench", false, nil)
	return key, k.ID, err
}

func httpCall(c *client.Client, endpoint string) (func(ctx context.Context, i int) error, error) {
	switch endpoint {
	case "scripture":
		return func(ctx context.Context, i int) error {
			_, err := c.Scripture(ctx, benchRefs[i%len(benchRefs)])
			return err
		}, nil
	case "search":
		return func(ctx context.Context, i int) error {
			_, err := c.Search(ctx, client.SearchRequest{Query: benchQueries[i%len(benchQueries)], Limit: 10})
			return err
		}, nil
	case "ask":
		return func(ctx context.Context, i int) error {
			_, err := c.Ask(ctx, client.AskRequest{Question: benchQueries[i%len(benchQueries)], MaxReferences: 5})
			return err
		}, nil
	}
	return nil, fmt.Errorf("bench: unknown endpoint %q (scripture, search or ask)", endpoint)
}

// inProcess runs retrieval and answering as a worker does, but called
// directly: the baseline the queue is measured against.
type inProcess struct {
	r *pipeline.Retriever
	a *pipeline.Answerer
}

func newInProcess(ctx context.Context, st *store.Store) (*inProcess, error) {
	r, err := newRetriever(ctx, st)
	if err != nil {
		return nil, err
	}
	// Verse text from memory, as the worker reads it.
	if _, err := st.LoadPassages(ctx); err != nil {
		return nil, err
	}
	a := pipeline.NewAnswerer(st, r, nil)
	return &inProcess{r: r, a: a}, nil
}

func (p *inProcess) call(endpoint string) func(ctx context.Context, i int) error {
	if endpoint == "ask" {
		return func(ctx context.Context, i int) error {
			_, err := p.a.Answer(ctx, benchQueries[i%len(benchQueries)], 5, pipeline.AnswerOptions{Extractive: true})
			return err
		}
	}
	return func(ctx context.Context, i int) error {
		_, err := p.r.Search(ctx, benchQueries[i%len(benchQueries)], 10)
		return err
	}
}

// measure runs call from n goroutines until o.requests calls are made or
// o.duration has passed, after a short warm-up.
func measure(ctx context.Context, endpoint, path string, n int, o benchOpts, call func(context.Context, int) error) benchRow {
	for i := range min(n, 4) {
		call(ctx, i)
	}
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var next, errs atomic.Int64
	var mu sync.Mutex
	lat := make([]time.Duration, 0, o.requests)
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				i := int(next.Add(1))
				if i > o.requests || ctx.Err() != nil {
					return
				}
				t0 := time.Now()
				err := call(ctx, i)
				d := time.Since(t0)
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					errs.Add(1)
					continue
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	row := benchRow{Endpoint: endpoint, Path: path, Concurrency: n, Requests: len(lat), Errors: int(errs.Load()),
		Throughput: float64(len(lat)) / elapsed.Seconds()}
	row.P50, row.P95, row.P99 = percentile(lat, 50), percentile(lat, 95), percentile(lat, 99)
	return row
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (p*len(sorted)+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64)
}

func ratio(r benchRow) string {
	if r.Ratio == 0 {
		return ""
	}
	return strconv.FormatFloat(r.Ratio, 'f', 2, 64) + "×"
}

func writeBenchTable(w io.Writer, rows []benchRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tpath\tconc\trequests\terrors\treq/s\tp50 ms\tp95 ms\tp99 ms\tqueue/in-process p50\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\t\n", r.Endpoint, r.Path, r.Concurrency, r.Requests,
			r.Errors, r.Throughput, ms(r.P50), ms(r.P95), ms(r.P99), ratio(r))
	}
	tw.Flush()
}

func writeBenchMarkdown(w io.Writer, rows []benchRow) {
	host, _ := os.Hostname()
	fmt.Fprintf(w, "selah bench on %s, %s\n\n", host, time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintln(w, "| endpoint | path | concurrency | requests | errors | req/s | p50 ms | p95 ms | p99 ms | queue/in-process p50 |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %.1f | %s | %s | %s | %s |\n", r.Endpoint, r.Path, r.Concurrency,
			r.Requests, r.Errors, r.Throughput, ms(r.P50), ms(r.P95), ms(r.P99), strings.TrimSpace(ratio(r)))
	}
}
