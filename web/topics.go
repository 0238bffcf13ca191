package web

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
)

// listTopics serves GET /topics. The hubs are data compiled into the
// binary.
func (s *Server) listTopics(c *fiber.Ctx) error {
	all := topics.All()
	res := api.TopicListResponse{Topics: make([]api.TopicSummary, len(all)), Count: len(all), RequestID: RequestID(c)}
	for i, h := range all {
		res.Topics[i] = api.TopicSummary{Slug: h.Slug, Title: h.Title, Summary: h.Summary,
			VerseCount: len(h.VerseIDs()), URL: api.TopicURL(h.Slug)}
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
func (s *Server) topicDetail(ctx context.Context, slug string) (api.TopicDetailResponse, error) {
	h, ok := topics.BySlug(slug)
	if !ok {
		return api.TopicDetailResponse{}, selah.Errorf(selah.ETOPICNOTFOUND, "There is no topic %q. GET /api/v1/topics lists them.", truncate(slug, 60))
	}
	ids := h.VerseIDs()
	verses, err := s.text.VersesByID(ctx, ids)
	if err != nil {
		return api.TopicDetailResponse{}, err
	}
	text := make(map[corpus.VerseID]string, len(verses))
	for _, v := range verses {
		text[v.ID] = v.Text
	}
	res := api.TopicDetailResponse{Slug: h.Slug, Title: h.Title, Summary: h.Summary, VerseCount: len(ids),
		Passages: []api.CitedPassage{}, Related: []api.TopicLink{}}
	for _, r := range h.References() {
		var texts []string
		for _, id := range r.VerseIDs() {
			if t, ok := text[id]; ok {
				texts = append(texts, t)
			}
		}
		if len(texts) == 0 {
			return res, selah.Errorf(selah.EUNAVAILABLE, "The corpus is not loaded.")
		}
		res.Passages = append(res.Passages, api.Cite(r, texts...))
	}
	for _, slug := range h.Related {
		if rh, ok := topics.BySlug(slug); ok {
			res.Related = append(res.Related, api.LinkTopic(rh.Slug, rh.Title))
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
