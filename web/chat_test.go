package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/web/webtest"
)

// visitor is a browser on the website: its own cookie jar, redirects not
// followed.
type visitor struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf string
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`)

func newVisitor(t *testing.T, base string) *visitor {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	v := &visitor{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	res, body := v.get("/chat")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /chat = %d", res.StatusCode)
	}
	m := csrfMeta.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no csrf-token meta on /chat:\n%s", body)
	}
	v.csrf = m[1]
	var cookie string
	for _, h := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(h, "selah_visitor=") {
			cookie = h
		}
	}
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") {
		t.Fatalf("visitor cookie %q", cookie)
	}
	return v
}

func (v *visitor) do(req *http.Request) (*http.Response, string) {
	v.t.Helper()
	res, err := v.c.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		v.t.Fatal(err)
	}
	return res, string(b)
}

func (v *visitor) get(path string) (*http.Response, string) {
	v.t.Helper()
	req, _ := http.NewRequest("GET", v.base+path, nil)
	req.Header.Set("Accept", "text/html")
	return v.do(req)
}

func (v *visitor) postForm(path string, form url.Values) (*http.Response, string) {
	v.t.Helper()
	form.Set("csrf", v.csrf)
	req, _ := http.NewRequest("POST", v.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	return v.do(req)
}

type chatResponse struct {
	ConversationID string `json:"conversationId"`
	Reply          struct {
		ID         string `json:"id"`
		Answer     string `json:"answer"`
		Summary    string `json:"summary"`
		References []struct {
			Reference string `json:"reference"`
			Text      string `json:"text"`
			ReaderURL string `json:"readerUrl"`
		} `json:"references"`
		Topics    []struct{ Slug, Title, URL string } `json:"topics"`
		Words     []struct{ Strongs, Lemma string }   `json:"words"`
		ReportURL string                              `json:"reportUrl"`
	} `json:"reply"`
	Remaining int `json:"remaining"`
}

// send posts a chat message as the page's script does, JSON in and out.
func (v *visitor) send(convID, message string, accept string) (*http.Response, string) {
	v.t.Helper()
	body := map[string]string{"message": message}
	if convID != "" {
		body["conversationId"] = convID
	}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", v.base+"/chat/messages", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("X-CSRF-Token", v.csrf)
	return v.do(req)
}

func (v *visitor) chat(convID, message string) chatResponse {
	v.t.Helper()
	res, body := v.send(convID, message, "application/json")
	if res.StatusCode != http.StatusOK {
		v.t.Fatalf("chat %q: %d %s", message, res.StatusCode, body)
	}
	var r chatResponse
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		v.t.Fatal(err)
	}
	return r
}

func refsOf(r chatResponse) []string {
	var out []string
	for _, x := range r.Reply.References {
		out = append(out, x.Reference)
	}
	return out
}

// TestChatConversation is a conversation end to end through the queue and
// the worker: a follow-up read in its conversation, privacy to the visitor's
// cookie, deletion, streaming, and nothing of it in the logs.
func TestChatConversation(t *testing.T) {
	t.Parallel()
	logs := &webtest.LogBuffer{}
	env := webtest.StartConfig(t, web.Config{Version: "chat-test", ChatMessagesPerDay: 10},
		slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	alice := newVisitor(t, env.URL)

	first := alice.chat("", "Who was Ruth?")
	if first.ConversationID == "" || len(first.Reply.References) == 0 || first.Remaining != 9 || first.Reply.ReportURL == "" {
		t.Fatalf("first reply %+v", first)
	}
	for _, r := range first.Reply.References {
		if !strings.HasPrefix(r.ReaderURL, "/read/ruth/") || r.Text == "" {
			t.Fatalf("reference %+v", r)
		}
	}
	second := alice.chat(first.ConversationID, "Whom did she marry?")
	if second.ConversationID != first.ConversationID {
		t.Fatalf("the follow-up started conversation %s", second.ConversationID)
	}
	if !strings.HasPrefix(strings.Join(refsOf(second), ";"), "Ruth 4:") && !strings.Contains(strings.Join(refsOf(second), ";"), ";Ruth 4:") {
		t.Fatalf("the follow-up cites %v, want Ruth 4 (first reply cited %v)", refsOf(second), refsOf(first))
	}

	// Server-sent events: the status comes first, then the reply.
	res, body := alice.send(first.ConversationID, "Who was her son?", "text/event-stream")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("SSE: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	events := sseEvents(t, body)
	if len(events) != 2 || events[0][0] != "status" || events[1][0] != "reply" {
		t.Fatalf("events %v", events)
	}
	var third chatResponse
	if err := json.Unmarshal([]byte(events[1][1]), &third); err != nil || third.ConversationID != first.ConversationID || third.Remaining != 7 {
		t.Fatalf("reply event %s (%v)", events[1][1], err)
	}

	// The page shows the whole conversation, each reference linked to the reader.
	res, page := alice.get("/chat/" + first.ConversationID)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Who was Ruth?") || !strings.Contains(page, "Whom did she marry?") ||
		!strings.Contains(page, `href="/read/ruth/4#v`) || !strings.Contains(page, "You can send 7 more messages today.") {
		t.Fatalf("conversation page %d:\n%s", res.StatusCode, page)
	}

	// Someone else: 404 for the page, the message and the delete.
	bob := newVisitor(t, env.URL)
	if res, _ := bob.get("/chat/" + first.ConversationID); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another visitor reading: %d", res.StatusCode)
	}
	if res, body := bob.send(first.ConversationID, "Hello?", "application/json"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another visitor posting: %d %s", res.StatusCode, body)
	}
	if res, _ := bob.postForm("/chat/"+first.ConversationID+"/delete", url.Values{}); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another visitor deleting: %d", res.StatusCode)
	}
	if _, page := bob.get("/chat"); strings.Contains(page, "Who was Ruth?") {
		t.Fatal("another visitor's list shows the conversation")
	}

	// No CSRF token, no message.
	req, _ := http.NewRequest("POST", env.URL+"/chat/messages", strings.NewReader(`{"message":"Who was Naomi?"}`))
	req.Header.Set("Content-Type", "application/json")
	if res, body := alice.do(req); res.StatusCode != http.StatusForbidden {
		t.Fatalf("without X-CSRF-Token: %d %s", res.StatusCode, body)
	}
	if res, body := alice.send("", "", "application/json"); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("empty message: %d %s", res.StatusCode, body)
	}

	// Without JavaScript: a form post, answered with a redirect.
	res, _ = alice.postForm("/chat/messages", url.Values{"message": {"What is faith?"}})
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/chat/chat_") || !strings.HasSuffix(loc, "#turn-1") {
		t.Fatalf("form post: %d %s", res.StatusCode, loc)
	}

	// A question about a word's meaning: the reply carries the Strong's
	// entry, and the conversation's page shows it.
	word := alice.chat("", "What does agape mean?")
	if len(word.Reply.Words) != 1 || word.Reply.Words[0].Strongs != "G26" || word.Reply.Words[0].Lemma != "ἀγάπη" || first.Reply.Words == nil || len(first.Reply.Words) != 0 {
		t.Fatalf("word reply words %+v (first reply's %+v)", word.Reply.Words, first.Reply.Words)
	}
	if res, page := alice.get("/chat/" + word.ConversationID); res.StatusCode != http.StatusOK || !strings.Contains(page, "Strong&#39;s G26") || !strings.Contains(page, "ἀγάπη") {
		t.Fatalf("word conversation page %d:\n%s", res.StatusCode, page)
	}

	// Delete.
	res, _ = alice.postForm("/chat/"+first.ConversationID+"/delete", url.Values{})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/chat?deleted=1" {
		t.Fatalf("delete: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := alice.get("/chat/" + first.ConversationID); res.StatusCode != http.StatusNotFound {
		t.Fatalf("after delete: %d", res.StatusCode)
	}

	// Nothing of the conversation reached the logs.
	for _, secret := range []string{"Ruth", "marry", "faith", first.Reply.Answer[:20]} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the logs hold %q", secret)
		}
	}
	// Nor the public answers table.
	var n int
	if err := env.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM answers`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d public answers stored for chat replies (%v)", n, err)
	}
}

func sseEvents(t *testing.T, body string) [][2]string {
	t.Helper()
	var out [][2]string
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 1<<20)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = line[7:]
		case strings.HasPrefix(line, "data: "):
			out = append(out, [2]string{name, line[6:]})
		}
	}
	return out
}

// TestChatQuota: the chat's quota per visitor, and per address across
// visitors (clearing cookies does not reset it), with a clear 429.
func TestChatQuota(t *testing.T) {
	t.Parallel()
	env := webtest.StartConfig(t, web.Config{ChatMessagesPerDay: 2, ChatMessagesPerAddressPerDay: 3}, nil)
	a := newVisitor(t, env.URL)
	r := a.chat("", "What is love?")
	if r.Remaining != 1 {
		t.Fatalf("remaining %d", r.Remaining)
	}
	a.chat(r.ConversationID, "What is hope?")
	res, body := a.send(r.ConversationID, "What is faith?", "application/json")
	var e web.ErrorBody
	if res.StatusCode != http.StatusTooManyRequests || json.Unmarshal([]byte(body), &e) != nil || e.Error.Code != "quota_exceeded" ||
		!strings.Contains(e.Error.Message, "today's chat messages") || res.Header.Get("Retry-After") == "" {
		t.Fatalf("over the visitor quota: %d %s", res.StatusCode, body)
	}
	res, page := a.postForm("/chat/messages", url.Values{"message": {"What is faith?"}})
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(page, "today&#39;s chat messages") || !strings.Contains(page, "You can send 0 more messages today.") {
		t.Fatalf("form over the quota: %d\n%s", res.StatusCode, page)
	}

	// A fresh cookie on the same address has what the address has left.
	b := newVisitor(t, env.URL)
	if _, page := b.get("/chat"); !strings.Contains(page, "You can send 1 more message today.") {
		t.Fatalf("new visitor's page:\n%s", page)
	}
	b.chat("", "What is grace?")
	if res, body := b.send("", "What is mercy?", "application/json"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("over the address quota: %d %s", res.StatusCode, body)
	}
}

// TestReports: "Report this answer" for a public answer and a chat reply,
// private to the reporter's conversation, throttled per address, listed
// for administrators only.
func TestReports(t *testing.T) {
	t.Parallel()
	env := webtest.StartConfig(t, web.Config{ReportsPerHour: 2}, nil)
	ctx := context.Background()
	a := newVisitor(t, env.URL)
	r := a.chat("", "Who was Ruth?")
	if !strings.HasPrefix(r.Reply.ReportURL, "/report?message=msg_") {
		t.Fatalf("report link %q", r.Reply.ReportURL)
	}
	if res, page := a.get(r.Reply.ReportURL); res.StatusCode != http.StatusOK || !strings.Contains(page, "Who was Ruth?") {
		t.Fatalf("report form %d", res.StatusCode)
	}
	b := newVisitor(t, env.URL)
	if res, _ := b.get(r.Reply.ReportURL); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another visitor's reply: %d", res.StatusCode)
	}
	msgID := strings.TrimPrefix(r.Reply.ReportURL, "/report?message=")

	res, page := a.postForm("/report", url.Values{"message": {msgID}, "reason": {"bogus"}})
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(page, "Choose a reason") {
		t.Fatalf("bad reason: %d", res.StatusCode)
	}
	res, _ = a.postForm("/report", url.Values{"message": {msgID}, "reason": {"other"}, "details": {strings.Repeat("x", 1001)}})
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("long details: %d", res.StatusCode)
	}
	res, page = a.postForm("/report", url.Values{"message": {msgID}, "reason": {"unhelpful"}, "details": {"It does not say whom."}})
	if res.StatusCode != http.StatusCreated || !strings.Contains(page, "Thank you") {
		t.Fatalf("report: %d\n%s", res.StatusCode, page)
	}
	// Without the form's token it is refused.
	req, _ := http.NewRequest("POST", env.URL+"/report", strings.NewReader(url.Values{"message": {msgID}, "reason": {"other"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if res, _ := a.do(req); res.StatusCode != http.StatusForbidden {
		t.Fatalf("report without CSRF: %d", res.StatusCode)
	}

	// A public answer from the Ask page.
	res, _ = a.postForm("/ask", url.Values{"question": {"What is faith?"}})
	answer := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(answer, "/answers/ans_") {
		t.Fatalf("ask: %d %s", res.StatusCode, answer)
	}
	if _, page := a.get(answer); !strings.Contains(page, `href="/report?answer=`) || !strings.Contains(page, `href="/read/`) {
		t.Fatalf("answer page has no report or reader link:\n%s", page)
	}
	res, _ = b.postForm("/report", url.Values{"answer": {strings.TrimPrefix(answer, "/answers/")}, "reason": {"inaccurate"}})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("report of an answer: %d", res.StatusCode)
	}
	// The third report from this address within the hour is throttled.
	res, page = b.postForm("/report", url.Values{"answer": {strings.TrimPrefix(answer, "/answers/")}, "reason": {"other"}})
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(page, "2 reports an hour") {
		t.Fatalf("throttle: %d", res.StatusCode)
	}

	rs, err := env.Store.ListReports(ctx, 10)
	if err != nil || len(rs) != 2 || rs[0].Kind != store.ReportAnswer || rs[1].Kind != store.ReportChat ||
		rs[1].Question != "Who was Ruth?" || rs[1].Details != "It does not say whom." {
		t.Fatalf("stored reports %+v %v", rs, err)
	}

	// The admin page: sign-in for strangers, 404 for others, the list for administrators.
	if res, _ := a.get("/admin/reports"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("signed out: %d", res.StatusCode)
	}
	signIn := func(v *visitor, admin bool) {
		acct, err := env.Store.CreateAccount(ctx, "reports-"+v.csrf[:8]+"@example.com", "", store.PlanFree, admin)
		if err != nil {
			t.Fatal(err)
		}
		token, _, err := env.Store.CreateSession(ctx, acct.ID, time.Now(), time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(env.URL)
		v.c.Jar.SetCookies(u, []*http.Cookie{{Name: "selah_session", Value: token, Path: "/"}})
	}
	signIn(b, false)
	if res, _ := b.get("/admin/reports"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("non-admin: %d", res.StatusCode)
	}
	signIn(a, true)
	if res, page := a.get("/admin/reports"); res.StatusCode != http.StatusOK || !strings.Contains(page, "It does not say whom.") {
		t.Fatalf("admin page %d:\n%s", res.StatusCode, page)
	}
}

func TestReader(t *testing.T) {
	t.Parallel()
	env := webtest.Start(t, nil)
	v := &visitor{t: t, base: env.URL, c: &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	res, page := v.get("/read/john/3")
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `id="v16"`) || !strings.Contains(page, "For God so loved the world") ||
		!strings.Contains(page, `href="/read/john/2"`) || !strings.Contains(page, `href="/read/john/4"`) {
		t.Fatalf("John 3: %d\n%s", res.StatusCode, page)
	}
	for path, want := range map[string][]string{
		"/read/malachi/4":         {`href="/read/malachi/3"`, `href="/read/matthew/1"`},
		"/read/genesis/1":         {`href="/read/genesis/2"`},
		"/read/song-of-solomon/2": {`href="/read/song-of-solomon/1"`, `id="v1"`},
		"/read/revelation/22":     {`href="/read/revelation/21"`, "Amen."},
	} {
		res, page := v.get(path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s lacks %s", path, w)
			}
		}
	}
	if _, page := v.get("/read/genesis/1"); strings.Contains(page, `rel="prev"`) {
		t.Error("Genesis 1 has a previous chapter")
	}
	for path, loc := range map[string]string{
		"/read/John/3":                "/read/john/3",
		"/read/1%20Corinthians/13":    "/read/1-corinthians/13",
		"/read/Song%20of%20Solomon/1": "/read/song-of-solomon/1",
	} {
		if res, _ := v.get(path); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != loc {
			t.Errorf("%s: %d %s, want a redirect to %s", path, res.StatusCode, res.Header.Get("Location"), loc)
		}
	}
	for _, path := range []string{"/read/john/22", "/read/john/0", "/read/john/x", "/read/nobook/1", "/read/John/99"} {
		res, page := v.get(path)
		if res.StatusCode != http.StatusNotFound || !strings.Contains(page, "no such chapter") {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
	}
}

// TestChatPassageFollowUp: a verse named alone in a conversation is of
// the passage the last reply cited.
func TestChatPassageFollowUp(t *testing.T) {
	t.Parallel()
	env := webtest.StartConfig(t, web.Config{Version: "chat-test", ChatMessagesPerDay: 10}, slog.New(slog.DiscardHandler))
	v := newVisitor(t, env.URL)
	first := v.chat("", "What does John 3:16 mean?")
	if got := refsOf(first); len(got) != 1 || got[0] != "John 3:16" {
		t.Fatalf("first reply cites %v, want [John 3:16]", got)
	}
	second := v.chat(first.ConversationID, "And verse 17?")
	if got := refsOf(second); len(got) != 1 || got[0] != "John 3:17" {
		t.Fatalf("the follow-up cites %v, want [John 3:17]", got)
	}
}
