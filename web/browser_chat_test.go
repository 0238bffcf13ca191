package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/web/webtest"
)

// TestBrowserChat drives the chat in headless Chromium with its script: a
// two-turn conversation whose replies arrive as server-sent events, a
// reload that keeps it, the 390 px phone width, the quota message and
// deletion. With SELAH_SCREENSHOTS set to a directory, it saves the chat
// at desktop and phone width there as PNG.
func TestBrowserChat(t *testing.T) {
	requireChromium(t)
	env := webtest.StartConfig(t, web.Config{ChatMessagesPerDay: 3}, nil)
	// The deadline only stops a hung browser: three asked answers and a dozen
	// page loads took 91 s once under the full suite's load on 2 cores, so it
	// is generous rather than a measure of speed.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	bctx := newBrowser(ctx, t)
	do := func(step string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("read %s: %v", sel, err)
		}
		return v
	}
	screenshot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if dir := os.Getenv("SELAH_SCREENSHOTS"); dir != "" {
			if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// fitsWidth checks that the page does not scroll sideways.
	fitsWidth := func(page string, width int) {
		t.Helper()
		w, err := chromedp.Run(bctx, chromedp.Evaluate[int]("document.documentElement.scrollWidth"))
		if err != nil {
			t.Fatal(err)
		}
		if w > width {
			t.Errorf("%s is %d px wide at a %d px viewport", page, w, width)
		}
	}
	turn := func(n int) string { return "#chat-turns > li:nth-child(" + string(rune('0'+n)) + ")" }

	do("open the chat", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(env.URL+"/chat"))
	if left := text("#chat-left"); !strings.Contains(left, "3 more messages") {
		t.Fatalf("quota shown: %q", left)
	}
	do("ask the first question",
		chromedp.SendKeys(chromedp.CSS("#chat-message"), "Who was Ruth?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		chromedp.WaitVisible(chromedp.CSS(turn(1)+" .chat-reply blockquote")))
	do("ask the follow-up",
		chromedp.SendKeys(chromedp.CSS("#chat-message"), "Whom did she marry?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		chromedp.WaitVisible(chromedp.CSS(turn(2)+" .chat-reply blockquote")))
	if refs := text(turn(2) + " .chat-reply"); !strings.Contains(refs, "Ruth 4:") {
		t.Fatalf("the follow-up's reply cites no verse of Ruth 4:\n%s", refs)
	}
	if left := text("#chat-left"); !strings.Contains(left, "1 more message ") {
		t.Fatalf("quota after two messages: %q", left)
	}
	loc, err := chromedp.Run(bctx, chromedp.Location())
	if err != nil || !strings.Contains(loc, "/chat/chat_") {
		t.Fatalf("address after the first reply: %q %v", loc, err)
	}

	do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(turn(2)+" .chat-reply blockquote")))
	if q := text(turn(1) + " .chat-question"); !strings.Contains(q, "Who was Ruth?") {
		t.Fatalf("after reload the first turn is %q", q)
	}
	screenshot("chat-desktop.png")
	do("phone width", chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(turn(2))))
	fitsWidth("/chat at 390 px", 390)
	screenshot("chat-390.png")

	do("use the last message", chromedp.SendKeys(chromedp.CSS("#chat-message"), "Who was her son?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		chromedp.WaitVisible(chromedp.CSS(turn(3)+" .chat-reply blockquote")))
	do("send one too many", chromedp.SendKeys(chromedp.CSS("#chat-message"), "Who was Naomi?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		chromedp.WaitVisible(chromedp.CSS("#chat-error")))
	if msg := text("#chat-error"); !strings.Contains(msg, "today's chat messages") {
		t.Fatalf("quota message: %q", msg)
	}
	screenshot("chat-quota-390.png")

	do("delete the conversation", chromedp.Click(chromedp.CSS("#chat-delete")),
		chromedp.WaitVisible(chromedp.CSS(".notice-success")))
	if n := text(".notice-success"); !strings.Contains(n, "deleted") {
		t.Fatalf("after delete: %q", n)
	}
	do("the old address is gone", chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("h1")))
	if h := text("h1"); !strings.Contains(h, "Not Found") {
		t.Fatalf("the deleted conversation's page says %q", h)
	}

	for _, path := range []string{"/read/john/3", "/read/psalms/119", "/read/song-of-solomon/1"} {
		do("read "+path, chromedp.Navigate(env.URL+path), chromedp.WaitVisible(chromedp.CSS("#v1")))
		fitsWidth(path+" at 390 px", 390)
	}
	screenshot("read-390.png")
}

// TestBrowserChatWord: a reply to a question about a word's meaning shows
// its Strong's entry, written by the page's script from the reply's
// words, in the word's own script.
func TestBrowserChatWord(t *testing.T) {
	requireChromium(t)
	env := webtest.StartConfig(t, web.Config{ChatMessagesPerDay: 3}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := newBrowser(ctx, t)
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(env.URL+"/chat"),
		chromedp.SendKeys(chromedp.CSS("#chat-message"), "What does agape mean?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		chromedp.WaitVisible(chromedp.CSS("#chat-turns .chat-reply .word"))); err != nil {
		t.Fatalf("ask: %v", err)
	}
	word, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#chat-turns .chat-reply .word")))
	if err != nil {
		t.Fatal(err)
	}
	lang, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#chat-turns .chat-reply .word span").lang`))
	if err != nil {
		t.Fatal(err)
	}
	href, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#chat-turns .chat-reply .word a").getAttribute("href")`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(word, "Strong's G26: ἀγάπη agápē, love") || lang != "grc" || href != "/words/G26" {
		t.Fatalf("word shown %q, lang %q, linked to %q", word, lang, href)
	}
}
