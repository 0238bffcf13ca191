package web

import "testing"

// NewTestServer is New for the tests in and outside the package: a
// refused configuration fails the test.
func NewTestServer(t testing.TB, cfg Config, deps Deps) *Server {
	t.Helper()
	s, err := New(cfg, deps)
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	return s
}
