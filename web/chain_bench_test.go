package web

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
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

// BenchmarkScripture measures one GET /scripture of a whole chapter (Psalm
// 119, the longest) through the full chain, text from memory: what the
// server spends per request besides the two Redis round trips. Run with
// -benchmem; the allocations are the figure to watch.
func BenchmarkScripture(b *testing.B) {
	srv, key := benchServer(b)
	for b.Loop() {
		res, err := srv.App().Test(apiRequest("GET", "/api/v1/scripture?ref=Psalms+119", key), -1)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("%v %v", res, err)
		}
		io.Copy(io.Discard, res.Body)
	}
}

// BenchmarkWord measures GET /words/{number} of the Greek word the KJV's
// tags give most (G2532, "and": some 9,000 words) and of agape (G26,
// about a hundred): the counts and the page of verses are read from
// Postgres on each request.
func BenchmarkWord(b *testing.B) {
	srv, key := benchServer(b)
	for _, n := range []string{"G26", "G2532"} {
		b.Run(n, func(b *testing.B) {
			for b.Loop() {
				res, err := srv.App().Test(apiRequest("GET", "/api/v1/words/"+n, key), -1)
				if err != nil || res.StatusCode != 200 {
					b.Fatalf("%v %v", res, err)
				}
				io.Copy(io.Discard, res.Body)
			}
		})
	}
}

// benchServer is a server on the real corpus, its passages in memory and
// without the suite's contract check, which validates every response
// against the OpenAPI document at far more cost than the request; and an
// internal-plan key.
func benchServer(b *testing.B) (*Server, string) {
	st := storetest.NewCorpusStore(b)
	if _, err := st.LoadPassages(context.Background()); err != nil {
		b.Fatal(err)
	}
	_, rc := storetest.NewRedis(b)
	check := contractCheck
	contractCheck = nil
	b.Cleanup(func() { contractCheck = check })
	srv := NewTestServer(b, Config{}, Deps{Store: st, Redis: rc, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	a, err := st.CreateAccount(context.Background(), "bench@example.com", "", store.PlanInternal, false)
	if err != nil {
		b.Fatal(err)
	}
	key, _, err := st.CreateKey(context.Background(), a.ID, "bench", false, nil)
	if err != nil {
		b.Fatal(err)
	}
	return srv, key
}
