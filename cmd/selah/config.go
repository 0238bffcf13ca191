package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/selahdev/selah/email"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// config is the process configuration: environment first, flags override.
type config struct {
	DatabaseURL   string
	RedisURL      string
	Port          int
	Addr          string
	SwordDir      string
	LogFormat     string
	LogLevel      string
	PublicURL     string
	MetricsAddr   string
	Concurrency   int
	PollInterval  time.Duration
	DrainDelay    time.Duration
	SearchTimeout time.Duration
	AskTimeout    time.Duration
	// JobWatchInterval and JobLostAfter tune how a waiting call notices a
	// job that cannot finish (jobs.Config).
	JobWatchInterval, JobLostAfter time.Duration
	// The website chat's quotas and the report throttle (web.Config).
	ChatPerDay, ChatPerAddressPerDay, ReportsPerHour int
	// TrustedProxies (TRUSTED_PROXIES) are comma-separated addresses or
	// CIDRs of reverse proxies; Environment (SELAH_ENV) is "production" or
	// anything else (development).
	TrustedProxies string
	Environment    string
	// SMTPURL (SMTP_URL) and MailFrom (MAIL_FROM) configure the sign-up
	// e-mail; without SMTP_URL it is written to the log (development only).
	SMTPURL  string
	MailFrom string
}

// envAnnotation marks a flag whose value, when the command line does not
// set it, comes from the environment variable named in the annotation.
const envAnnotation = "selah_env"

// fromEnv binds flag to the environment variable name (see applyEnv).
func fromEnv(f *pflag.FlagSet, flag, name string) {
	if err := f.SetAnnotation(flag, envAnnotation, []string{name}); err != nil {
		panic(err) // a flag name misspelt here, a programming error
	}
}

// envFlag defines a flag with define (f.StringVar, f.IntVar, ...) and binds
// it to the environment variable env (see applyEnv): one call per flag, so
// the flag's name is written once.
func envFlag[T any](f *pflag.FlagSet, define func(p *T, name string, value T, usage string), p *T, name, env string, value T, usage string) {
	define(p, name, value, usage)
	fromEnv(f, name, env)
}

// applyEnv sets every flag of cmd bound with fromEnv, and not given on the
// command line, from its environment variable (unset or empty: the
// documented default). A value that does not parse is refused naming the
// variable and the value, rather than silently left at the default: PORT=80a
// used to serve on 8080. It runs before any command touches a database.
func applyEnv(cmd *cobra.Command) error {
	var errs []error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		names := f.Annotations[envAnnotation]
		if f.Changed || len(names) == 0 {
			return
		}
		v := os.Getenv(names[0])
		if v == "" {
			return
		}
		if err := f.Value.Set(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %s", names[0], expected(f.Value.Type()), v))
		}
	})
	return errors.Join(errs...)
}

// expected says what a value of a flag type looks like.
func expected(typ string) string {
	switch typ {
	case "int":
		return "not a number"
	case "duration":
		return "not a duration (a number with a unit: 500ms, 2s, 1m)"
	case "bool":
		return "not true or false"
	}
	return "not a " + typ
}

func (c *config) bind(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	envFlag(f, f.StringVar, &c.DatabaseURL, "database-url", "DATABASE_URL", "postgres://127.0.0.1:5432/selah?sslmode=disable", "PostgreSQL URL (env DATABASE_URL)")
	envFlag(f, f.StringVar, &c.RedisURL, "redis-url", "REDIS_URL", "redis://127.0.0.1:6379/0", "Redis URL (env REDIS_URL)")
	envFlag(f, f.StringVar, &c.SwordDir, "sword-dir", "SWORD_PATH", "/usr/share/sword", "SWORD module library (env SWORD_PATH)")
	envFlag(f, f.StringVar, &c.LogFormat, "log-format", "LOG_FORMAT", "json", "log format: json or text (env LOG_FORMAT)")
	envFlag(f, f.StringVar, &c.LogLevel, "log-level", "LOG_LEVEL", "info", "log level: debug, info, warn, error (env LOG_LEVEL)")
}

// bindPort adds --port (env PORT), for the commands that serve HTTP and
// those that print or call the local server's URL.
func (c *config) bindPort(cmd *cobra.Command) {
	envFlag(cmd.Flags(), cmd.Flags().IntVar, &c.Port, "port", "PORT", 8080, "HTTP port (env PORT)")
}

// bindHTTP adds the listening flags to commands that serve HTTP.
func (c *config) bindHTTP(cmd *cobra.Command) {
	c.bindPort(cmd)
	f := cmd.Flags()
	envFlag(f, f.StringVar, &c.Addr, "addr", "ADDR", "", "bind address (env ADDR; default 127.0.0.1:$PORT)")
	envFlag(f, f.StringVar, &c.PublicURL, "public-url", "PUBLIC_URL", "", "public base URL of the website, for canonical links (env PUBLIC_URL)")
	envFlag(f, f.StringVar, &c.TrustedProxies, "trusted-proxies", "TRUSTED_PROXIES", "",
		"comma-separated addresses or CIDRs of the reverse proxies whose X-Forwarded-* headers are believed (env TRUSTED_PROXIES; default none)")
	envFlag(f, f.StringVar, &c.Environment, "env", "SELAH_ENV", "development",
		"production or development; production requires PUBLIC_URL and SMTP_URL (env SELAH_ENV)")
	envFlag(f, f.StringVar, &c.SMTPURL, "smtp-url", "SMTP_URL", "",
		"SMTP server for sign-up e-mail: smtps://user:password@host:465, smtp://user:password@host:587 (STARTTLS) or smtp://host:25?tls=none (env SMTP_URL; unset: e-mail is written to the log, development only)")
	envFlag(f, f.StringVar, &c.MailFrom, "mail-from", "MAIL_FROM", "",
		`sender of sign-up e-mail, e.g. "selah <no-reply@selah.example>" (env MAIL_FROM; required with SMTP_URL)`)
	envFlag(f, f.DurationVar, &c.SearchTimeout, "search-timeout", "SEARCH_TIMEOUT", 10*time.Second,
		"deadline of a search job; the caller then gets 504 (env SEARCH_TIMEOUT)")
	envFlag(f, f.DurationVar, &c.AskTimeout, "ask-timeout", "ASK_TIMEOUT", 25*time.Second,
		"deadline of an ask job; the caller then gets 504 (env ASK_TIMEOUT)")
	envFlag(f, f.DurationVar, &c.JobWatchInterval, "job-watch-interval", "JOB_WATCH_INTERVAL", 0,
		"how often a waiting search or ask looks at its job and its worker (env JOB_WATCH_INTERVAL; default 1s, see jobs.Config)")
	envFlag(f, f.DurationVar, &c.JobLostAfter, "job-lost-after", "JOB_LOST_AFTER", 0,
		"how long a job may look lost (its worker dead, no worker for it, its result gone) before the caller gets 503 (env JOB_LOST_AFTER; default 1s)")
	envFlag(f, f.IntVar, &c.ChatPerDay, "chat-messages-per-day", "CHAT_MESSAGES_PER_DAY", web.DefaultChatMessagesPerDay,
		"website chat messages per visitor and UTC day (env CHAT_MESSAGES_PER_DAY)")
	envFlag(f, f.IntVar, &c.ChatPerAddressPerDay, "chat-messages-per-address-per-day", "CHAT_MESSAGES_PER_ADDRESS_PER_DAY", web.DefaultChatMessagesPerAddressPerDay,
		"website chat messages per client address and UTC day (env CHAT_MESSAGES_PER_ADDRESS_PER_DAY)")
	envFlag(f, f.IntVar, &c.ReportsPerHour, "reports-per-hour", "REPORTS_PER_HOUR", web.DefaultReportsPerHour,
		"answer reports per client address and hour (env REPORTS_PER_HOUR)")
	envFlag(f, f.DurationVar, &c.DrainDelay, "drain-delay", "DRAIN_DELAY", drainDelay,
		"on SIGTERM, how long to keep serving with /readyz failing before closing the listener (env DRAIN_DELAY)")
}

// Default operations listeners (METRICS_ADDR), loopback-only for local
// use. web (and serve) and worker differ so that the Procfile's two
// processes can run on one machine; containers set METRICS_ADDR
// themselves (one process each, so the same port).
const (
	defaultWebMetricsAddr    = "127.0.0.1:9091"
	defaultWorkerMetricsAddr = "127.0.0.1:9090"
)

// bindMetrics adds the operations listener's flag with the command's
// default address.
func (c *config) bindMetrics(cmd *cobra.Command, def string) {
	envFlag(cmd.Flags(), cmd.Flags().StringVar, &c.MetricsAddr, "metrics-addr", "METRICS_ADDR", def,
		"where /livez, the detailed /readyz and /metrics are served, apart from the public port (env METRICS_ADDR)")
}

// bindWorker adds the worker flags.
func (c *config) bindWorker(cmd *cobra.Command) {
	f := cmd.Flags()
	envFlag(f, f.IntVar, &c.Concurrency, "concurrency", "WORKER_CONCURRENCY", 0,
		"jobs a worker runs at once (env WORKER_CONCURRENCY; default twice the CPUs)")
	envFlag(f, f.DurationVar, &c.PollInterval, "poll-interval", "WORKER_POLL_INTERVAL", 0,
		"how often an idle worker looks for jobs (env WORKER_POLL_INTERVAL; default 2ms, see worker.Config)")
}

// production reports whether SELAH_ENV says this is a production
// deployment.
func (c *config) production() bool { return strings.EqualFold(c.Environment, "production") }

// trustedProxies parses TRUSTED_PROXIES; a malformed entry is an error
// naming the variable, so a typo cannot silently trust no one (or anyone).
func (c *config) trustedProxies() ([]string, error) {
	var out []string
	for _, p := range strings.Split(c.TrustedProxies, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				return nil, fmt.Errorf("TRUSTED_PROXIES: %q is neither an IP address nor a CIDR", p)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// validate refuses values that parse but make no sense: a port outside
// 1-65535 (0 would listen on a random port), negative counts and
// durations. Zero keeps meaning "the default" where the flag says so.
func (c *config) validate(withWeb bool) error {
	if withWeb && (c.Port < 1 || c.Port > 65535) {
		return fmt.Errorf("PORT: not a port (1 to 65535): %d", c.Port)
	}
	for _, n := range []struct {
		name     string
		negative bool
		v        any
	}{
		{"WORKER_CONCURRENCY", c.Concurrency < 0, c.Concurrency},
		{"WORKER_POLL_INTERVAL", c.PollInterval < 0, c.PollInterval},
		{"SEARCH_TIMEOUT", c.SearchTimeout < 0, c.SearchTimeout},
		{"ASK_TIMEOUT", c.AskTimeout < 0, c.AskTimeout},
		{"JOB_WATCH_INTERVAL", c.JobWatchInterval < 0, c.JobWatchInterval},
		{"JOB_LOST_AFTER", c.JobLostAfter < 0, c.JobLostAfter},
		{"DRAIN_DELAY", c.DrainDelay < 0, c.DrainDelay},
		{"CHAT_MESSAGES_PER_DAY", c.ChatPerDay < 0, c.ChatPerDay},
		{"CHAT_MESSAGES_PER_ADDRESS_PER_DAY", c.ChatPerAddressPerDay < 0, c.ChatPerAddressPerDay},
		{"REPORTS_PER_HOUR", c.ReportsPerHour < 0, c.ReportsPerHour},
	} {
		if n.negative {
			return fmt.Errorf("%s: must not be negative: %v", n.name, n.v)
		}
	}
	return nil
}

// checkWeb refuses settings a web process must not start with.
func (c *config) checkWeb() error {
	if c.production() && c.PublicURL == "" {
		return errors.New("SELAH_ENV=production requires PUBLIC_URL (the site's https:// base URL for canonical links)")
	}
	if c.production() && c.SMTPURL == "" {
		return errors.New("SELAH_ENV=production requires SMTP_URL (and MAIL_FROM): sign-up sends verification links by e-mail, and only development writes them to the log")
	}
	if _, err := c.mailer(slog.Default()); err != nil {
		return err
	}
	_, err := c.trustedProxies()
	return err
}

// checkMetricsAddr refuses a METRICS_ADDR that is not host:port with a
// numeric port: net.Listen would take "9090" or "" as "any port" and the
// metrics would be somewhere no scraper looks.
func (c *config) checkMetricsAddr() error {
	_, port, err := net.SplitHostPort(c.MetricsAddr)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16)
	}
	if err != nil {
		return fmt.Errorf("METRICS_ADDR: %q is not host:port (e.g. 127.0.0.1:9090 or 0.0.0.0:9090)", c.MetricsAddr)
	}
	return nil
}

// mailer is the sender of sign-up e-mail: SMTP when SMTP_URL is set, else
// the log (checkWeb refuses that in production).
func (c *config) mailer(log *slog.Logger) (web.Mailer, error) {
	if c.SMTPURL == "" {
		return email.NewLog(log), nil
	}
	if c.MailFrom == "" {
		return nil, errors.New(`SMTP_URL requires MAIL_FROM, the sender address (e.g. "selah <no-reply@selah.example>")`)
	}
	return email.NewSMTP(email.SMTPConfig{URL: c.SMTPURL, From: c.MailFrom})
}

func (c *config) listenAddr() string {
	if c.Addr != "" {
		return c.Addr
	}
	return fmt.Sprintf("127.0.0.1:%d", c.Port)
}

func (c *config) logger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewJSONHandler(os.Stderr, opts)
	if c.LogFormat == "text" {
		h = slog.NewTextHandler(os.Stderr, opts)
	}
	l := slog.New(h)
	slog.SetDefault(l)
	return l
}

func (c *config) openStore(ctx context.Context) (*store.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := store.Open(ctx, c.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := st.Ping(ctx); err != nil {
		st.Close()
		return nil, fmt.Errorf("cannot reach PostgreSQL (DATABASE_URL): %w", err)
	}
	return st, nil
}

func (c *config) openRedis(ctx context.Context) (*redis.Client, error) {
	opt, err := redis.ParseURL(c.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("parse REDIS_URL: %w", err)
	}
	rc := redis.NewClient(opt)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rc.Ping(ctx).Err(); err != nil {
		rc.Close()
		return nil, fmt.Errorf("cannot reach Redis (REDIS_URL): %w", err)
	}
	return rc, nil
}
