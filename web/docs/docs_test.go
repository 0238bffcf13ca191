package docs

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestMarkdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"paragraphs", "one\ntwo\n\nthree", "<p>one two</p>\n<p>three</p>\n"},
		{"list", "- a\n  b\n- c", "<ul>\n<li>a b</li>\n<li>c</li>\n</ul>\n"},
		{"heading", "### Title", "<h3>Title</h3>\n"},
		{"code and bold", "`x` **y**", "<p><code>x</code> <strong>y</strong></p>\n"},
		{"escaped", "<script>alert(1)</script> `<b>`", "<p>&lt;script&gt;alert(1)&lt;/script&gt; <code>&lt;b&gt;</code></p>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(markdown(tc.in)); got != tc.want {
				t.Errorf("markdown(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

const spec = `openapi: 3.1.0
info: {title: T, version: "1", summary: S, description: "**Hi**"}
servers: [{url: /api/v1/}]
tags: [{name: a, description: first}]
paths:
  /second:
    get:
      operationId: second
      tags: [a]
      responses:
        "200": {description: ok}
  /first:
    post:
      operationId: first
      tags: [a]
      security: []
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Req"}
            example: {n: 3}
      responses:
        "400": {description: bad, x-error-codes: [invalid_request]}
components:
  schemas:
    Req:
      type: object
      required: [n]
      properties:
        s: {type: string, maxLength: 5}
        n: {type: integer, minimum: 1, maximum: 8, default: 5}
`

func TestBuild(t *testing.T) {
	t.Parallel()
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	doc, err := loader.LoadFromData([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := Build(doc)
	if p.Title != "T" || string(p.Intro) != "<p><strong>Hi</strong></p>\n" || len(p.Tags) != 1 {
		t.Fatalf("page %+v", p)
	}
	ops := p.Tags[0].Ops
	if len(ops) != 2 || ops[0].ID != "second" || ops[1].ID != "first" {
		t.Fatalf("ops not in document order: %+v", ops)
	}
	first := ops[1]
	if !first.Public || ops[0].Public || first.Path != "/api/v1/first" {
		t.Errorf("first: public %v, path %q; second public %v", first.Public, first.Path, ops[0].Public)
	}
	if first.Body == nil || !strings.Contains(string(first.Body.Type), `href="#schema-Req"`) || first.Body.Example != "{\n  \"n\": 3\n}" {
		t.Errorf("body %+v", first.Body)
	}
	if f := first.Body.Fields; len(f) != 2 || f[0].Name != "n" || !f[0].Required ||
		!strings.Contains(string(f[0].Type), "1 to 8") || !strings.Contains(string(f[0].Type), "default 5") {
		t.Errorf("fields %+v", f)
	}
	if rs := first.Responses; len(rs) != 1 || rs[0].Status != "400" || len(rs[0].Codes) != 1 || rs[0].Codes[0] != "invalid_request" {
		t.Errorf("responses %+v", rs)
	}
}
