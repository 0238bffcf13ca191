package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web/docs"
)

// TestOpenAPIDocumentValid: the embedded document is a valid OpenAPI 3.1
// document, its examples match their schemas, and it says what the code
// says about bounds, versions and error codes.
func TestOpenAPIDocumentValid(t *testing.T) {
	t.Parallel()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPIYAML)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateAPISpec(loader.Context, doc); err != nil {
		t.Fatalf("openapi.yaml is not valid:\n%v", err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.1.0" {
		t.Errorf("openapi %q, info.version %q; want 3.1.0 and 1.1.0", doc.OpenAPI, doc.Info.Version)
	}

	schema := func(name string) *openapi3.Schema {
		t.Helper()
		s := doc.Components.Schemas[name]
		if s == nil || s.Value == nil {
			t.Fatalf("no schema %s", name)
		}
		return s.Value
	}
	prop := func(schemaName, field string) *openapi3.Schema {
		t.Helper()
		p := schema(schemaName).Properties[field]
		if p == nil {
			t.Fatalf("%s has no property %s", schemaName, field)
		}
		return p.Value
	}
	bounds := []struct {
		schema, field string
		min, max      float64
		def           any
	}{
		{"SearchRequest", "limit", 1, selah.MaxSearchLimit, float64(selah.DefaultSearchLimit)},
		{"AskRequest", "maxReferences", 1, selah.MaxMaxReferences, float64(selah.DefaultMaxReferences)},
	}
	for _, b := range bounds {
		p := prop(b.schema, b.field)
		if p.Min == nil || *p.Min != b.min || p.Max == nil || *p.Max != b.max || !reflect.DeepEqual(p.Default, b.def) {
			t.Errorf("%s.%s: bounds %v..%v default %v, want %v..%v default %v", b.schema, b.field, p.Min, p.Max, p.Default, b.min, b.max, b.def)
		}
	}
	for _, l := range []struct {
		schema, field string
		max           uint64
	}{
		{"SearchRequest", "query", selah.MaxQueryLength},
		{"AskRequest", "question", selah.MaxQuestionLength},
	} {
		if p := prop(l.schema, l.field); p.MaxLength == nil || *p.MaxLength != l.max || p.MinLength != 1 {
			t.Errorf("%s.%s: maxLength %v, want %d", l.schema, l.field, p.MaxLength, l.max)
		}
	}
	ref := doc.Paths.Value("/scripture").Get.Parameters.GetByInAndName("query", "ref")
	if ref == nil || ref.Schema.Value.MaxLength == nil || *ref.Schema.Value.MaxLength != 200 || !ref.Required {
		t.Errorf("ref parameter: %+v, want required with maxLength 200", ref)
	}

	// Every code the API answers with is in the enum, and every code a
	// response lists has that response's status in the one table.
	enum := map[string]bool{}
	for _, c := range schema("ErrorCode").Enum {
		enum[c.(string)] = true
	}
	for code, status := range statusOf {
		switch code {
		case selah.EUNAUTHORIZED, selah.EFORBIDDEN, selah.EUNSUPPORTEDMEDIA:
			continue // the website's codes, and one the API never answers with
		}
		if !enum[code] {
			t.Errorf("ErrorCode enum lacks %s (%d)", code, status)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for st, r := range op.Responses.Map() {
				for _, code := range docs.ErrorCodes(r.Value) {
					if !enum[code] {
						t.Errorf("%s %s %s lists %s, which is not in the ErrorCode enum", method, path, st, code)
					}
					if got := StatusOf(code); st != "default" && st != strconv.Itoa(got) {
						t.Errorf("%s %s: %s is listed under %s but the server answers it with %d", method, path, code, st, got)
					}
				}
			}
		}
	}
}

// TestOpenAPIServed: both forms are served without a key, and the JSON is
// the YAML, converted.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	srv := NewTestServer(t, Config{}, Deps{})
	var fromYAML, fromJSON any
	for _, tc := range []struct {
		path, contentType string
		decode            func([]byte) error
	}{
		{"/api/v1/openapi.json", "application/json", func(b []byte) error { return json.Unmarshal(b, &fromJSON) }},
		{"/api/v1/openapi.yaml", "application/yaml; charset=utf-8", func(b []byte) error { return yaml.Unmarshal(b, &fromYAML) }},
	} {
		res, err := srv.App().Test(httptest.NewRequest("GET", tc.path, nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != tc.contentType {
			t.Fatalf("%s: %d %s", tc.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if err := tc.decode(body); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
	}
	// Compare through JSON so YAML's and JSON's number types agree.
	b, _ := json.Marshal(fromYAML)
	var yamlAsJSON any
	json.Unmarshal(b, &yamlAsJSON)
	if !reflect.DeepEqual(yamlAsJSON, fromJSON) {
		t.Fatal("openapi.json differs from openapi.yaml")
	}
	if !strings.HasPrefix(string(apiSpec.json), "{\n  \"openapi\": \"3.1.0\",\n  \"info\"") {
		t.Errorf("openapi.json does not keep the document's key order: %.60q", apiSpec.json)
	}
}

// TestOpenAPILint runs the Redocly linter on the document (what
// `make lint-openapi` would do) when npx is available. It needs the npm
// registry the first time.
func TestOpenAPILint(t *testing.T) {
	if testing.Short() {
		t.Skip("lint downloads @redocly/cli; skipped with -short")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("npx is not on PATH; install Node.js to lint openapi.yaml")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Run from this directory so redocly.yaml, its configuration, applies.
	cmd := exec.CommandContext(ctx, npx, "--yes", "@redocly/cli@latest", "lint", "--format=stylish", "openapi.yaml")
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("redocly lint: %v\n%s", err, out)
	}
	if s := string(out); strings.Contains(s, "You have") {
		t.Logf("redocly lint passed with warnings:\n%s", s)
	}
}

// TestDocsPage: /docs is rendered from the document: every operation with
// its method and path, every error code, the authentication section and
// the link to the machine-readable form, under the site's strict CSP.
func TestDocsPage(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	srv := NewTestServer(t, Config{}, Deps{Store: st, Redis: rc})
	req := httptest.NewRequest("GET", "/docs", nil)
	req.Header.Set("Accept", "text/html")
	res, err := srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	page := string(b)
	if res.StatusCode != 200 || res.Header.Get("Content-Security-Policy") != pageCSP {
		t.Fatalf("status %d, CSP %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	want := []string{`href="/api/v1/openapi.json"`, "Authorization: Bearer", "svc_test_", "Retry-After",
		`id="schema-AskResponse"`, `id="header-X-RateLimit-Remaining"`, "maxReferences", "1 to 8", "default 5",
		"1 to 20", "1 to 500 characters", "<h3>Authentication</h3>"}
	for _, op := range docsView.Tags {
		for _, o := range op.Ops {
			want = append(want, `id="op-`+o.ID+`"`, o.Path)
		}
	}
	for _, c := range apiSpec.doc.Components.Schemas["ErrorCode"].Value.Enum {
		want = append(want, "<code>"+c.(string)+"</code>")
	}
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("/docs lacks %s", w)
		}
	}
	n := 0
	for _, tag := range docsView.Tags {
		n += len(tag.Ops)
	}
	if want := len(apiSpec.doc.Paths.Map()); n != want {
		t.Errorf("/docs lists %d operations, the document has %d", n, want)
	}
	if !strings.Contains(page, `"http://example.com/api/v1/scripture?ref=John+3:16"`) {
		t.Error("/docs lacks a curl example with this site's address")
	}
	// Nothing from elsewhere, and no script: the CSP would block it.
	for _, bad := range []string{"<script", `src="http`, `href="http`, "<style"} {
		if strings.Contains(page, bad) {
			t.Errorf("/docs contains %s", bad)
		}
	}
}
