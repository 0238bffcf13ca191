package client_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/apikey"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/client"
	"github.com/selahdev/selah/web/webtest"
)

func newClient(t *testing.T, url, key string) *client.Client {
	t.Helper()
	c, err := client.New(url, key)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientCalls(t *testing.T) {
	env := webtest.Start(t, nil)
	key, _ := env.Key(t, store.PlanInternal, true)
	c := newClient(t, env.URL+"/api/v1/", key) // the API path is accepted too
	ctx := context.Background()

	cases := []struct {
		name  string
		call  func() (client.Meta, string, error)
		wants string
	}{
		{"health", func() (client.Meta, string, error) {
			h, err := c.Health(ctx)
			if err != nil {
				return client.Meta{}, "", err
			}
			return h.Meta, h.Status + " " + h.Corpus.Translation, nil
		}, "ok KJV"},
		{"scripture", func() (client.Meta, string, error) {
			p, err := c.Scripture(ctx, "John 3:16")
			if err != nil {
				return client.Meta{}, "", err
			}
			return p.Meta, p.Reference + ": " + p.Text + " next " + p.Next.Reference, nil
		}, "John 3:16: For God so loved the world"},
		{"search", func() (client.Meta, string, error) {
			r, err := c.Search(ctx, client.SearchRequest{Query: "the Lord is my shepherd", Limit: 2})
			if err != nil {
				return client.Meta{}, "", err
			}
			if len(r.Results) != 2 {
				return r.Meta, "", fmt.Errorf("%d results", len(r.Results))
			}
			return r.Meta, r.Results[0].Reference, nil
		}, "Psalms 23:1"},
		{"ask", func() (client.Meta, string, error) {
			a, err := c.Ask(ctx, client.AskRequest{Question: "What does the Bible say about worry?", MaxReferences: 2, RequestID: "client-test-ask-1"})
			if err != nil {
				return client.Meta{}, "", err
			}
			if len(a.References) == 0 || len(a.References) > 2 || a.GeneratedAt.IsZero() || a.RequestID != "client-test-ask-1" {
				return a.Meta, "", fmt.Errorf("answer %+v", a)
			}
			return a.Meta, a.Generator + " " + a.References[0].Translation, nil
		}, "extractive KJV"},
		{"topics", func() (client.Meta, string, error) {
			l, err := c.Topics(ctx)
			if err != nil {
				return client.Meta{}, "", err
			}
			if l.Count != len(l.Topics) || l.Count == 0 {
				return l.Meta, "", fmt.Errorf("count %d of %d", l.Count, len(l.Topics))
			}
			return l.Meta, l.Topics[0].URL, nil
		}, "/api/v1/topics/"},
		{"topic", func() (client.Meta, string, error) {
			tp, err := c.Topic(ctx, "anxiety")
			if err != nil {
				return client.Meta{}, "", err
			}
			return tp.Meta, tp.Title + ": " + tp.Passages[0].Text, nil
		}, "Anxiety and Worry: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, got, err := tc.call()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tc.wants) {
				t.Errorf("got %q, want it to contain %q", got, tc.wants)
			}
			if m.Status != 200 || m.RequestID == "" {
				t.Errorf("meta %+v", m)
			}
			if tc.name != "health" && (m.Limits.RateLimit <= 0 || m.Limits.RateRemaining < 0 || m.Limits.DailyAsksRemaining < 0) {
				t.Errorf("limits %+v", m.Limits)
			}
		})
	}
}

func TestClientErrors(t *testing.T) {
	env := webtest.Start(t, nil)
	ctx := context.Background()
	live, _ := env.Key(t, store.PlanInternal, false)
	revoked, revokedID := env.Key(t, store.PlanInternal, false)
	free, _ := env.Key(t, store.PlanFree, false)
	unknown, _ := apikey.Generate(false)
	keys := []string{live, revoked, free, unknown}

	env.Revoke(t, revokedID)
	// The server caches key lookups for 500 ms; wait until it sees it.
	deadline := time.Now().Add(2 * time.Second)
	for {
		_, err := newClient(t, env.URL, revoked).Topics(ctx)
		var e *client.Error
		if errors.As(err, &e) && e.Code == "key_revoked" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("revocation not seen within 2s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The free plan allows 5 requests a minute: use them up.
	fc := newClient(t, env.URL, free)
	for i := 0; i < 5; i++ {
		if _, err := fc.Topics(ctx); err != nil {
			t.Fatalf("free request %d: %v", i+1, err)
		}
	}

	cases := []struct {
		name   string
		key    string
		call   func(c *client.Client) error
		status int
		code   string
	}{
		{"missing key", "", func(c *client.Client) error { _, err := c.Topics(ctx); return err }, 401, "missing_api_key"},
		{"unknown key", unknown, func(c *client.Client) error { _, err := c.Scripture(ctx, "John 3:16"); return err }, 401, "invalid_api_key"},
		{"revoked key", revoked, func(c *client.Client) error { _, err := c.Ask(ctx, client.AskRequest{Question: "grace"}); return err }, 403, "key_revoked"},
		{"no such topic", live, func(c *client.Client) error { _, err := c.Topic(ctx, "no-such-hub"); return err }, 404, "topic_not_found"},
		{"no such verse", live, func(c *client.Client) error { _, err := c.Scripture(ctx, "John 3:37"); return err }, 404, "passage_not_found"},
		{"bad reference", live, func(c *client.Client) error { _, err := c.Scripture(ctx, "Nowhere 1:1"); return err }, 400, "invalid_reference"},
		{"bad limit", live, func(c *client.Client) error {
			_, err := c.Search(ctx, client.SearchRequest{Query: "grace", Limit: 21})
			return err
		}, 400, "invalid_request"},
		{"rate limited", free, func(c *client.Client) error { _, err := c.Topics(ctx); return err }, 429, "rate_limited"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(newClient(t, env.URL, tc.key))
			var e *client.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *client.Error", err, err)
			}
			if e.Status != tc.status || e.Code != tc.code || e.Message == "" || e.RequestID == "" {
				t.Fatalf("error %+v, want %d %s", e, tc.status, tc.code)
			}
			if tc.status == 429 {
				if e.RetryAfter < time.Second || e.RetryAfter > time.Minute || e.Limits.RateLimit != 5 || e.Limits.RateRemaining != 0 {
					t.Errorf("429: retry after %s, limits %+v", e.RetryAfter, e.Limits)
				}
				if !strings.Contains(e.Error(), "retry after") {
					t.Errorf("429 message %q does not say when to retry", e.Error())
				}
			} else if e.RetryAfter != 0 {
				t.Errorf("Retry-After %s on a %d", e.RetryAfter, e.Status)
			}
			for _, k := range keys {
				if strings.Contains(e.Error(), k) || strings.Contains(fmt.Sprintf("%+v %#v", e, e), k) {
					t.Fatalf("the API key appears in the error")
				}
			}
		})
	}
}

func TestNew(t *testing.T) {
	key, _ := apikey.Generate(true)
	bad := key[:len(key)-1] + "x" // a typo breaks the checksum
	if bad == key {
		bad = key[:len(key)-1] + "y"
	}
	for _, tc := range []struct {
		name, url, key string
		ok             bool
	}{
		{"origin", "http://127.0.0.1:8080", key, true},
		{"api path", "https://selah.example/api/v1", key, true},
		{"no key", "https://selah.example", "", true},
		{"not a URL", "selah.example", key, false},
		{"ftp", "ftp://selah.example", key, false},
		{"typo in key", "https://selah.example", bad, false},
		{"not a key", "https://selah.example", "sk-123", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := client.New(tc.url, tc.key)
			if (err == nil) != tc.ok {
				t.Fatalf("err %v, want ok %v", err, tc.ok)
			}
			if err != nil && tc.key != "" && strings.Contains(err.Error(), tc.key) {
				t.Fatal("the key appears in the error")
			}
		})
	}
}

// TestClientFeatures: the issue-16 endpoints through the Go client, and a
// conditional passage request.
func TestClientFeatures(t *testing.T) {
	env := webtest.Start(t, nil)
	key, _ := env.Key(t, store.PlanInternal, true)
	c := newClient(t, env.URL, key)
	ctx := context.Background()

	b, err := c.Books(ctx)
	if err != nil || b.Count != 66 || b.Books[18].Name != "Psalms" || len(b.Books[18].Verses) != 150 {
		t.Fatalf("Books = %+v, %v", b, err)
	}
	v, err := c.Verify(ctx, client.VerifyRequest{Quote: "For God so loved the world…", Reference: "John 3:17"})
	if err != nil || v.Match != "exact" || v.Reference == nil || *v.Reference != "John 3:16" || v.ClaimedHolds == nil || *v.ClaimedHolds {
		t.Fatalf("Verify = %+v, %v", v, err)
	}
	v, err = c.Verify(ctx, client.VerifyRequest{Quote: "Cleanliness is next to godliness"})
	if err != nil || v.Match != "none" || v.Reference != nil || v.ClaimedHolds != nil {
		t.Fatalf("Verify saying = %+v, %v", v, err)
	}
	r, err := c.References(ctx, "Read Jn 3:16–18 and 1 Cor 13:4–7, then Ps 23.")
	if err != nil || len(r.References) != 3 || r.References[1].Reference != "1 Corinthians 13:4-7" {
		t.Fatalf("References = %+v, %v", r, err)
	}
	u, err := c.Usage(ctx)
	if err != nil || u.Plan != "internal" || u.RequestsPerMinute.Limit == nil || u.AsksToday.ResetAt == nil {
		t.Fatalf("Usage = %+v, %v", u, err)
	}

	p, err := c.Scripture(ctx, "Psalm 23")
	if err != nil || p.Meta.ETag == "" || p.Meta.CorpusEdition == "" || p.Meta.CorpusChecksum == "" {
		t.Fatalf("Scripture meta = %+v, %v", p.Meta, err)
	}
	same, m, err := c.ScriptureIfChanged(ctx, "Psalm 23", p.Meta.ETag)
	if err != nil || same != nil || m.Status != 304 || m.ETag != p.Meta.ETag {
		t.Fatalf("ScriptureIfChanged(current) = %v, %+v, %v", same, m, err)
	}
	other, m, err := c.ScriptureIfChanged(ctx, "Psalm 24", p.Meta.ETag)
	if err != nil || other == nil || other.Reference != "Psalms 24" || m.Status != 200 {
		t.Fatalf("ScriptureIfChanged(other) = %v, %+v, %v", other, m, err)
	}
}
