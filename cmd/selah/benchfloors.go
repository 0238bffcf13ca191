package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
)

// The floors: what Postgres and Redis themselves answer on this machine in
// the same run, measured by their own tools, so an endpoint's throughput
// reads as a share of what its dependencies could give.
//
//   - pgbench, a custom script of SELECT 1 (prepared, as pgx sends it),
//     floorClients clients, floorDuration long;
//   - redis-benchmark on the script every authenticated request runs
//     (limits.Engine.AdmitCommand: per-minute limit, concurrency slot and
//     quota read), floorClients clients.
const (
	floorClients  = 32
	floorDuration = 10 * time.Second
	// floorAccount is the account id whose limit keys redis-benchmark
	// hammers: ids start at 1, so no real account shares them.
	floorAccount = 0
	// goalConcurrency, goalShare and goalP99 are issue 17's goal for
	// /scripture: at 32 connections, 0.30 of the pgbench floor with a p99
	// under 20 ms.
	goalConcurrency = 32
	goalShare       = 0.30
	goalP99         = 20 * time.Millisecond
)

// floors are the measured floors.
type floors struct {
	pgTPS        float64
	pgLatency    time.Duration // average
	redisOps     float64
	redisP50     time.Duration
	redisP99     time.Duration
	redisCommand string // the command's name and key count, for the table
}

func measureFloors(ctx context.Context, cfg *config, st *store.Store) (*floors, error) {
	f := &floors{}
	if err := pgbenchFloor(ctx, cfg.DatabaseURL, f); err != nil {
		return nil, err
	}
	if err := redisFloor(ctx, cfg, st, f); err != nil {
		return nil, err
	}
	return f, nil
}

var (
	pgbenchTPS     = regexp.MustCompile(`(?m)^tps = ([0-9.]+)`)
	pgbenchLatency = regexp.MustCompile(`(?m)^latency average = ([0-9.]+) ms`)
)

func pgbenchFloor(ctx context.Context, dbURL string, f *floors) error {
	dir, err := os.MkdirTemp("", "selah-pgbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "select1.sql")
	if err := os.WriteFile(script, []byte("SELECT 1;\n"), 0o600); err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, "pgbench", "--no-vacuum", "--protocol=prepared",
		"--client="+strconv.Itoa(floorClients), "--jobs=2", "--time="+strconv.Itoa(int(floorDuration.Seconds())),
		"--file="+script, dbURL).CombinedOutput()
	if err != nil {
		return fmt.Errorf("bench: pgbench (postgresql-contrib; deploy/setup.sh installs it): %w\n%s", err, out)
	}
	m := pgbenchTPS.FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("bench: no tps in pgbench's output:\n%s", out)
	}
	f.pgTPS, _ = strconv.ParseFloat(string(m[1]), 64)
	if m := pgbenchLatency.FindSubmatch(out); m != nil {
		ms, _ := strconv.ParseFloat(string(m[1]), 64)
		f.pgLatency = time.Duration(ms * float64(time.Millisecond))
	}
	return nil
}

func redisFloor(ctx context.Context, cfg *config, st *store.Store, f *floors) error {
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return fmt.Errorf("bench: parse REDIS_URL: %w", err)
	}
	rc := redis.NewClient(opt)
	defer rc.Close()
	// Every step taken on every call: a rate and slots no call exhausts.
	l := limits.Limits{RequestsPerMinute: 1 << 30, ConcurrentRequests: 1 << 20, AsksPerDay: 1000, AsksPerMonth: 10000}
	e := limits.New(rc, st, limits.Config{})
	a, err := e.Admit(ctx, floorAccount, l) // loads the script and seeds the quota counters
	if err != nil {
		return fmt.Errorf("bench: admit: %w", err)
	}
	e.ReleaseSlot(ctx, a.Slot)
	cmd := e.AdmitCommand(floorAccount, l)
	nkeys, _ := strconv.Atoi(cmd[2])
	defer rc.Del(context.WithoutCancel(ctx), cmd[3:3+nkeys]...)
	f.redisCommand = fmt.Sprintf("EVALSHA admit (%d keys)", nkeys)

	host, port, _ := strings.Cut(opt.Addr, ":")
	args := []string{"-h", host, "-p", port, "--dbnum", strconv.Itoa(opt.DB), "-c", strconv.Itoa(floorClients),
		"-n", "200000", "--csv"}
	if opt.Password != "" {
		args = append(args, "-a", opt.Password)
		if opt.Username != "" {
			args = append(args, "--user", opt.Username)
		}
	}
	out, err := exec.CommandContext(ctx, "redis-benchmark", append(args, cmd...)...).Output()
	if err != nil {
		return fmt.Errorf("bench: redis-benchmark (redis-tools; deploy/setup.sh installs it): %w\n%s", err, out)
	}
	// "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
	recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 || len(recs[1]) < 7 {
		return fmt.Errorf("bench: unexpected redis-benchmark output %q", out)
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	msOf := func(s string) time.Duration { return time.Duration(num(s) * float64(time.Millisecond)) }
	f.redisOps, f.redisP50, f.redisP99 = num(recs[1][1]), msOf(recs[1][4]), msOf(recs[1][6])
	return nil
}

// writeFloors prints the floors and every HTTP row's throughput as a share
// of each, with its p50 and p99, and whether /scripture meets the goal.
func writeFloors(w io.Writer, f *floors, rows []benchRow, markdown bool) {
	pg := fmt.Sprintf("pgbench SELECT 1, %d clients: %.0f tps (mean %s ms)", floorClients, f.pgTPS, ms(f.pgLatency))
	rd := fmt.Sprintf("redis-benchmark %s, %d clients: %.0f ops/s (p50 %s ms, p99 %s ms)",
		f.redisCommand, floorClients, f.redisOps, ms(f.redisP50), ms(f.redisP99))
	share := func(r benchRow, floor float64) string {
		if floor <= 0 {
			return ""
		}
		return strconv.FormatFloat(r.Throughput/floor, 'f', 3, 64)
	}
	goal := "no /scripture run at 32 connections"
	for _, r := range rows {
		if r.Endpoint == "scripture" && r.Path == "http" && r.Concurrency == goalConcurrency {
			met := "met"
			if r.Throughput/f.pgTPS < goalShare || r.P99 >= goalP99 {
				met = "not met"
			}
			goal = fmt.Sprintf("/scripture at %d connections: %s of the pgbench floor (goal ≥ %.2f), p99 %s ms (goal < %s ms): %s",
				goalConcurrency, share(r, f.pgTPS), goalShare, ms(r.P99), ms(goalP99), met)
		}
	}
	if markdown {
		fmt.Fprintf(w, "\nFloors, same run: %s; %s.\n\n", pg, rd)
		fmt.Fprintln(w, "| endpoint | concurrency | req/s | of pgbench | of redis script | p50 ms | p99 ms | req/s per server core | Redis commands per request (inside scripts too) |")
		fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
		for _, r := range rows {
			if r.Path == "http" {
				fmt.Fprintf(w, "| %s | %d | %.1f | %s | %s | %s | %s | %s | %s |\n", r.Endpoint, r.Concurrency, r.Throughput,
					share(r, f.pgTPS), share(r, f.redisOps), ms(r.P50), ms(r.P99), r.Cost.perCore(), r.Cost.redisPerRequest())
			}
		}
		fmt.Fprintf(w, "\nGoal: %s.\n", goal)
		return
	}
	fmt.Fprintf(w, "\nfloors (same run)\n  %s\n  %s\n", pg, rd)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tconc\treq/s\tof pgbench\tof redis script\tp50 ms\tp99 ms\treq/s per server core\tRedis cmds/req\t")
	for _, r := range rows {
		if r.Path == "http" {
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Endpoint, r.Concurrency, r.Throughput,
				share(r, f.pgTPS), share(r, f.redisOps), ms(r.P50), ms(r.P99), r.Cost.perCore(), r.Cost.redisPerRequest())
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "goal: %s\n", goal)
}

// runCost is what one run cost: the server process's CPU time and the
// commands Redis processed, per request. Redis counts the commands a
// script runs as well as the script, and those of every client: the
// workers' polling of the queues is included.
type runCost struct {
	cpu, redisCommands float64 // totals when read; per request after until
	ok                 bool
}

// readCost reads the counters now; with no pid it reads nothing.
func readCost(ctx context.Context, cfg *config, pid int) runCost {
	if pid <= 0 {
		return runCost{}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return runCost{}
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are the 12th and 13th (clock ticks, 100 a second on Linux).
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return runCost{}
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	c := runCost{cpu: (ut + st) / 100, ok: true}
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return runCost{}
	}
	rc := redis.NewClient(opt)
	defer rc.Close()
	info, err := rc.Info(ctx, "stats").Result()
	if err != nil {
		return runCost{}
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_commands_processed:"); ok {
			c.redisCommands, _ = strconv.ParseFloat(v, 64)
		}
	}
	return c
}

// until turns the counters read before a run of n requests into its cost
// per request, or nil when they could not be read.
func (c runCost) until(ctx context.Context, cfg *config, pid, n int) *runCost {
	after := readCost(ctx, cfg, pid)
	if !c.ok || !after.ok || n == 0 {
		return nil
	}
	// The readings add a handful of commands (a connection's HELLO, INFO),
	// nothing next to a run's thousands.
	return &runCost{cpu: (after.cpu - c.cpu) / float64(n), redisCommands: (after.redisCommands - c.redisCommands) / float64(n), ok: true}
}

// perCore is requests per second of one core of the server's CPU.
func (c *runCost) perCore() string {
	if c == nil || c.cpu <= 0 {
		return ""
	}
	return strconv.FormatFloat(1/c.cpu, 'f', 0, 64)
}

func (c *runCost) redisPerRequest() string {
	if c == nil {
		return ""
	}
	return strconv.FormatFloat(c.redisCommands, 'f', 1, 64)
}
