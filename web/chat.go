package web

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
	"github.com/selahdev/selah/web/reqlog"
)

// The website's chat (/chat): a visitor converses in turns, each reply a
// grounded answer from the same pipeline and queue as /ask, a follow-up
// read in its conversation (the ask job's context). Conversations live in
// Postgres, private to the visitor's cookie (selah_visitor, a random
// token; the database keeps its SHA-256): anyone else gets 404 for them.
// The chat has its own daily quota per visitor and per client address,
// apart from the anonymous Ask quota and from API keys. The API reads none
// of it, and no message or reply is ever logged.
const (
	visitorCookie = "selah_visitor"
	visitorTTL    = 365 * 24 * time.Hour

	// DefaultChatMessagesPerDay and DefaultChatMessagesPerAddressPerDay are
	// the chat's quotas per UTC day: per visitor, and per client address
	// (so clearing cookies does not reset it; several people behind one
	// address share the larger figure).
	DefaultChatMessagesPerDay           = 20
	DefaultChatMessagesPerAddressPerDay = 60

	chatQuotaName = "chat"
	// chatListLimit is how many conversations the chat page lists.
	chatListLimit = 20
)

func (s *Server) chatRoutes() {
	s.app.Get("/read/:book/:chapter", s.page(s.readChapter)...)
	s.app.Get("/chat", s.page(s.chatPage)...)
	s.app.Post("/chat/messages", s.form(s.chatMessage)...)
	s.app.Get("/chat/:id", s.page(s.chatPage)...)
	s.app.Post("/chat/:id/delete", s.form(s.deleteChat)...)
	s.reportRoutes()
}

// visitorOf returns the visitor token of the request; with create, a
// visitor without one gets one (and the cookie), else "" is returned.
func (s *Server) visitorOf(c *fiber.Ctx, create bool) (string, error) {
	if t := c.Cookies(visitorCookie); selah.WellFormedToken(t) {
		return strings.Clone(t), nil
	}
	if t, ok := c.Locals(visitorCookie).(string); ok {
		return t, nil
	}
	if !create {
		return "", nil
	}
	t := selah.NewToken()
	c.Cookie(&fiber.Cookie{
		Name:     visitorCookie,
		Value:    t,
		Path:     "/",
		MaxAge:   int(visitorTTL.Seconds()),
		Secure:   s.sessions.SecureCookies(c),
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode,
	})
	c.Locals(visitorCookie, t)
	return t, nil
}

// chatSubjects are what a chat message counts against: the visitor (by a
// hash of the token: Redis never sees the token) and the client address.
func (s *Server) chatSubjects(c *fiber.Ctx, visitor string) []limits.Subject {
	sum := sha256.Sum256([]byte(visitor))
	return []limits.Subject{
		{ID: "visitor:" + hex.EncodeToString(sum[:16]), Limit: s.cfg.ChatMessagesPerDay},
		{ID: "addr:" + c.IP(), Limit: s.cfg.ChatMessagesPerAddressPerDay},
	}
}

// chatLeft is how many chat messages the visitor has left today.
func (s *Server) chatLeft(c *fiber.Ctx, visitor string) int {
	n, _, err := s.limits.Left(c.UserContext(), chatQuotaName, 24*time.Hour, s.chatSubjects(c, visitor))
	if err != nil {
		return 0
	}
	return n
}

// chatSpent is the chat's 429: the quota with the time it comes back.
func chatSpent(err error) error {
	var ae *selah.Error
	if !errors.As(err, &ae) || ae.Code != selah.EQUOTA {
		return err
	}
	return &selah.Error{Code: selah.EQUOTA, RetryAfter: ae.RetryAfter,
		Message: "You have used today's chat messages. The chat opens again after midnight UTC; the Ask page and the API have quotas of their own."}
}

// chatReference is a cited passage in a chat reply, with its reader link.
type chatReference struct {
	api.CitedPassage
	ReaderURL string `json:"readerUrl"`
}

// chatReply is one reply as the chat's JSON and pages show it.
type chatReply struct {
	ID         string          `json:"id"`
	Answer     string          `json:"answer"`
	Summary    string          `json:"summary"`
	References []chatReference `json:"references"`
	Topics     []api.TopicLink `json:"topics"`
	// Words are the Strong's entries of a word-meaning reply, as the
	// API's /ask gives them.
	Words     []api.WordEntry `json:"words"`
	ReportURL string          `json:"reportUrl"`
}

// chatMessageResponse is the body of POST /chat/messages (JSON), and the
// data of its "reply" event (server-sent events).
type chatMessageResponse struct {
	ConversationID string    `json:"conversationId"`
	Reply          chatReply `json:"reply"`
	Remaining      int       `json:"remaining"`
}

type chatMessageRequest struct {
	ConversationID *string `json:"conversationId"`
	Message        *string `json:"message"`
}

// chatTurnView is one turn on the chat page.
type chatTurnView struct {
	Seq      int
	Question string
	Reply    chatReply
}

type chatPageData struct {
	ConversationID string
	Turns          []chatTurnView
	Conversations  []store.ConversationSummary
	Left           int
	Message        string // the message to show again after an error
	Error          string
	Notice         string
}

// chatPage serves GET /chat (a new conversation) and GET /chat/{id}.
func (s *Server) chatPage(c *fiber.Ctx) error {
	visitor, err := s.visitorOf(c, true)
	if err != nil {
		return err
	}
	page := chatPageData{Left: s.chatLeft(c, visitor)}
	if c.Query("deleted") == "1" {
		page.Notice = "The conversation is deleted."
	}
	if id := c.Params("id"); id != "" {
		if page, err = s.loadChat(c, visitor, id, page); err != nil {
			return err
		}
	}
	if page.Conversations, err = s.store.ConversationsOf(c.UserContext(), visitor, chatListLimit); err != nil {
		return err
	}
	return s.renderPage(c, fiber.StatusOK, "chat", page)
}

var errNoSuchConversation = selah.Errorf(selah.ENOTFOUND, "There is no such conversation.")

// loadChat fills page with the visitor's conversation id.
func (s *Server) loadChat(c *fiber.Ctx, visitor, id string, page chatPageData) (chatPageData, error) {
	conv, err := s.store.ConversationOf(c.UserContext(), visitor, id)
	if errors.Is(err, selah.ErrNotFound) {
		return page, errNoSuchConversation
	}
	if err != nil {
		return page, err
	}
	page.ConversationID = conv.ID
	for _, t := range conv.Turns {
		r, err := s.storedReply(c.UserContext(), t)
		if err != nil {
			return page, err
		}
		page.Turns = append(page.Turns, chatTurnView{Seq: t.Seq, Question: t.Question, Reply: r})
	}
	return page, nil
}

// storedReply is a stored turn's reply, its passages read from verses.
func (s *Server) storedReply(ctx context.Context, t store.ChatTurn) (chatReply, error) {
	refs := make([]api.CitedPassage, 0, len(t.Refs))
	for _, ref := range t.Refs {
		p, err := s.passage(ctx, ref)
		if err != nil {
			return chatReply{}, err
		}
		refs = append(refs, p)
	}
	return newChatReply(t.ID, t.Answer, t.Summary, refs, t.Topics, t.Words), nil
}

// newChatReply is a reply as the chat shows it, fresh or stored: each
// passage with its reader link, each topic with its page on the site.
func newChatReply(id, answer, summary string, refs []api.CitedPassage, topics []store.AnswerTopic, words []api.WordEntry) chatReply {
	r := chatReply{ID: id, Answer: answer, Summary: summary, References: []chatReference{},
		Topics: []api.TopicLink{}, Words: words, ReportURL: reportURL("message", id)}
	if r.Words == nil {
		r.Words = []api.WordEntry{}
	}
	for _, p := range refs {
		r.References = append(r.References, chatReference{CitedPassage: p, ReaderURL: readerURL(p.Reference)})
	}
	for _, tp := range topics {
		r.Topics = append(r.Topics, api.TopicLink{Slug: tp.Slug, Title: tp.Title, URL: "/topics/" + tp.Slug})
	}
	return r
}

// chatMessage serves POST /chat/messages in three forms: JSON in and out
// (the page's script, or any client with the cookie and CSRF token), JSON
// in and server-sent events out (Accept: text/event-stream: a "status"
// event at once, then "reply" or "error"), and a plain form post without
// JavaScript, answered by a redirect to the conversation.
func (s *Server) chatMessage(c *fiber.Ctx) error {
	isForm := !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationJSON)
	var convID, msg string
	if isForm {
		convID, msg = strings.TrimSpace(c.FormValue("conversationId")), strings.TrimSpace(c.FormValue("message"))
	} else {
		var req chatMessageRequest
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
		if req.ConversationID != nil {
			convID = strings.TrimSpace(*req.ConversationID)
		}
		req.Message = trimmed(req.Message)
		m, err := requiredText("message", req.Message, selah.MaxQuestionLength)
		if err != nil {
			return err
		}
		msg = m
	}
	visitor, err := s.visitorOf(c, true)
	if err != nil {
		return err
	}
	// A form post's errors are shown on the chat page, with the message
	// kept in the box.
	formError := func(status int, err error) error {
		page := chatPageData{Message: msg, Error: selah.ErrorMessage(err), Left: s.chatLeft(c, visitor)}
		if convID != "" {
			if page, err = s.loadChat(c, visitor, convID, page); err != nil {
				return err
			}
		}
		if page.Conversations, err = s.store.ConversationsOf(c.UserContext(), visitor, chatListLimit); err != nil {
			return err
		}
		return s.renderPage(c, status, "chat", page)
	}
	if isForm && msg == "" {
		return formError(fiber.StatusBadRequest, selah.Errorf(selah.EINVALID, "Please write a message."))
	}
	if n := len([]rune(msg)); isForm && n > selah.MaxQuestionLength {
		return formError(fiber.StatusBadRequest, selah.Errorf(selah.EINVALID, "The message is %d characters long; the limit is %d.", n, selah.MaxQuestionLength))
	}

	args := jobs.AskArgs{Question: msg, MaxReferences: selah.DefaultMaxReferences, Offline: true, Source: jobs.SourceChat}
	if convID != "" {
		conv, err := s.store.ConversationOf(c.UserContext(), visitor, convID)
		if errors.Is(err, selah.ErrNotFound) {
			return errNoSuchConversation
		}
		if err != nil {
			return err
		}
		if len(conv.Turns) >= store.MaxChatTurns {
			err := selah.Errorf(selah.ECONFLICT, "This conversation has %d messages, the most one may hold. Start a new conversation.", store.MaxChatTurns)
			if isForm {
				return formError(fiber.StatusConflict, err)
			}
			return err
		}
		for _, t := range conv.Turns[max(0, len(conv.Turns)-pipeline.MaxContextTurns):] {
			turn := jobs.Turn{Question: t.Question}
			for _, r := range t.Refs {
				turn.References = append(turn.References, r.Reference)
			}
			args.Context = append(args.Context, turn)
		}
	}

	taken, err := s.limits.Take(c.UserContext(), chatQuotaName, 24*time.Hour, s.chatSubjects(c, visitor))
	if err != nil {
		if selah.ErrorCode(err) == selah.EQUOTA {
			s.metrics.rejected(selah.EQUOTA)
			if isForm {
				var ae *selah.Error
				errors.As(err, &ae)
				setRetryAfter(c, ae)
				return formError(fiber.StatusTooManyRequests, chatSpent(err))
			}
			return chatSpent(err)
		}
		return limitsUnavailable(c, err)
	}
	reply := &chatTurnJob{s: s, visitor: visitor, convID: convID, args: args, taken: taken,
		requestID: RequestID(c), log: reqlog.From(c)}

	if strings.Contains(c.Get(fiber.HeaderAccept), "text/event-stream") && !isForm {
		c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Set("X-Accel-Buffering", "no") // nginx: pass events through at once
		c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
			// The request's context ends with the handler; the job gets
			// its own deadline instead.
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.AskTimeout+5*time.Second)
			defer cancel()
			writeEvent(w, "status", map[string]string{"state": "thinking"})
			res, err := reply.run(ctx)
			if err != nil {
				writeEvent(w, "error", ErrorBody{Error: ErrorDetail{Code: selah.ErrorCode(err), Message: selah.ErrorMessage(err), RequestID: reply.requestID}})
				return
			}
			writeEvent(w, "reply", res)
		})
		return nil
	}

	res, err := reply.run(c.UserContext())
	if err != nil {
		if isForm && selah.ErrorCode(err) != selah.EINTERNAL {
			return formError(StatusOf(selah.ErrorCode(err)), err)
		}
		return err
	}
	if isForm {
		return c.Redirect(fmt.Sprintf("/chat/%s#turn-%d", res.ConversationID, res.seq), fiber.StatusSeeOther)
	}
	return c.JSON(res.chatMessageResponse)
}

func trimmed(p *string) *string {
	if p == nil {
		return nil
	}
	t := strings.TrimSpace(*p)
	return &t
}

// chatTurnJob is one message being answered: the ask job, then the turn
// stored. It needs nothing of the request, so it can run after the handler
// has returned (server-sent events).
type chatTurnJob struct {
	s         *Server
	visitor   string
	convID    string
	args      jobs.AskArgs
	taken     limits.Count
	requestID string
	log       *slog.Logger
}

type chatTurnResult struct {
	chatMessageResponse
	seq int
}

func (j *chatTurnJob) run(ctx context.Context) (res chatTurnResult, err error) {
	defer func() {
		if err != nil {
			// A message that got no reply is not counted.
			gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
			defer cancel()
			if gerr := j.s.limits.GiveBack(gctx, j.taken); gerr != nil {
				j.log.Warn("give back chat message", slog.String("error", gerr.Error()))
			}
		}
	}()
	ans, err := j.s.callAsk(ctx, j.requestID, j.args)
	if err != nil {
		return res, err
	}
	turn := store.ChatTurn{Question: j.args.Question, Answer: ans.Answer, Summary: ans.Summary, Words: ans.Words, Generator: ans.Generator}
	for _, r := range ans.References {
		ref, err := corpus.ParseReference(r.Reference)
		if err != nil {
			return res, fmt.Errorf("web: chat result: reference %q: %w", r.Reference, err)
		}
		turn.Refs = append(turn.Refs, store.AnswerRef{Reference: r.Reference, First: ref.First(), Last: ref.Last()})
	}
	for _, t := range ans.Topics {
		turn.Topics = append(turn.Topics, store.AnswerTopic{Slug: t.Slug, Title: t.Title})
	}
	convID, stored, err := j.s.store.AddChatTurn(ctx, j.visitor, j.convID, turn)
	switch {
	case errors.Is(err, selah.ErrNotFound):
		return res, errNoSuchConversation // deleted while the reply was written
	case errors.Is(err, store.ErrConversationFull):
		return res, selah.Errorf(selah.ECONFLICT, "This conversation is full. Start a new conversation.")
	case err != nil:
		return res, err
	}
	res.ConversationID, res.seq = convID, stored.Seq
	res.Reply = newChatReply(stored.ID, ans.Answer, ans.Summary, ans.References, turn.Topics, turn.Words)
	res.Remaining = j.taken.Remaining
	return res, nil
}

// writeEvent writes one server-sent event and flushes it to the client.
func writeEvent(w *bufio.Writer, event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		b = []byte(`{}`)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	w.Flush()
}

// deleteChat serves POST /chat/{id}/delete.
func (s *Server) deleteChat(c *fiber.Ctx) error {
	visitor, err := s.visitorOf(c, false)
	if err != nil {
		return err
	}
	if visitor == "" {
		return errNoSuchConversation
	}
	err = s.store.DeleteConversation(c.UserContext(), visitor, c.Params("id"))
	if errors.Is(err, selah.ErrNotFound) {
		return errNoSuchConversation
	}
	if err != nil {
		return err
	}
	return c.Redirect("/chat?deleted=1", fiber.StatusSeeOther)
}
