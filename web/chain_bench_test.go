package web

import (
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/store"
)

// BenchmarkAuthChain measures what the auth and limit chain adds to a
// request: the same trivial handler bare, and behind authenticate and
// admit (key lookup cached per process for 500 ms; one Redis round trip
// for the rate limit, concurrency slot and quota read, one to release the
// slot). Compare the two ns/op.
func BenchmarkAuthChain(b *testing.B) {
	env := newLimitsEnv(b, 1, nil)
	srv := env.servers[0]
	_, key := env.key(b, store.PlanInternal)
	ok := func(c *fiber.Ctx) error { return c.SendString("ok") }
	srv.app.Get("/bench/bare", ok)
	srv.app.Get("/bench/authed", srv.authed(ok)...)
	for _, path := range []string{"/bench/bare", "/bench/authed"} {
		b.Run(path[len("/bench/"):], func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest("GET", path, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				res, err := srv.App().Test(req, -1)
				if err != nil || res.StatusCode != 200 {
					b.Fatalf("%v %v", res, err)
				}
			}
		})
	}
}
