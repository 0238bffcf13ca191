package web

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/worker"
	"github.com/selahdev/selah/worker/tasks"
)

// TopicSummary is one hub in GET /topics.
type TopicSummary struct {
	Slug       string `json:"slug"`
	Title      string `json:"title"`
	Summary    string `json:"summary"`
	VerseCount int    `json:"verseCount"`
	URL        string `json:"url"`
}

// TopicListResponse is the body of GET /topics.
type TopicListResponse struct {
	Topics    []TopicSummary `json:"topics"`
	Count     int            `json:"count"`
	RequestID string         `json:"requestId"`
}

// TopicDetailResponse is the body of GET /topics/{slug}: the hub with the
// KJV text of its key passages, in the hub's order, and its related hubs.
type TopicDetailResponse struct {
	Slug       string              `json:"slug"`
	Title      string              `json:"title"`
	Summary    string              `json:"summary"`
	VerseCount int                 `json:"verseCount"`
	Passages   []worker.PassageRef `json:"passages"`
	Related    []worker.TopicLink  `json:"related"`
	RequestID  string              `json:"requestId"`
}

// listTopics serves GET /topics. The hubs are data compiled into the
// binary.
func (s *Server) listTopics(c *fiber.Ctx) error {
	all := topics.All()
	res := TopicListResponse{Topics: make([]TopicSummary, len(all)), Count: len(all), RequestID: RequestID(c)}
	for i, h := range all {
		res.Topics[i] = TopicSummary{Slug: h.Slug, Title: h.Title, Summary: h.Summary,
			VerseCount: len(h.VerseIDs()), URL: tasks.TopicURL(h.Slug)}
	}
	return c.JSON(res)
}

// topic serves GET /topics/{slug}.
func (s *Server) topic(c *fiber.Ctx) error {
	res, err := s.topicDetail(c.UserContext(), c.Params("slug"))
	if err != nil {
		return err
	}
	return s.sendCacheable(c, &res, func(id string) { res.RequestID = id })
}

// topicDetail is a hub with the KJV text of its passages, for the API and
// the website.
func (s *Server) topicDetail(ctx context.Context, slug string) (TopicDetailResponse, error) {
	h, ok := topics.BySlug(slug)
	if !ok {
		return TopicDetailResponse{}, selah.Errorf(selah.ETOPICNOTFOUND, "There is no topic %q. GET /api/v1/topics lists them.", truncate(slug, 60))
	}
	ids := h.VerseIDs()
	verses, err := s.text.VersesByID(ctx, ids)
	if err != nil {
		return TopicDetailResponse{}, err
	}
	text := make(map[corpus.VerseID]string, len(verses))
	for _, v := range verses {
		text[v.ID] = v.Text
	}
	res := TopicDetailResponse{Slug: h.Slug, Title: h.Title, Summary: h.Summary, VerseCount: len(ids),
		Passages: []worker.PassageRef{}, Related: []worker.TopicLink{}}
	for _, r := range h.References() {
		p := pipeline.Reference{Reference: r.String(), Book: r.Book.Name, Chapter: r.StartChapter,
			VerseStart: r.StartVerse, VerseEnd: r.EndVerse, Translation: "KJV"}
		for _, id := range r.VerseIDs() {
			if t, ok := text[id]; ok {
				if p.Text != "" {
					p.Text += " "
				}
				p.Text += t
			}
		}
		if p.Text == "" {
			return res, selah.Errorf(selah.EUNAVAILABLE, "The corpus is not loaded.")
		}
		res.Passages = append(res.Passages, worker.PassageRef{Reference: p, URL: tasks.ScriptureURL(p.Reference)})
	}
	for _, slug := range h.Related {
		if rh, ok := topics.BySlug(slug); ok {
			res.Related = append(res.Related, worker.TopicLink{Slug: rh.Slug, Title: rh.Title, URL: tasks.TopicURL(rh.Slug)})
		}
	}
	return res, nil
}

// siteTopics serves the website's topic index, GET /topics.
func (s *Server) siteTopics(c *fiber.Ctx) error {
	return s.renderPage(c, fiber.StatusOK, "topics", topics.All())
}

// siteTopic serves a hub's page on the website, GET /topics/{slug}.
func (s *Server) siteTopic(c *fiber.Ctx) error {
	res, err := s.topicDetail(c.UserContext(), c.Params("slug"))
	if err != nil {
		return err
	}
	return s.renderPage(c, fiber.StatusOK, "topic", res)
}

// truncate shortens user input echoed in a message.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
