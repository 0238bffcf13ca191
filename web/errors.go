package web

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/reqlog"
)

// statusOf is the one table that maps application error codes to HTTP
// statuses. Codes not listed are internal errors.
var statusOf = map[string]int{
	selah.EINVALID:             http.StatusBadRequest,
	selah.EINVALIDREF:          http.StatusBadRequest,
	selah.EPASSAGETOOLARGE:     http.StatusBadRequest,
	selah.EPASSAGENOTFOUND:     http.StatusNotFound,
	selah.ETOPICNOTFOUND:       http.StatusNotFound,
	selah.EWORDNOTFOUND:        http.StatusNotFound,
	selah.ENOTFOUND:            http.StatusNotFound,
	selah.EMETHOD:              http.StatusMethodNotAllowed,
	selah.EUNSUPPORTEDMEDIA:    http.StatusUnsupportedMediaType,
	selah.ETOOLARGE:            http.StatusRequestEntityTooLarge,
	selah.EHEADERSTOOLARGE:     http.StatusRequestHeaderFieldsTooLarge,
	selah.EREQUESTTIMEOUT:      http.StatusRequestTimeout,
	selah.EMISSINGKEY:          http.StatusUnauthorized,
	selah.EINVALIDKEY:          http.StatusUnauthorized,
	selah.EUNAUTHORIZED:        http.StatusUnauthorized,
	selah.EKEYREVOKED:          http.StatusForbidden,
	selah.EKEYDISABLED:         http.StatusForbidden,
	selah.EKEYEXPIRED:          http.StatusForbidden,
	selah.EACCOUNTDISABLED:     http.StatusForbidden,
	selah.EFORBIDDEN:           http.StatusForbidden,
	selah.ECONFLICT:            http.StatusConflict,
	selah.ERATELIMITED:         http.StatusTooManyRequests,
	selah.ECONCURRENCY:         http.StatusTooManyRequests,
	selah.EQUOTA:               http.StatusTooManyRequests,
	selah.ETIMEOUT:             http.StatusGatewayTimeout,
	selah.EWORKERSUNAVAILABLE:  http.StatusServiceUnavailable,
	selah.EEMBEDDERUNAVAILABLE: http.StatusServiceUnavailable,
	selah.EUNAVAILABLE:         http.StatusServiceUnavailable,
	selah.EINTERNAL:            http.StatusInternalServerError,
}

// StatusOf returns the HTTP status for an application error code.
func StatusOf(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorBody is the JSON shape of every error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the inside of ErrorBody.
type ErrorDetail struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"requestId"`
}

// errorHandler is Fiber's error handler: every error a handler or
// middleware returns, and every error Fiber raises itself (unknown route,
// wrong method, oversized body), becomes the JSON error body here.
func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		err = fromFiber(fe)
	}
	if pub := selah.PublicError(err, "", unreachable); selah.ErrorCode(pub) != selah.ErrorCode(err) {
		reqlog.From(c).Error("dependency unavailable", slog.String("error", err.Error()))
		err = pub
	}
	if RequestID(c) == "" {
		// fasthttp refused the request before any middleware ran
		// (oversized headers, a malformed request line).
		id := newRequestID()
		c.Locals(localRequestID, id)
		c.Set(fiber.HeaderXRequestID, id)
	}
	code := selah.ErrorCode(err)
	status := StatusOf(code)
	if status >= 500 && code == selah.EINTERNAL {
		reqlog.From(c).Error("request failed", slog.String("error", err.Error()))
	}
	var ae *selah.Error
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
	}
	if status == http.StatusUnauthorized {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="selah"`)
	}
	if wantsErrorPage(c, status) {
		return s.renderErrorPage(c, status, pageMessage(err))
	}
	return c.Status(status).JSON(ErrorBody{Error: ErrorDetail{
		Code:      code,
		Message:   selah.ErrorMessage(err),
		RequestID: RequestID(c),
	}})
}

// unreachable reports whether err means the database or Redis could not
// be reached: selah.PublicError answers such errors 503.
func unreachable(err error) bool { return store.Unavailable(err) || isRedisDown(err) }

// isRedisDown reports whether err is Redis unreachable: a network error
// or go-redis's closed-pool error.
func isRedisDown(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, redis.ErrClosed)
}

func fromFiber(fe *fiber.Error) error {
	switch fe.Code {
	case fiber.StatusNotFound:
		return selah.Errorf(selah.ENOTFOUND, "No such endpoint. See /api/v1/openapi.json for the API.")
	case fiber.StatusMethodNotAllowed:
		return selah.Errorf(selah.EMETHOD, "Method not allowed on this endpoint.")
	case fiber.StatusRequestEntityTooLarge:
		return selah.Errorf(selah.ETOOLARGE, "Request body too large.")
	case fiber.StatusUnsupportedMediaType:
		return selah.Errorf(selah.EUNSUPPORTEDMEDIA, "Content-Type must be application/json.")
	case fiber.StatusBadRequest:
		return selah.Errorf(selah.EINVALID, "Malformed request.")
	case fiber.StatusRequestHeaderFieldsTooLarge:
		return selah.Errorf(selah.EHEADERSTOOLARGE, "Request headers too large.")
	case fiber.StatusRequestTimeout:
		// fasthttp gave up reading a request the client did not finish
		// within the read timeout: not a malformed one.
		return selah.Errorf(selah.EREQUESTTIMEOUT, "The request was not received in time.")
	default:
		if fe.Code >= 500 {
			return fe
		}
		return selah.Errorf(selah.EINVALID, "%s", fe.Message)
	}
}

// setRetryAfter copies a refusal's Retry-After to the response of a page
// that renders the refusal itself.
func setRetryAfter(c *fiber.Ctx, err error) {
	var ae *selah.Error
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
	}
}
