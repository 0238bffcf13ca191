package web

import (
	"errors"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/selahdev/selah"
)

// FuzzDecodeRequest feeds arbitrary bodies and content types to the
// request decoding and validation of /search and /ask: it must never
// panic, and every refusal must be an invalid_request *selah.Error.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"query":"grace"}`, `{"query":"grace","limit":20}`, `{"question":"why?","maxReferences":8}`,
		`{`, `[]`, `null`, `{"query":null}`, `{"limit":1e309}`, `{"query":"a"} x`, "\xff", `{"query":"\u0000"}`,
		`{"question":1}`, `{"maxReferences":-1}`, `{"query":"a","query":"b"}`, `{"Query":"a"}`, `{"query":"\u001b"}`, `{"a":{"b":{"c":[1,2,3]}}}`, `"just a string"`,
	} {
		f.Add(s, "application/json")
	}
	f.Add(`{"query":"grace"}`, "text/plain")
	f.Add(`{"query":"grace"}`, "application/json; charset=utf-8")
	app := fiber.New()
	f.Fuzz(func(t *testing.T, body, contentType string) {
		fctx := &fasthttp.RequestCtx{}
		fctx.Request.Header.SetContentType(contentType)
		fctx.Request.SetBody([]byte(body))
		c := app.AcquireCtx(fctx)
		defer app.ReleaseCtx(c)
		check := func(err error) {
			if err == nil {
				return
			}
			var ae *selah.Error
			if !errors.As(err, &ae) || ae.Code != selah.EINVALID || ae.Message == "" {
				t.Fatalf("body %q: error %v is not invalid_request", body, err)
			}
		}
		var sr searchRequest
		if err := decodeJSON(c, &sr); err != nil {
			check(err)
		} else {
			_, err := requiredText("query", sr.Query, selah.MaxQueryLength)
			check(err)
			_, err = optionalInt("limit", sr.Limit, selah.DefaultSearchLimit, 1, selah.MaxSearchLimit)
			check(err)
		}
		var ar askRequest
		if err := decodeJSON(c, &ar); err != nil {
			check(err)
		} else {
			_, _, err := ar.validate()
			check(err)
		}
	})
}
