package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/web/docs"
)

// The contract test: every request the package's tests send to the API,
// and every response they get, is checked against openapi.yaml by the
// contractCheck hook (see openapi.go). Any mismatch fails the test run,
// whichever test caused it, so the document cannot drift from the code
// without a red build.

// contract collects what the hook saw; tests run in parallel, so it locks.
var contract contractLog

// contractV is the validator, for tests that check responses the hook
// cannot see.
var contractV *contractValidator

type contractLog struct {
	mu       sync.Mutex
	checked  int
	failures []string
	waived   []string
}

func (l *contractLog) pass() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.checked++
}

func (l *contractLog) fail(ex exchange, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.checked++
	line := fmt.Sprintf("%s %s -> %d: ", ex.method, ex.uri, ex.status)
	for _, w := range waivers {
		if ex.method == w.method && strings.HasPrefix(ex.uri, w.path) && strings.Contains(msg, w.reason) &&
			bytes.Contains(ex.resBody, []byte(w.body)) {
			l.waived = append(l.waived, line+w.why)
			return
		}
	}
	l.failures = append(l.failures, line+msg)
}

// waivers are mismatches caused by test doubles rather than by the
// server, each matched as narrowly as possible and naming the change that
// lets it go. Keep the list empty.
var waivers = []struct{ method, path, reason, body, why string }{}

// Checked is how many API responses the hook has validated so far.
func (l *contractLog) Checked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.checked
}

func TestMain(m *testing.M) {
	flag.Parse()
	v, err := newContractValidator()
	if err != nil {
		fmt.Fprintln(os.Stderr, "contract:", err)
		os.Exit(2)
	}
	contractV, contractCheck = v, v.check
	// Dozens of parallel tests sign up and in through the same few argon2id
	// slots, many times slower under -race: a test must not get 503 for the
	// suite's own load.
	passwordSlotWait = time.Minute
	code := m.Run()

	contract.mu.Lock()
	checked, failures, waived := contract.checked, slices.Clone(contract.failures), slices.Clone(contract.waived)
	contract.mu.Unlock()
	for _, w := range waived {
		fmt.Fprintln(os.Stderr, "contract: waived:", w)
	}
	if len(failures) > 0 {
		fmt.Fprintf(os.Stderr, "\nFAIL: %d of %d API responses do not match web/openapi.yaml:\n", len(failures), checked)
		for _, f := range failures {
			fmt.Fprintln(os.Stderr, "  "+f)
		}
		code = 1
	}
	// A hook that stopped seeing traffic would pass silently; the whole
	// suite always sends API requests, so seeing none is a failure. A run
	// narrowed with -run may legitimately send none.
	if run := flag.Lookup("test.run"); checked == 0 && (run == nil || run.Value.String() == "") {
		fmt.Fprintln(os.Stderr, "\nFAIL: the contract hook validated no API response; is useContractCheck still called by New?")
		code = 1
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "contract: %d API responses validated against web/openapi.yaml\n", checked)
	}
	os.Exit(code)
}

type contractValidator struct {
	doc    *openapi3.T
	router routers.Router
	errRes *openapi3.SchemaRef // ErrorResponse, for paths the document does not have
}

func newContractValidator() (*contractValidator, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPIYAML)
	if err != nil {
		return nil, err
	}
	if err := validateAPISpec(loader.Context, doc); err != nil {
		return nil, fmt.Errorf("openapi.yaml is invalid: %w", err)
	}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &contractValidator{doc: doc, router: r, errRes: doc.Components.Schemas["ErrorResponse"]}, nil
}

// acceptAnyBearer stands in for the server's key check: the document only
// promises that a Bearer token is sent; whether it is valid is the
// server's business (401/403).
func acceptAnyBearer(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := strings.TrimSpace(in.RequestValidationInput.Request.Header.Get("Authorization"))
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return errors.New("no Bearer token")
	}
	return nil
}

// exchange is one request and its response, as the client saw them.
type exchange struct {
	method, uri string // uri: path and query
	reqHeader   http.Header
	reqBody     []byte
	status      int
	resHeader   http.Header
	resBody     []byte
}

// check is the contractCheck hook: it runs inside the app, after
// everything else, for every request of every test.
func (v *contractValidator) check(c *fiber.Ctx) {
	path, method := c.Path(), c.Method()
	if !strings.HasPrefix(path, "/api/") && !strings.HasPrefix(path, "/answers/") {
		return // the website is not part of the API
	}
	if method == fiber.MethodOptions || method == fiber.MethodHead {
		return // CORS preflights, and HEAD, which is GET without a body
	}
	ex := exchange{method: method, reqHeader: http.Header{}, resHeader: http.Header{},
		// RequestURI is the path and query even when the client sent an
		// absolute URI.
		uri:     string(c.Request().URI().RequestURI()),
		reqBody: slices.Clone(c.Request().Body()),
		status:  c.Response().StatusCode(), resBody: slices.Clone(c.Response().Body())}
	c.Request().Header.VisitAll(func(k, val []byte) { ex.reqHeader.Add(string(k), string(val)) })
	c.Response().Header.VisitAll(func(k, val []byte) { ex.resHeader.Add(string(k), string(val)) })
	if msg := v.validate(ex); msg != "" {
		contract.fail(ex, msg)
		return
	}
	contract.pass()
}

// validate returns what is wrong with the exchange, or "".
func (v *contractValidator) validate(ex exchange) string {
	req, err := http.NewRequest(ex.method, "http://selah.test"+ex.uri, bytes.NewReader(ex.reqBody))
	if err != nil {
		return fmt.Sprintf("cannot rebuild request: %v", err)
	}
	req.Header = ex.reqHeader.Clone()
	id := ex.resHeader.Get("X-Request-Id")
	if id == "" {
		return "no X-Request-Id header"
	}
	var body struct {
		RequestID *string `json:"requestId"`
		Error     *struct {
			Code      string `json:"code"`
			RequestID string `json:"requestId"`
		} `json:"error"`
	}
	isJSON := strings.HasPrefix(ex.resHeader.Get("Content-Type"), "application/json")
	if isJSON && json.Unmarshal(ex.resBody, &body) != nil {
		return fmt.Sprintf("body is not JSON: %.200q", ex.resBody)
	}
	if (body.RequestID != nil && *body.RequestID != id) || (body.Error != nil && body.Error.RequestID != id) {
		return "requestId in the body differs from X-Request-Id " + id
	}

	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return v.validateUndocumented(ex, isJSON && body.Error != nil)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: acceptAnyBearer}}
	reqErr := openapi3filter.ValidateRequest(context.Background(), in)
	// kin-openapi decodes the first JSON value of a body and ignores the
	// rest; the document's "one JSON object" is stricter, like RFC 8259.
	if reqErr == nil && len(ex.reqBody) > 0 && strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
		if !utf8.Valid(ex.reqBody) || !json.Valid(ex.reqBody) {
			reqErr = errors.New("the body is not one JSON value in UTF-8 (RFC 8259)")
		} else if duplicateMember(ex.reqBody) {
			// The document's request bodies are I-JSON (RFC 7493): member
			// names are unique, which a JSON Schema cannot say.
			reqErr = errors.New("an object repeats a member name (RFC 7493)")
		}
	}
	switch {
	case reqErr != nil && ex.status < 400:
		return "the server accepted a request the document forbids: " + firstLine(reqErr)
	case reqErr == nil && body.Error != nil && body.Error.Code == "invalid_request":
		return fmt.Sprintf("the server refused as invalid_request a request the document allows: %.200q", ex.reqBody)
	}

	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.status, Header: ex.resHeader,
		Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	out.SetBodyBytes(ex.resBody)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return firstLine(err)
	}
	if body.Error != nil {
		if r := route.Operation.Responses.Status(ex.status); r != nil && r.Value != nil {
			if codes := docs.ErrorCodes(r.Value); !slices.Contains(codes, body.Error.Code) {
				return fmt.Sprintf("error code %s is not among those documented for %d: %v", body.Error.Code, ex.status, codes)
			}
		}
	}
	return ""
}

// duplicateMember reports whether any object in body repeats a name.
func duplicateMember(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	type obj struct {
		names map[string]bool
		key   bool // the next token is a member name
	}
	var stack []*obj
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *obj
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].key = true
			}
			continue
		}
		if top != nil && top.names != nil && top.key {
			name := tok.(string)
			if top.names[name] {
				return true
			}
			top.names[name] = true
			top.key = false
			continue
		}
		if top != nil && top.names != nil {
			top.key = true // this token is a value (or opens one)
		}
		if d, ok := tok.(json.Delim); ok {
			o := &obj{}
			if d == '{' {
				o.names, o.key = map[string]bool{}, true
			}
			stack = append(stack, o)
		}
	}
}

// firstLine keeps kin-openapi's one-line reason and drops the schema and
// value dumps that follow it.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// validateUndocumented judges a request to a path or method the document
// does not have: it must be refused with the common error body, never
// served (that would be an endpoint missing from the document).
func (v *contractValidator) validateUndocumented(ex exchange, isError bool) string {
	if ex.status < 400 {
		return "served, but the document has no such operation"
	}
	if !isError {
		return fmt.Sprintf("error response is not the JSON error body: %.200q", ex.resBody)
	}
	var body any
	json.Unmarshal(ex.resBody, &body)
	if err := v.errRes.Value.VisitJSON(body, openapi3.EnableJSONSchema2020()); err != nil {
		return "error body does not match ErrorResponse: " + firstLine(err)
	}
	return ""
}

// TestContractHookSeesTraffic: the hook is installed and counts what it
// validates (TestMain also fails a full run in which it saw nothing).
func TestContractHookSeesTraffic(t *testing.T) {
	before := contract.Checked()
	srv := NewTestServer(t, Config{}, Deps{})
	for _, p := range []string{"/api/v1/openapi.json", "/api/v1/nope"} {
		res, err := srv.App().Test(newGet(p), -1)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if got := contract.Checked() - before; got < 2 {
		t.Fatalf("the contract hook validated %d of 2 responses", got)
	}
}

func newGet(path string) *http.Request {
	r, _ := http.NewRequest("GET", "http://selah.test"+path, nil)
	return r
}
