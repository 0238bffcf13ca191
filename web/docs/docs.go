// Package docs renders the API reference for people from the OpenAPI
// document, so that the /docs page cannot drift from the contract the tests
// enforce. It knows nothing of HTTP: Build turns a parsed document into the
// data the page template shows, with every description rendered from the
// document's small Markdown subset to escaped HTML.
package docs

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Page is the whole reference, as the docs template shows it.
type Page struct {
	Title, Version, Summary string
	Intro                   template.HTML
	Auth                    template.HTML
	Tags                    []Tag
	Headers                 []Field // response headers, described once
	Schemas                 []Schema
}

// Tag is a group of operations, in the order the document lists them.
type Tag struct {
	Name        string
	Description template.HTML
	Ops         []Op
}

// Op is one operation; Public is set when it needs no API key.
type Op struct {
	ID, Method, Path, Summary string
	Description               template.HTML
	Public                    bool
	Params                    []Field
	Body                      *Body
	Responses                 []Response
}

// Field is a parameter, a property of an object or a response header.
type Field struct {
	Name, In    string
	Ref         string // the component a response header is described by
	Type        template.HTML
	Required    bool
	Description template.HTML
}

// Body is an operation's request body.
type Body struct {
	ContentType string
	Type        template.HTML
	Fields      []Field
	Example     string
}

// Response is one status an operation answers with; Codes are its
// x-error-codes.
type Response struct {
	Status      string
	Description template.HTML
	Codes       []string
	Headers     []Field
	Media       []string
	Type        template.HTML
	Example     string
}

// Schema is a named component schema.
type Schema struct {
	Name        string
	Type        template.HTML
	Description template.HTML
	Fields      []Field
}

// Build is the reference page of doc: its tags with their operations in
// the order the document lists them, the shared response headers and the
// named schemas.
func Build(doc *openapi3.T) Page {
	p := Page{Title: doc.Info.Title, Version: doc.Info.Version, Summary: doc.Info.Summary,
		Intro: markdown(doc.Info.Description)}
	if ss := doc.Components.SecuritySchemes["apiKey"]; ss != nil && ss.Value != nil {
		p.Auth = markdown(ss.Value.Description)
	}
	for _, tag := range doc.Tags {
		p.Tags = append(p.Tags, Tag{Name: tag.Name, Description: markdown(tag.Description)})
	}
	type placed struct {
		op   Op
		line int
		tag  string
	}
	var ops []placed
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			tag := ""
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			ops = append(ops, placed{operation(serverBase(doc, item)+path, method, item, op), line(op.Origin), tag})
		}
	}
	slices.SortFunc(ops, func(a, b placed) int { return cmp.Compare(a.line, b.line) })
	for _, o := range ops {
		for i := range p.Tags {
			if p.Tags[i].Name == o.tag {
				p.Tags[i].Ops = append(p.Tags[i].Ops, o.op)
			}
		}
	}
	for name, h := range doc.Components.Headers {
		p.Headers = append(p.Headers, Field{Name: name, Type: typeHTML(h.Value.Schema),
			Description: markdown(h.Value.Description)})
	}
	slices.SortFunc(p.Headers, func(a, b Field) int {
		return cmp.Compare(line(doc.Components.Headers[a.Name].Value.Origin), line(doc.Components.Headers[b.Name].Value.Origin))
	})
	names := make([]string, 0, len(doc.Components.Schemas))
	for name := range doc.Components.Schemas {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Compare(line(doc.Components.Schemas[a].Value.Origin), line(doc.Components.Schemas[b].Value.Origin))
	})
	for _, name := range names {
		ref := doc.Components.Schemas[name]
		p.Schemas = append(p.Schemas, Schema{Name: name, Type: typeHTML(&openapi3.SchemaRef{Value: ref.Value}),
			Description: markdown(ref.Value.Description), Fields: fields(ref)})
	}
	return p
}

func operation(path, method string, item *openapi3.PathItem, op *openapi3.Operation) Op {
	o := Op{ID: op.OperationID, Method: method, Path: path, Summary: op.Summary,
		Description: markdown(op.Description), Public: op.Security != nil && len(*op.Security) == 0}
	for _, pr := range append(slices.Clone(item.Parameters), op.Parameters...) {
		v := pr.Value
		o.Params = append(o.Params, Field{Name: v.Name, In: v.In, Type: typeHTML(v.Schema),
			Required: v.Required, Description: markdown(v.Description)})
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		for ct, mt := range rb.Value.Content {
			o.Body = &Body{ContentType: ct, Type: typeHTML(mt.Schema), Fields: fields(mt.Schema), Example: exampleJSON(mt)}
		}
	}
	o.Responses = responses(op.Responses)
	return o
}

func responses(rs *openapi3.Responses) []Response {
	var out []Response
	for status, ref := range rs.Map() {
		r := ref.Value
		dr := Response{Status: status, Codes: ErrorCodes(r)}
		if r.Description != nil {
			dr.Description = markdown(*r.Description)
		}
		for name, h := range r.Headers {
			dr.Headers = append(dr.Headers, Field{Name: name, Ref: strings.TrimPrefix(h.Ref, "#/components/headers/"),
				Type: typeHTML(h.Value.Schema), Required: h.Value.Required, Description: markdown(h.Value.Description)})
		}
		slices.SortFunc(dr.Headers, func(a, b Field) int { return cmp.Compare(a.Name, b.Name) })
		for ct, mt := range r.Content {
			dr.Media = append(dr.Media, ct)
			if mt.Schema != nil {
				dr.Type, dr.Example = typeHTML(mt.Schema), exampleJSON(mt)
			}
		}
		slices.Sort(dr.Media)
		out = append(out, dr)
	}
	slices.SortFunc(out, func(a, b Response) int { return cmp.Compare(a.Status, b.Status) })
	return out
}

// ErrorCodes returns the error codes a response lists in x-error-codes
// (the contract tests check responses against them).
func ErrorCodes(r *openapi3.Response) []string {
	var codes []string
	if list, ok := r.Extensions["x-error-codes"].([]any); ok {
		for _, c := range list {
			if s, ok := c.(string); ok {
				codes = append(codes, s)
			}
		}
	}
	return codes
}

// fields lists the properties of an object schema, required ones first.
func fields(ref *openapi3.SchemaRef) []Field {
	if ref == nil || ref.Value == nil || len(ref.Value.Properties) == 0 {
		return nil
	}
	s := ref.Value
	var out []Field
	for name, p := range s.Properties {
		out = append(out, Field{Name: name, Type: typeHTML(p), Required: slices.Contains(s.Required, name),
			Description: markdown(p.Value.Description)})
	}
	slices.SortFunc(out, func(a, b Field) int {
		if a.Required != b.Required {
			if a.Required {
				return -1
			}
			return 1
		}
		return cmp.Compare(refLine(s.Properties[a.Name]), refLine(s.Properties[b.Name]))
	})
	return out
}

// refLine is where a schema is written: the $ref itself when it is one,
// so that fields keep the order of their object, not of their targets.
func refLine(r *openapi3.SchemaRef) int {
	if r.Origin != nil {
		return line(r.Origin)
	}
	return line(r.Value.Origin)
}

func line(o *openapi3.Origin) int {
	if o == nil || o.Key == nil {
		return 0
	}
	return o.Key.Line
}

// typeHTML describes a schema in a few words: its type with a link to a
// named component, and its bounds.
func typeHTML(ref *openapi3.SchemaRef) template.HTML {
	if ref == nil || ref.Value == nil {
		return "any"
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		return template.HTML(`<a href="#schema-` + html.EscapeString(name) + `">` + html.EscapeString(name) + `</a>`)
	}
	s := ref.Value
	var alts []string
	for _, o := range append(slices.Clone(s.OneOf), s.AnyOf...) {
		alts = append(alts, string(typeHTML(o)))
	}
	if len(alts) > 0 {
		return template.HTML(strings.Join(alts, " or "))
	}
	var b strings.Builder
	types := s.Type.Slice()
	switch {
	case s.Type.Is("array"):
		b.WriteString("array of " + string(typeHTML(s.Items)))
	case len(types) > 0:
		b.WriteString(html.EscapeString(strings.Join(types, " or ")))
	default:
		b.WriteString("object")
	}
	// notes are HTML: text is escaped as it is added.
	var notes []string
	note := func(text string) { notes = append(notes, html.EscapeString(text)) }
	if s.Format != "" {
		note(s.Format)
	}
	if s.Const != nil {
		note("always " + literal(s.Const))
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = literal(v)
		}
		note("one of " + strings.Join(vals, ", "))
	}
	if s.Min != nil || s.Max != nil {
		note(rangeNote(s.Min, s.Max, ""))
	}
	if s.MinLength > 0 || s.MaxLength != nil {
		note(lengthNote(s.MinLength, s.MaxLength, "characters"))
	}
	if s.MinItems > 0 || s.MaxItems != nil {
		note(lengthNote(s.MinItems, s.MaxItems, "items"))
	}
	if s.Pattern != "" && s.Pattern != `\S` { // \S (not blank) is said in prose
		note("matching " + s.Pattern)
	}
	if s.Default != nil {
		note("default " + literal(s.Default))
	}
	if ap := s.AdditionalProperties.Schema; ap != nil {
		notes = append(notes, "values: "+string(typeHTML(ap)))
	}
	if len(notes) > 0 {
		b.WriteString(` <span class="hint">(` + strings.Join(notes, "; ") + `)</span>`)
	}
	return template.HTML(b.String())
}

func literal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func rangeNote(min, max *float64, unit string) string {
	f := func(x *float64) string { return strconv.FormatFloat(*x, 'f', -1, 64) }
	switch {
	case min != nil && max != nil:
		return f(min) + " to " + f(max) + unit
	case min != nil:
		return "at least " + f(min) + unit
	default:
		return "at most " + f(max) + unit
	}
}

func lengthNote(min uint64, max *uint64, unit string) string {
	lo := float64(min)
	if max == nil {
		return rangeNote(&lo, nil, " "+unit)
	}
	hi := float64(*max)
	return rangeNote(&lo, &hi, " "+unit)
}

// exampleJSON is the media type's example, indented, or "".
func exampleJSON(mt *openapi3.MediaType) string {
	ex := mt.Example
	if ex == nil {
		for _, e := range mt.Examples {
			if e.Value != nil {
				ex = e.Value.Value
				break
			}
		}
	}
	if ex == nil {
		return ""
	}
	b, err := json.MarshalIndent(ex, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	inlineBold = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// markdown renders the small subset of Markdown the document uses:
// paragraphs, "- " lists, "### " headings, `code` and **bold**. The text
// is escaped first, so nothing in the document can inject markup.
func markdown(src string) template.HTML {
	var b strings.Builder
	for _, block := range strings.Split(strings.TrimSpace(src), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		switch {
		case len(lines) == 0 || lines[0] == "":
		case strings.HasPrefix(lines[0], "### "):
			b.WriteString("<h3>" + inline(strings.TrimPrefix(lines[0], "### ")) + "</h3>\n")
		case strings.HasPrefix(lines[0], "- "):
			b.WriteString("<ul>\n")
			var item []string
			flush := func() {
				if len(item) > 0 {
					b.WriteString("<li>" + inline(strings.Join(item, " ")) + "</li>\n")
				}
				item = nil
			}
			for _, l := range lines {
				if rest, ok := strings.CutPrefix(l, "- "); ok {
					flush()
					item = append(item, rest)
				} else {
					item = append(item, strings.TrimSpace(l))
				}
			}
			flush()
			b.WriteString("</ul>\n")
		default:
			for i := range lines {
				lines[i] = strings.TrimSpace(lines[i])
			}
			b.WriteString("<p>" + inline(strings.Join(lines, " ")) + "</p>\n")
		}
	}
	return template.HTML(b.String())
}

func inline(s string) string {
	s = html.EscapeString(s)
	s = inlineCode.ReplaceAllString(s, "<code>$1</code>")
	return inlineBold.ReplaceAllString(s, "<strong>$1</strong>")
}

// serverBase is the base path an operation's path is relative to (its
// first server), for showing full paths.
func serverBase(doc *openapi3.T, item *openapi3.PathItem) string {
	servers := doc.Servers
	if len(item.Servers) > 0 {
		servers = item.Servers
	}
	if len(servers) == 0 {
		return ""
	}
	return strings.TrimRight(servers[0].URL, "/")
}
