package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/web/webtest"
)

const chromiumPath = "/usr/bin/chromium"

var apiClient = &http.Client{Timeout: 5 * time.Second}

// TestBrowserKeyLifecycle walks the website in a real headless Chromium,
// as a person would, and uses the keys it hands out against the real API:
// sign up, create a key, call the API, rotate, revoke.
func TestBrowserKeyLifecycle(t *testing.T) {
	requireChromium(t)
	st := storetest.NewCorpusStore(t)
	_, rc := storetest.NewRedis(t)
	logs := &webtest.LogBuffer{}
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.App().Listener(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bctx := newBrowser(ctx, t)

	email := fmt.Sprintf("browser-%d@example.com", time.Now().UnixNano())
	const password = "a long enough password"

	// do runs steps on the current page; submit clicks a button or link
	// that loads a page and checks the status it came with; read reads a
	// value from the page.
	do := func(step string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	submit := func(step, selector string, status int64) {
		t.Helper()
		res, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(selector)))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if res.Status != status {
			t.Fatalf("%s: status %d, want %d", step, res.Status, status)
		}
	}
	read := func(what string, a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(bctx, a)
		if err != nil {
			t.Fatalf("read %s: %v", what, err)
		}
		return v
	}

	do("open the sign-up page",
		chromedp.Navigate(base+"/signup"),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.SendKeys(chromedp.CSS("#confirm"), password),
	)
	submit("sign up", `form[action="/signup"] button[type="submit"]`, http.StatusOK)
	// The development mailer writes the verification link to the log.
	do("open the verification link", chromedp.Navigate(base+verifyLink(t, logs)))
	submit("confirm the address", `form[action="/verify"] button[type="submit"]`, http.StatusOK)
	do("fill in the sign-in form", chromedp.SendKeys(chromedp.CSS("#password"), password))
	submit("sign in", `form[action="/signin"] button[type="submit"]`, http.StatusOK)
	// The free plan's five requests a minute are fewer than the polling
	// below may need; plans are an administrator's business, not the site's.
	if err := st.SetPlan(ctx, email, store.PlanDeveloper); err != nil {
		t.Fatal(err)
	}

	do("fill in the key form", chromedp.SendKeys(chromedp.CSS("#key-name"), "browser test"))
	// Post/redirect/get: the form redirects to the page that shows the key.
	submit("create a key", `form[action="/settings/api/keys"] button[type="submit"]`, http.StatusOK)
	key := read("the new key", chromedp.Value(chromedp.CSS("#new-key")))
	// The copy button is shown by the inline script, so this also proves
	// that the Content-Security-Policy lets that script run.
	do("see the copy button", chromedp.WaitVisible(chromedp.CSS(`button[data-copy="new-key"]`)))
	if !strings.HasPrefix(key, "svc_live_") {
		t.Fatalf("key shown = %q", key)
	}
	wantJohn316(t, base, key)
	// Reloading the page neither shows the key again nor makes another.
	if res, err := chromedp.RunResponse(bctx, chromedp.Reload()); err != nil || res.Status != http.StatusGone {
		t.Fatalf("reload the new key page: %v, %v", res, err)
	}
	if html := read("the reloaded page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, key) ||
		strings.Count(html, `<tr id="key_`) != 1 {
		t.Fatal("reloading the new key page showed the key again or made a second key")
	}

	do("list the keys", chromedp.Navigate(base+"/settings/api"))
	html := read("the keys page", chromedp.OuterHTML(chromedp.CSS("html")))
	if strings.Contains(html, key) {
		t.Fatal("the keys page shows the key a second time")
	}
	if !strings.Contains(html, "browser test") || !strings.Contains(html, key[:13]) {
		t.Fatalf("the keys page does not list the key:\n%s", html)
	}

	submit("ask to rotate the key", `a[href$="/rotate"]`, http.StatusOK)
	submit("rotate the key", `form[action$="/rotate"] button[type="submit"]`, http.StatusOK)
	rotated := read("the rotated key", chromedp.Value(chromedp.CSS("#new-key")))
	if !strings.HasPrefix(rotated, "svc_live_") || rotated == key {
		t.Fatalf("rotated key = %q (old %q)", rotated, key)
	}
	waitRefused(t, base, key, "key_revoked")
	wantJohn316(t, base, rotated)

	do("list the keys", chromedp.Navigate(base+"/settings/api"))
	submit("ask to revoke the new key", `a[href$="/revoke"]`, http.StatusOK)
	submit("revoke the new key", `form[action$="/revoke"] button[type="submit"]`, http.StatusOK)
	if notice := read("the confirmation", chromedp.Text(chromedp.CSS(".notice-success"))); !strings.Contains(notice, "is revoked") {
		t.Fatalf("after revoking, the page says %q", notice)
	}
	waitRefused(t, base, rotated, "key_revoked")

	submit("sign out", `form[action="/signout"] button[type="submit"]`, http.StatusOK)
	do("see the sign-in link", chromedp.WaitVisible(chromedp.CSS(`a[href="/signin"]`)))
}

// TestBrowserNarrow opens every page of the website in a real headless
// Chromium 390 px wide (a phone) and checks that none scrolls sideways:
// document.documentElement.scrollWidth <= 390.
func TestBrowserNarrow(t *testing.T) {
	requireChromium(t)
	st := storetest.NewCorpusStore(t)
	_, rc := storetest.NewRedis(t)
	logs := &webtest.LogBuffer{}
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.App().Listener(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-served
	})
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// An answer with a long question and several passages, as the ask
	// page would store it.
	ans := store.AnswerRecord{ID: store.NewAnswerID(), Generator: "extractive", Source: "web", CreatedAt: time.Now(),
		Question: "What does the Bible say about worrying about tomorrow, about food and clothing, and about trusting God?",
		Answer:   "The King James Bible speaks to this (Matthew 6:25-34; Philippians 4:6-7; 1 Peter 5:7).",
		Summary:  "Take no thought for the morrow (Matthew 6:34).",
		Refs: []store.AnswerRef{
			{Reference: "Matthew 6:25-34", First: 40006025, Last: 40006034},
			{Reference: "Philippians 4:6-7", First: 50004006, Last: 50004007},
		},
		Topics: []store.AnswerTopic{{Slug: "anxiety", Title: "Anxiety and Worry"}}}
	if err := st.SaveAnswer(ctx, ans); err != nil {
		t.Fatal(err)
	}

	bctx := newBrowser(ctx, t)
	email := fmt.Sprintf("narrow-%d@example.com", time.Now().UnixNano())
	const password = "a long enough password"
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	narrow := func(page string) {
		t.Helper()
		width, err := chromedp.Run(bctx, chromedp.Evaluate[int]("document.documentElement.scrollWidth"))
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		if width > 390 {
			t.Errorf("%s is %d px wide at 390 px: it scrolls sideways", page, width)
		}
	}
	visit := func(path string) {
		t.Helper()
		if _, err := chromedp.RunResponse(bctx, chromedp.Navigate(base+path)); err != nil {
			t.Fatalf("open %s: %v", path, err)
		}
		narrow(path)
	}
	for _, p := range []string{"/", "/signin", "/signup", "/ask", "/topics", "/topics/anxiety", "/topics/eternal-life",
		"/docs", "/answers/" + ans.ID, "/no/such/page"} {
		visit(p)
	}
	// Signed in: the keys page with a key in its table, the new key page
	// and the confirmation pages.
	if err := chromedp.Do(bctx,
		chromedp.Navigate(base+"/signup"),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.SendKeys(chromedp.CSS("#confirm"), password),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(`form[action="/signup"] button[type="submit"]`))); err != nil {
		t.Fatal(err)
	}
	narrow("the check-your-e-mail page")
	visit(verifyLink(t, logs))
	for _, form := range []string{"/verify", "/signin"} {
		if form == "/signin" {
			if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.CSS("#password"), password)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(`form[action="`+form+`"] button[type="submit"]`))); err != nil {
			t.Fatal(err)
		}
		narrow("the page after " + form)
	}
	if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.CSS("#key-name"), "a key with a rather long name for a phone")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(`form[action="/settings/api/keys"] button[type="submit"]`))); err != nil {
		t.Fatal(err)
	}
	narrow("the new key page")
	visit("/settings/api")
	for _, action := range []string{"rotate", "revoke"} {
		if _, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(`a[href$="/`+action+`"]`))); err != nil {
			t.Fatal(err)
		}
		narrow("the " + action + " confirmation page")
		visit("/settings/api")
	}
}

// newBrowser starts a headless Chromium with a fresh profile that is gone
// when the test ends.
var verifyLinkPattern = regexp.MustCompile(`/verify\?token=[0-9A-Za-z_-]{43}`)

// verifyLink returns the path of the latest verification link in the
// server's log, where the development mailer writes them.
func verifyLink(t *testing.T, logs *webtest.LogBuffer) string {
	t.Helper()
	links := verifyLinkPattern.FindAllString(logs.String(), -1)
	if len(links) == 0 {
		t.Fatal("no verification link in the log")
	}
	return links[len(links)-1]
}

// requireChromium fails the test when deploy/setup.sh has not installed
// Chromium, before it sets up anything else.
func requireChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("this test needs Chromium at %s (%v): run deploy/setup.sh", chromiumPath, err)
	}
}

func newBrowser(ctx context.Context, t *testing.T) context.Context {
	t.Helper()
	profile, err := os.MkdirTemp("", "selah-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	// Cleanups run last-in first-out: close the browser, then delete the
	// profile it was writing to.
	t.Cleanup(func() { os.RemoveAll(profile) })
	t.Cleanup(cancelAlloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", chromiumPath, err)
	}
	return bctx
}

func scripture(t *testing.T, base, key string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/api/v1/scripture?ref=John+3:16", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := apiClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(body)
}

func wantJohn316(t *testing.T, base, key string) {
	t.Helper()
	status, body := scripture(t, base, key)
	if status != http.StatusOK || !strings.Contains(body, "For God so loved the world") {
		t.Fatalf("scripture with the key = %d %s", status, body)
	}
}

// waitRefused polls until the key is refused with code. Key lookups are
// cached for half a second per process, so the refusal must come within
// about one second; two are allowed for a slow machine.
func waitRefused(t *testing.T, base, key, code string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		status, body := scripture(t, base, key)
		if status == http.StatusForbidden {
			var e web.ErrorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code != code {
				t.Fatalf("refused with %s, want code %s", body, code)
			}
			return
		}
		if status != http.StatusOK {
			t.Fatalf("while waiting for the refusal: %d %s", status, body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("key still accepted 2s after it was revoked")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
