package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/client"
)

// The scale-out run (selah bench --scale-out): two `selah web` and, in
// turn, one and two `selah worker` processes of this binary, on the
// configured Postgres and Redis, as separate processes on loopback ports.
// It checks that the limits stay exact with requests spread across the two
// web processes, then loads /search and /ask through both web processes
// with one worker and with two.

// benchProc is a selah process the scale-out run started.
type benchProc struct {
	name string
	cmd  *exec.Cmd
	log  *os.File
}

func startBenchProc(name string, env []string, args ...string) (*benchProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	log, err := os.CreateTemp("", "selah-bench-"+name+"-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), append([]string{"LOG_LEVEL=warn", "LOG_FORMAT=text", "DRAIN_DELAY=0s"}, env...)...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		os.Remove(log.Name())
		return nil, fmt.Errorf("bench: start %s: %w", name, err)
	}
	return &benchProc{name: name, cmd: cmd, log: log}, nil
}

// stop ends the process (SIGTERM, then SIGKILL after 10 s) and removes its
// log, printing it to stderr first when failed.
func (p *benchProc) stop(failed bool) {
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	if failed {
		p.log.Seek(0, io.SeekStart)
		fmt.Fprintf(os.Stderr, "--- log of %s ---\n", p.name)
		io.Copy(os.Stderr, p.log)
	}
	p.log.Close()
	os.Remove(p.log.Name())
}

func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitReady polls url until it answers 200, for at most 60 s.
func waitReady(ctx context.Context, url string) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("bench: %s did not become ready", url)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// scaleRow is one load run of the scale-out run.
type scaleRow struct {
	benchRow
	Workers int
}

func runScaleOut(ctx context.Context, cfg *config, st *store.Store, o benchOpts, out io.Writer) (err error) {
	var procs []*benchProc
	defer func() {
		for _, p := range procs {
			p.stop(err != nil)
		}
	}()
	start := func(name, metricsAddr string, env []string, args ...string) error {
		p, err := startBenchProc(name, append(env, "METRICS_ADDR="+metricsAddr), args...)
		if err != nil {
			return err
		}
		procs = append(procs, p)
		return nil
	}
	startWorker := func(name string) error {
		addr, err := freeLoopbackAddr()
		if err != nil {
			return err
		}
		if err := start(name, addr, nil, "worker"); err != nil {
			return err
		}
		return waitReady(ctx, "http://"+addr+"/readyz")
	}

	var webs []string
	for i := range 2 {
		addr, err := freeLoopbackAddr()
		if err != nil {
			return err
		}
		metrics, err := freeLoopbackAddr()
		if err != nil {
			return err
		}
		if err := start(fmt.Sprintf("web%d", i+1), metrics, []string{"ADDR=" + addr}, "web"); err != nil {
			return err
		}
		webs = append(webs, "http://"+addr)
	}
	if err := startWorker("worker1"); err != nil {
		return err
	}
	for _, w := range webs {
		if err := waitReady(ctx, w+"/readyz"); err != nil {
			return err
		}
	}

	checks, err := checkLimitsExact(ctx, st, webs)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "bench: limits checked")

	key, keyID, err := benchKey(ctx, st)
	if err != nil {
		return err
	}
	defer st.RevokeKey(context.WithoutCancel(ctx), keyID)
	var clients []*client.Client
	for _, w := range webs {
		c, err := client.New(w, key)
		if err != nil {
			return err
		}
		clients = append(clients, c)
	}
	var rows []scaleRow
	for workers := 1; workers <= 2; workers++ {
		if workers == 2 {
			if err := startWorker("worker2"); err != nil {
				return err
			}
		}
		for _, ep := range []string{"search", "ask"} {
			var calls []func(context.Context, int) error
			for _, c := range clients {
				call, err := httpCall(c, ep)
				if err != nil {
					return err
				}
				calls = append(calls, call)
			}
			spread := func(ctx context.Context, i int) error { return calls[i%len(calls)](ctx, i) }
			for _, n := range o.concurrency {
				rows = append(rows, scaleRow{benchRow: measure(ctx, ep, "http", n, o, spread), Workers: workers})
				fmt.Fprintf(os.Stderr, "bench: scale-out %s at %d with %d workers done\n", ep, n, workers)
			}
		}
	}
	writeScaleOut(out, checks, rows, false)
	if o.markdown != "" {
		f, err := os.OpenFile(o.markdown, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		writeScaleOut(f, checks, rows, true)
	}
	for _, c := range checks {
		if !c.exact {
			return errors.New("bench: a limit was not exact across the web processes")
		}
	}
	return nil
}

// limitCheck is the outcome of one exactness check.
type limitCheck struct {
	what  string
	exact bool
}

// checkLimitsExact sends parallel requests spread over the web processes
// and checks the outcomes are exactly what the limits allow: the free
// plan's per-minute limit, and a developer account's daily Ask quota with
// three Asks left (the rest recorded in Postgres, as earlier Asks would
// be). Its accounts are new and disabled afterwards.
func checkLimitsExact(ctx context.Context, st *store.Store, webs []string) ([]limitCheck, error) {
	plans, err := st.Plans(ctx)
	if err != nil {
		return nil, err
	}
	planOf := map[string]store.Plan{}
	for _, p := range plans {
		planOf[p.Name] = p
	}
	suffix := strings.ToLower(rand.Text()[:12])
	account := func(name, plan string) (int64, []*client.Client, error) {
		email := fmt.Sprintf("bench-%s-%s@selah.local", name, suffix)
		a, err := st.CreateAccount(ctx, email, "", plan, false)
		if err != nil {
			return 0, nil, err
		}
		key, _, err := st.CreateKey(ctx, a.ID, "bench limits", false, nil)
		if err != nil {
			return 0, nil, err
		}
		var cs []*client.Client
		for _, w := range webs {
			c, err := client.New(w, key)
			if err != nil {
				return 0, nil, err
			}
			cs = append(cs, c)
		}
		return a.ID, cs, nil
	}
	disable := func(name string) {
		st.DisableAccount(context.WithoutCancel(ctx), fmt.Sprintf("bench-%s-%s@selah.local", name, suffix))
	}
	// codes runs n calls at once, spread over the web processes, and
	// counts the outcomes by error code ("ok" for success).
	codes := func(n int, call func(c *client.Client, i int) error, cs []*client.Client, into map[string]int) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				code := "ok"
				if err := call(cs[i%len(cs)], i); err != nil {
					code = err.Error()
					var ae *client.Error
					if errors.As(err, &ae) && ae.Code != "" {
						code = ae.Code
					}
				}
				mu.Lock()
				into[code]++
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	var checks []limitCheck

	free := planOf[store.PlanFree]
	_, cs, err := account("rate", store.PlanFree)
	if err != nil {
		return nil, err
	}
	defer disable("rate")
	extra := 4 * free.RequestsPerMinute
	got := map[string]int{}
	began := time.Now()
	codes(free.RequestsPerMinute+extra, func(c *client.Client, i int) error {
		_, err := c.Scripture(ctx, benchRefs[i%len(benchRefs)])
		return err
	}, cs, got)
	// The GCRA refills one request every 60/N s: a burst that took longer
	// than that may rightly have let one more through.
	refill := int(time.Since(began) / (time.Minute / time.Duration(free.RequestsPerMinute)))
	passed := got["ok"] + got["concurrency_limited"]
	exact := got["rate_limited"]+passed == free.RequestsPerMinute+extra && passed >= free.RequestsPerMinute &&
		passed <= free.RequestsPerMinute+refill
	checks = append(checks, limitCheck{exact: exact, what: fmt.Sprintf(
		"per-minute limit (free plan, %d/min, %d in flight): %d parallel /scripture over %d web processes: %d passed it (%d served, %d concurrency_limited), %d rate_limited, %s",
		free.RequestsPerMinute, free.ConcurrentRequests, free.RequestsPerMinute+extra, len(webs), passed, got["ok"],
		got["concurrency_limited"], got["rate_limited"], others(got, "ok", "concurrency_limited", "rate_limited"))})

	dev := planOf[store.PlanDeveloper]
	const left = 3
	id, cs, err := account("quota", store.PlanDeveloper)
	if err != nil {
		return nil, err
	}
	defer disable("quota")
	now := time.Now()
	for i := range dev.AsksPerDay - left {
		if err := st.RecordAsk(ctx, fmt.Sprintf("ask_bench%s%04d", suffix, i), id, now); err != nil {
			return nil, err
		}
	}
	got = map[string]int{}
	waves := 3
	for range waves {
		// A wave is as many Asks as the plan lets run at once, so none is
		// refused for concurrency.
		codes(dev.ConcurrentRequests, func(c *client.Client, i int) error {
			_, err := c.Ask(ctx, client.AskRequest{Question: benchQueries[i%len(benchQueries)], MaxReferences: 3})
			return err
		}, cs, got)
	}
	sent := waves * dev.ConcurrentRequests
	checks = append(checks, limitCheck{exact: got["ok"] == left && got["quota_exceeded"] == sent-left, what: fmt.Sprintf(
		"daily Ask quota (developer plan, %d a day, %d left): %d /ask in waves of %d over %d web processes: %d answered, %d quota_exceeded, %s",
		dev.AsksPerDay, left, sent, dev.ConcurrentRequests, len(webs), got["ok"], got["quota_exceeded"],
		others(got, "ok", "quota_exceeded"))})
	return checks, nil
}

// others names the outcomes of counts other than skip, or says there were
// none.
func others(counts map[string]int, skip ...string) string {
	var out []string
	for k, v := range counts {
		if !slices.Contains(skip, k) {
			out = append(out, fmt.Sprintf("%d %s", v, k))
		}
	}
	if len(out) == 0 {
		return "nothing else"
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

func writeScaleOut(w io.Writer, checks []limitCheck, rows []scaleRow, markdown bool) {
	verdict := func(c limitCheck) string {
		if c.exact {
			return "exact"
		}
		return "NOT EXACT"
	}
	if markdown {
		fmt.Fprintf(w, "\nScale-out: 2 `selah web` and 1, then 2, `selah worker` processes, one Postgres, one Redis.\n\n")
		for _, c := range checks {
			fmt.Fprintf(w, "- %s: **%s**\n", c.what, verdict(c))
		}
		fmt.Fprintln(w, "\n| endpoint | workers | concurrency | requests | errors | req/s | p50 ms | p99 ms |")
		fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|")
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %.1f | %s | %s |\n", r.Endpoint, r.Workers, r.Concurrency, r.Requests,
				r.Errors, r.Throughput, ms(r.P50), ms(r.P99))
		}
		return
	}
	fmt.Fprintln(w, "scale-out: 2 web processes, 1 then 2 workers, one Postgres, one Redis")
	for _, c := range checks {
		fmt.Fprintf(w, "  %s: %s\n", c.what, verdict(c))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tworkers\tconc\trequests\terrors\treq/s\tp50 ms\tp99 ms\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f\t%s\t%s\t\n", r.Endpoint, r.Workers, r.Concurrency, r.Requests, r.Errors,
			r.Throughput, ms(r.P50), ms(r.P99))
	}
	tw.Flush()
}
