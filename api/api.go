// Package api holds the JSON shapes of selah's HTTP API (/api/v1, described
// by web/openapi.yaml): plain structs with no behaviour beyond building a
// cited passage, shared by the handlers (web), the workers that compute
// search and ask bodies (worker), the Go client (web/client) and the MCP
// server (mcp). One definition, so the server, the client and the document
// cannot drift apart; it imports nothing heavier than corpus, so a client
// of the API does not build Fiber, pgx, Asynq or the retrieval pipeline.
package api

import (
	"net/url"
	"strings"

	"github.com/selahdev/selah/corpus"
)

// KJV is the translation of every text the API serves.
const KJV = "KJV"

// ScriptureURL is the API link of a passage: /api/v1/scripture?ref=.
// Links in bodies are paths, not absolute URLs, so they hold behind any
// proxy or host name.
func ScriptureURL(ref string) string {
	return "/api/v1/scripture?ref=" + url.QueryEscape(ref)
}

// TopicURL is the API link of a topic hub.
func TopicURL(slug string) string { return "/api/v1/topics/" + slug }

// CitedPassage is a passage an answer cites or a topic hub gathers: the
// canonical reference with its KJV text and its /scripture link.
type CitedPassage struct {
	Reference   string `json:"reference"` // canonical, "John 3:16" or "Matthew 5:3-5"
	Book        string `json:"book"`
	Chapter     int    `json:"chapter"`
	VerseStart  int    `json:"verseStart"`
	VerseEnd    int    `json:"verseEnd"`
	Text        string `json:"text"` // the verses' text joined with spaces
	Translation string `json:"translation"`
	URL         string `json:"url"`
}

// Cite is the one constructor of a CitedPassage: ref (a range within one
// chapter) with the KJV text of its verses, in order, joined with spaces.
func Cite(ref corpus.Reference, texts ...string) CitedPassage {
	r := ref.String()
	return CitedPassage{Reference: r, Book: ref.Book.Name, Chapter: ref.StartChapter,
		VerseStart: ref.StartVerse, VerseEnd: ref.EndVerse, Text: strings.Join(texts, " "),
		Translation: KJV, URL: ScriptureURL(r)}
}

// TopicLink points to a topic hub.
type TopicLink struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// LinkTopic is the API link of the hub slug titled title.
func LinkTopic(slug, title string) TopicLink {
	return TopicLink{Slug: slug, Title: title, URL: TopicURL(slug)}
}
