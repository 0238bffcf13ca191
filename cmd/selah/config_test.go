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
	t.Setenv("METRICS_ADDR", "")
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
