package web

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
)

// usageOf reads the account's standing against plan p.
func (s *Server) usageOf(c *fiber.Ctx, accountID int64, p store.Plan) (api.UsageResponse, error) {
	l := planLimits(p)
	u, err := s.limits.Usage(c.UserContext(), accountID, l)
	if err != nil {
		return api.UsageResponse{}, limitsUnavailable(c, err)
	}
	now := s.now()
	intp := func(n int) *int { return &n }
	limited := func(limit, remaining int) api.LimitUsage {
		if limit == limits.Unlimited || limit < 0 {
			return api.LimitUsage{}
		}
		return api.LimitUsage{Limit: intp(limit), Remaining: intp(max(remaining, 0))}
	}
	until := func(lu api.LimitUsage, t time.Time) api.LimitUsage {
		if lu.Limit != nil {
			t = t.UTC().Truncate(time.Second)
			lu.ResetAt, lu.ResetSeconds = &t, intp(int(max(t.Sub(now)+time.Second-1, 0)/time.Second))
		}
		return lu
	}
	res := api.UsageResponse{Plan: p.Name}
	res.RequestsPerMinute = limited(u.Rate.Limit, u.Rate.Remaining)
	if res.RequestsPerMinute.Limit != nil {
		secs := u.Rate.ResetSeconds()
		t := now.Add(time.Duration(secs) * time.Second).UTC().Truncate(time.Second)
		res.RequestsPerMinute.ResetAt, res.RequestsPerMinute.ResetSeconds = &t, &secs
	}
	res.ConcurrentRequests = limited(p.ConcurrentRequests, p.ConcurrentRequests-u.InFlight)
	if res.ConcurrentRequests.Limit != nil {
		res.ConcurrentRequests.InUse = intp(u.InFlight)
	}
	res.AsksToday = until(limited(p.AsksPerDay, u.Quota.Daily), u.DayEnds)
	res.AsksThisMonth = until(limited(p.AsksPerMonth, u.Quota.Monthly), u.MonthEnds)
	return res, nil
}

// usage serves GET /usage. The figures include this request: it is
// counted against the minute and holds one of the concurrent slots.
func (s *Server) usage(c *fiber.Ctx) error {
	p, err := principal(c)
	if err != nil {
		return err
	}
	res, err := s.usageOf(c, p.AccountID, p.Plan)
	if err != nil {
		return err
	}
	res.RequestID = RequestID(c)
	return c.JSON(res)
}
