// Package web is selah's HTTP edge: the Fiber app with its middleware
// (request ids, auth, limits), the API handlers that read Postgres directly
// or go through the job queue, and the server-rendered website. Its parts
// that stand alone live below it: web/session (website sign-in state and
// CSRF), web/docs (the API reference rendered from openapi.yaml),
// web/limits (rate, concurrency and quota), web/reqlog (the request's
// logger) and web/client (the Go client of the API).
package web

import (
	"context"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah/email"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
	"github.com/selahdev/selah/web/session"
)

// Deps are the services the server talks to.
type Deps struct {
	Store  *store.Store
	Redis  *redis.Client
	Logger *slog.Logger
	// Queue is the job facade for search and ask; nil serves 503 for them.
	Queue *jobs.Client
	// Gatherers are extra metrics served at OpsHandler's /metrics (the
	// worker's, when one runs in this process).
	Gatherers []prometheus.Gatherer
	// Mailer sends sign-up e-mail; nil writes it to Logger (development
	// only: a verification link is a credential).
	Mailer Mailer
	// Now is the clock for key expiry and other business time; nil means
	// time.Now. Tests set it to cross expiries without sleeping.
	Now func() time.Time
}

// Server is the HTTP server.
type Server struct {
	cfg     Config
	store   *store.Store
	redis   *redis.Client
	log     *slog.Logger
	app     *fiber.App
	metrics *metrics
	queue   *jobs.Client
	now     func() time.Time
	text    passageSource  // KJV text and its edition, see cache.go
	keys    *keyCache      // API key lookups, see auth.go
	touches *keyToucher    // last_used_at writes, see auth.go
	limits  *limits.Engine // rate, concurrency and Ask quota, see limits.go
	// draining is set by Shutdown: /readyz fails so load balancers stop
	// sending traffic while in-flight requests finish.
	draining  atomic.Bool
	gatherers []prometheus.Gatherer
	dashboard queueDashboard   // asynqmon, see admin.go
	verifier  verifier         // quote index of POST /verify, see verify.go
	sessions  *session.Manager // website sign-in state and CSRF, see web/session
	throttle  throttleState    // sign-in and sign-up throttles' Redis health, see throttle.go
	mailer    Mailer           // sign-up e-mail, see signup.go
}

// New builds the server and its routes. The configuration gets its
// defaults (Config.WithDefaults); a value that makes no sense is refused
// with an error naming the field.
func New(cfg Config, deps Deps) (*Server, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Mailer == nil {
		deps.Mailer = email.NewLog(deps.Logger)
	}
	s := &Server{cfg: cfg, store: deps.Store, text: deps.Store, redis: deps.Redis, log: deps.Logger, metrics: newMetrics(), queue: deps.Queue,
		gatherers: deps.Gatherers, mailer: deps.Mailer}
	if deps.Queue != nil {
		s.metrics.registry.MustRegister(deps.Queue.Collector())
	}
	s.now, s.keys, s.touches = deps.Now, newKeyCache(keyCacheTTL, keyCacheMax), newKeyToucher(deps.Store, deps.Logger)
	s.sessions = session.New(deps.Store, session.Config{PublicURL: cfg.PublicURL, Now: deps.Now})
	var usage limits.UsageStore
	if deps.Store != nil {
		usage = deps.Store
	}
	s.limits = limits.New(deps.Redis, usage, limits.Config{Clock: limits.ClockFunc(deps.Now)})
	s.app = fiber.New(fiber.Config{
		AppName:               "selah",
		ErrorHandler:          s.errorHandler,
		BodyLimit:             cfg.BodyLimit,
		DisableStartupMessage: true,
		ReadTimeout:           cfg.ReadTimeout,
		WriteTimeout:          60 * time.Second,
		IdleTimeout:           120 * time.Second,
		ReadBufferSize:        8192,
		// Values read from a request (method, headers, params) are copies,
		// not views into fasthttp's reused buffers: metrics labels, the
		// request id in logs and job ids outlive the handler.
		Immutable: true,
		// Forwarded headers are believed from TrustedProxies only (none by
		// default): the client address keys sign-in lockouts and the
		// anonymous Ask quota, the forwarded host the canonical links.
		EnableTrustedProxyCheck: true,
		TrustedProxies:          cfg.TrustedProxies,
		ProxyHeader:             fiber.HeaderXForwardedFor,
		EnableIPValidation:      true,
	})
	s.useContractCheck() // tests only, see openapi.go
	s.routes()
	return s, nil
}

// App returns the Fiber app (tests drive it with app.Test).
func (s *Server) App() *fiber.App { return s.app }

// Listener serves on ln until Shutdown (tests listen on port 0).
func (s *Server) Listener(ln net.Listener) error { return s.app.Listener(ln) }

// Drain marks the server as going away: /readyz fails from now on, while
// requests are still served. Callers wait a moment (for load balancers to
// notice) and then call Shutdown.
func (s *Server) Drain() { s.draining.Store(true) }

// Shutdown stops accepting connections and waits for in-flight requests.
func (s *Server) Shutdown(ctx context.Context) error {
	s.Drain()
	defer s.closeDashboard()
	return s.app.ShutdownWithContext(ctx)
}

func (s *Server) routes() {
	s.app.Use(s.requestID, s.accessLog, s.recoverPanic)

	// Probes: no key, outside the versioned API. /readyz here says only
	// ready or not; its checks and /metrics are on OpsHandler's listener,
	// so the public port tells no one which dependency is down or what
	// the traffic is.
	s.app.Get("/livez", s.livez)
	s.app.Get("/readyz", s.readyz)

	api := s.app.Group("/api/v1")
	api.Use(apiCORS()) // before auth: preflights carry no key
	api.Get("/health", s.health)
	api.Get("/openapi.json", s.openAPIJSON)
	api.Get("/openapi.yaml", s.openAPIYAML)

	// Everything else needs an API key. The chain is attached to each
	// route rather than to the path prefix, so an unknown path under
	// /api/v1 is a 404 whether or not a key came with it.
	api.Get("/scripture", s.authed(s.scripture)...)
	api.Post("/search", s.authed(s.search)...)
	api.Post("/ask", s.authed(s.ask)...)
	api.Get("/topics", s.authed(s.listTopics)...)
	api.Get("/topics/:slug", s.authed(s.topic)...)
	api.Get("/books", s.authed(s.books)...)
	api.Get("/words/:number", s.authed(s.word)...)
	api.Post("/verify", s.authed(s.verifyQuote)...)
	api.Post("/references", s.authed(s.references)...)
	api.Get("/usage", s.authed(s.usage)...)

	s.siteRoutes()
	s.chatRoutes() // reader, chat and reports: chat.go, reader.go, reports.go
	s.adminRoutes()
	// No catch-all: a request no route matches reaches errorHandler as
	// Fiber's 404 or 405.
}

// authed is the chain every authenticated API request passes: key, then
// rate limit, concurrency slot and quota read in one step, then the
// handler.
func (s *Server) authed(h fiber.Handler) []fiber.Handler {
	return []fiber.Handler{s.authenticate, s.admit, h}
}
