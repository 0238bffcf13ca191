package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
	"github.com/selahdev/selah/web/reqlog"
)

// "Report this answer": a visitor reports a public answer or a chat reply
// with a reason and optional free text. Reports are private: stored in
// Postgres, read by administrators (/admin/reports, selah reports list),
// never served by the API. Each client address may send ReportsPerHour.

// DefaultReportsPerHour is how many reports one client address may send
// per hour.
const DefaultReportsPerHour = 10

const reportQuotaName = "reports"

// reportReasons label the reasons of store.ReportReasons on the form.
var reportReasons = []reportReason{
	{"inaccurate", "It misquotes or misreads Scripture"},
	{"unhelpful", "It does not answer the question"},
	{"offensive", "It is offensive or harmful"},
	{"other", "Something else"},
}

type reportReason struct{ Value, Label string }

// reportURL is the report form of an answer ("answer") or a chat reply
// ("message").
func reportURL(kind, id string) string {
	return "/report?" + kind + "=" + url.QueryEscape(id)
}

func (s *Server) reportRoutes() {
	s.app.Get("/report", s.page(s.reportForm)...)
	s.app.Post("/report", s.form(s.sendReport)...)
	s.app.Get("/admin/reports", pageHeaders, s.sessions.RequireAdmin, s.adminReports)
}

type reportPage struct {
	Kind      string // "answer" or "message": the form field naming the subject
	SubjectID string
	Question  string
	Answer    string
	Reasons   []reportReason
	Reason    string
	Details   string
	Error     string
	Done      bool
	BackURL   string
	Max       int
}

var errNoSuchReportSubject = selah.Errorf(selah.ENOTFOUND, "There is no such answer to report.")

// reportSubject finds what the form reports: a public answer, or a reply in
// one of the visitor's own conversations.
func (s *Server) reportSubject(c *fiber.Ctx, answerID, messageID string) (reportPage, store.Report, error) {
	p := reportPage{Reasons: reportReasons, Max: store.MaxReportDetails}
	switch {
	case answerID != "":
		a, err := s.store.AnswerByID(c.UserContext(), answerID)
		if errors.Is(err, selah.ErrNotFound) {
			return p, store.Report{}, errNoSuchReportSubject
		}
		if err != nil {
			return p, store.Report{}, err
		}
		p.Kind, p.SubjectID, p.Question, p.Answer, p.BackURL = "answer", a.ID, a.Question, a.Answer, "/answers/"+a.ID
		return p, store.Report{Kind: store.ReportAnswer, SubjectID: a.ID, Question: a.Question, Answer: a.Answer}, nil
	case messageID != "":
		visitor, err := s.visitorOf(c, false)
		if err != nil {
			return p, store.Report{}, err
		}
		if visitor == "" {
			return p, store.Report{}, errNoSuchReportSubject
		}
		t, err := s.store.ChatTurnOf(c.UserContext(), visitor, messageID)
		if errors.Is(err, selah.ErrNotFound) {
			return p, store.Report{}, errNoSuchReportSubject
		}
		if err != nil {
			return p, store.Report{}, err
		}
		p.Kind, p.SubjectID, p.Question, p.Answer, p.BackURL = "message", t.ID, t.Question, t.Answer, "/chat"
		return p, store.Report{Kind: store.ReportChat, SubjectID: t.ID, Question: t.Question, Answer: t.Answer}, nil
	}
	return p, store.Report{}, errNoSuchReportSubject
}

// reportForm serves GET /report?answer={id} or ?message={id}.
func (s *Server) reportForm(c *fiber.Ctx) error {
	p, _, err := s.reportSubject(c, c.Query("answer"), c.Query("message"))
	if err != nil {
		return err
	}
	return s.renderPage(c, fiber.StatusOK, "report", p)
}

// sendReport serves POST /report.
func (s *Server) sendReport(c *fiber.Ctx) error {
	p, rep, err := s.reportSubject(c, c.FormValue("answer"), c.FormValue("message"))
	if err != nil {
		return err
	}
	p.Reason, p.Details = c.FormValue("reason"), strings.TrimSpace(c.FormValue("details"))
	show := func(status int, msg string) error {
		p.Error = msg
		return s.renderPage(c, status, "report", p)
	}
	if !slices.Contains(store.ReportReasons, p.Reason) {
		return show(fiber.StatusBadRequest, "Choose a reason.")
	}
	if n := utf8.RuneCountInString(p.Details); n > store.MaxReportDetails {
		return show(fiber.StatusBadRequest, fmt.Sprintf("The details are %d characters long; the limit is %d.", n, store.MaxReportDetails))
	}
	limit := s.cfg.ReportsPerHour
	if _, err := s.limits.Take(c.UserContext(), reportQuotaName, time.Hour, []limits.Subject{{ID: "addr:" + c.IP(), Limit: limit}}); err != nil {
		var ae *selah.Error
		if errors.As(err, &ae) && ae.Code == selah.EQUOTA {
			setRetryAfter(c, ae)
			return show(fiber.StatusTooManyRequests, fmt.Sprintf("Thank you, but %d reports an hour is the most we take from one address. Please try again within the hour.", limit))
		}
		return limitsUnavailable(c, err)
	}
	rep.Reason, rep.Details = p.Reason, p.Details
	saved, err := s.store.SaveReport(c.UserContext(), rep)
	if err != nil {
		return err
	}
	reqlog.From(c).Info("report received", slog.Int64("reportId", saved.ID), slog.String("kind", saved.Kind))
	p.Done = true
	return s.renderPage(c, fiber.StatusCreated, "report", p)
}

type adminReportsPage struct {
	Reports []store.Report
}

// adminReportsLimit is how many reports the admin page lists.
const adminReportsLimit = 200

// adminReports serves GET /admin/reports to administrators.
func (s *Server) adminReports(c *fiber.Ctx) error {
	rs, err := s.store.ListReports(c.UserContext(), adminReportsLimit)
	if err != nil {
		return err
	}
	return s.renderPage(c, fiber.StatusOK, "admin_reports", adminReportsPage{Reports: rs})
}
