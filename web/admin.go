package web

import (
	"net/http"
	"sync"

	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
)

// queuesPath is where asynqmon, the Asynq dashboard, is mounted.
const queuesPath = "/admin/queues"

// queueDashboard is asynqmon, built on first use: it opens its own Redis
// connections, which servers that are never visited (tests) need not pay.
type queueDashboard struct {
	once sync.Once
	h    *asynqmon.HTTPHandler
}

// adminRoutes mounts asynqmon for signed-in administrators only; anyone
// else gets the site's sign-in redirect or a 404. Every administrator may
// act on tasks (delete, archive, retry): the dashboard is an operator's
// tool, and the admin flag is the operator role.
func (s *Server) adminRoutes() {
	if s.redis == nil {
		return
	}
	s.app.Use(queuesPath, s.sessions.RequireAdmin, adaptor.HTTPHandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.dashboard.once.Do(func() {
			o := s.redis.Options()
			s.dashboard.h = asynqmon.New(asynqmon.Options{
				RootPath: queuesPath,
				RedisConnOpt: asynq.RedisClientOpt{Network: o.Network, Addr: o.Addr, Username: o.Username,
					Password: o.Password, DB: o.DB, TLSConfig: o.TLSConfig},
			})
		})
		s.dashboard.h.ServeHTTP(w, r)
	}))
}

// closeDashboard releases asynqmon's connections, if it was opened.
func (s *Server) closeDashboard() {
	if s.dashboard.h != nil {
		s.dashboard.h.Close()
	}
}
