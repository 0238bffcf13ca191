package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestWebRefusesUnsafeSettings (issue 14, defects 2, 6 and 10): a malformed
// TRUSTED_PROXIES, production without PUBLIC_URL (canonical links would
// follow request headers) or without SMTP_URL, or a bad SMTP_URL or
// MAIL_FROM stops `selah web` at start with a message naming the variable,
// before it touches any database.
func TestWebRefusesUnsafeSettings(t *testing.T) {
	t.Parallel()
	bin := selahBinary(t)
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"TRUSTED_PROXIES=10.0.0.0/8,not-a-cidr"}, "TRUSTED_PROXIES"},
		{[]string{"TRUSTED_PROXIES=10.0.0.0/33"}, "TRUSTED_PROXIES"},
		{[]string{"SELAH_ENV=production", "PUBLIC_URL="}, "PUBLIC_URL"},
		// Issue 14, defect 6: verification links go by e-mail in
		// production, never to the log; a bad SMTP_URL is named without
		// repeating its password.
		{[]string{"SELAH_ENV=production", "PUBLIC_URL=https://selah.example"}, "requires SMTP_URL"},
		{[]string{"SMTP_URL=smtp://mailer:s3cret@mail.example:587"}, "requires MAIL_FROM"},
		{[]string{"SMTP_URL=http://mailer:s3cret@mail.example", "MAIL_FROM=no-reply@selah.example"}, "SMTP_URL: the scheme"},
		{[]string{"SMTP_URL=smtp://mailer:s3cret@mail.example:99999", "MAIL_FROM=no-reply@selah.example"}, "SMTP_URL: the port"},
		{[]string{"SMTP_URL=smtp://mailer:s3cret@mail.example", "MAIL_FROM=nobody"}, "MAIL_FROM"},
		// A complete production configuration passes the checks and
		// fails only at the database.
		{[]string{"SELAH_ENV=production", "PUBLIC_URL=https://selah.example",
			"SMTP_URL=smtps://mailer:s3cret@mail.example", "MAIL_FROM=selah <no-reply@selah.example>"}, "PostgreSQL"},
	} {
		cmd := exec.Command(bin, "web")
		cmd.Env = append(tc.env, "DATABASE_URL=postgres://127.0.0.1:1/none", "REDIS_URL=redis://127.0.0.1:1/0", "ADDR="+freeAddr(t))
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Fatalf("%v: err %v, output %s; want a failure naming %s", tc.env, err, out, tc.want)
		}
		if strings.Contains(string(out), "s3cret") {
			t.Fatalf("%v: the output repeats the SMTP password: %s", tc.env, out)
		}
	}
}

// TestMetricsAddrRefused (issue 14, defect 16): every serving command
// refuses a METRICS_ADDR that is not host:port with a numeric port, at
// start, naming the variable, rather than serving its metrics on a port
// no scraper knows.
func TestMetricsAddrRefused(t *testing.T) {
	t.Parallel()
	bin := selahBinary(t)
	for _, command := range []string{"web", "worker", "serve"} {
		for _, addr := range []string{"9090", "127.0.0.1:metrics", "127.0.0.1:70000", "localhost"} {
			cmd := exec.Command(bin, command)
			cmd.Env = []string{"METRICS_ADDR=" + addr, "DATABASE_URL=postgres://127.0.0.1:1/none", "REDIS_URL=redis://127.0.0.1:1/0", "ADDR=" + freeAddr(t)}
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), "METRICS_ADDR") {
				t.Errorf("%s with METRICS_ADDR=%s: err %v, output %s; want a failure naming METRICS_ADDR", command, addr, err, out)
			}
		}
	}
}

// TestMetricsAddrDefaults: web (and serve, which holds a web) and worker
// default to different loopback ports, so the Procfile's web and worker
// can run side by side on one machine.
func TestMetricsAddrDefaults(t *testing.T) {
	def := func(cmd *cobra.Command) string {
		f := cmd.Flags().Lookup("metrics-addr")
		if f == nil {
			t.Fatalf("selah %s has no --metrics-addr", cmd.Name())
		}
		return f.DefValue
	}
	web, worker, serve := def(newWebCmd(&config{})), def(newWorkerCmd(&config{})), def(newServeCmd(&config{}))
	if web == worker || serve == worker {
		t.Errorf("METRICS_ADDR defaults: web %s, serve %s, worker %s; web's and serve's must differ from the worker's", web, serve, worker)
	}
	for _, a := range []string{web, worker, serve} {
		if !strings.HasPrefix(a, "127.0.0.1:") {
			t.Errorf("default METRICS_ADDR %s is not loopback-only", a)
		}
	}
}

// TestMalformedEnvRefused (issue 15, item 6): a numeric or duration
// variable that does not parse stops the process at start, naming the
// variable and the value, before it touches any database; it used to fall
// back to the default silently (PORT=80a served on 8080).
func TestMalformedEnvRefused(t *testing.T) {
	t.Parallel()
	bin := selahBinary(t)
	for _, tc := range []struct {
		command, env, want string
	}{
		{"web", "PORT=80a", "PORT: not a number: 80a"},
		{"serve", "PORT=80a", "PORT: not a number: 80a"},
		{"worker", "WORKER_CONCURRENCY=lots", "WORKER_CONCURRENCY: not a number: lots"},
		// A duration needs its unit: 5 could mean seconds or milliseconds.
		{"worker", "WORKER_POLL_INTERVAL=5", "WORKER_POLL_INTERVAL: not a duration"},
		{"serve", "WORKER_POLL_INTERVAL=fast", "WORKER_POLL_INTERVAL: not a duration"},
		{"web", "ASK_TIMEOUT=25", "ASK_TIMEOUT: not a duration"},
		{"web", "CHAT_MESSAGES_PER_DAY=1e3", "CHAT_MESSAGES_PER_DAY: not a number: 1e3"},
		{"web", "PORT=70000", "PORT"},
		{"worker", "WORKER_CONCURRENCY=-2", "WORKER_CONCURRENCY"},
		{"accounts ensure-dev", "PORT=80a", "PORT: not a number: 80a"},
	} {
		cmd := exec.Command(bin, strings.Fields(tc.command)...)
		cmd.Env = []string{tc.env, "DATABASE_URL=postgres://127.0.0.1:1/none", "REDIS_URL=redis://127.0.0.1:1/0", "ADDR=" + freeAddr(t)}
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "PostgreSQL") {
			t.Errorf("%s with %s: err %v, output %s; want a failure at start naming %q", tc.command, tc.env, err, out, tc.want)
		}
	}
}

// TestWellFormedEnvAccepted: values that parse get past the checks and
// fail only at the (unreachable) database, and flags still override the
// environment.
func TestWellFormedEnvAccepted(t *testing.T) {
	t.Parallel()
	bin := selahBinary(t)
	for _, tc := range []struct {
		args []string
		env  string
	}{
		{[]string{"serve"}, "PORT=8081"},
		{[]string{"serve"}, "WORKER_POLL_INTERVAL=5ms"},
		{[]string{"serve"}, "WORKER_CONCURRENCY="},
		{[]string{"worker", "--concurrency", "3"}, "WORKER_CONCURRENCY=lots"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = []string{tc.env, "DATABASE_URL=postgres://127.0.0.1:1/none", "REDIS_URL=redis://127.0.0.1:1/0", "ADDR=" + freeAddr(t), "METRICS_ADDR=" + freeAddr(t)}
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "PostgreSQL") {
			t.Errorf("%v with %s: err %v, output %s; want it to reach the database", tc.args, tc.env, err, out)
		}
	}
}
