package web

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
	"go.yaml.in/yaml/v3"
)

// openAPIYAML is the API's contract, maintained by hand (see the comment at
// its top). It is embedded so that the binary always serves the document
// of its own code.
//
//go:embed openapi.yaml
var openAPIYAML []byte

// apiSpec is the embedded document, parsed once when the package loads:
// its JSON form for /api/v1/openapi.json and the kin-openapi model the
// /docs page is rendered from. A document that does not parse is a build
// mistake, so it panics like the page templates do, and every test of the
// package catches it.
var apiSpec = mustLoadAPISpec(openAPIYAML)

type openAPISpec struct {
	yaml []byte
	json []byte
	doc  *openapi3.T
}

func mustLoadAPISpec(src []byte) *openAPISpec {
	s, err := loadAPISpec(src)
	if err != nil {
		panic(err)
	}
	return s
}

func loadAPISpec(src []byte) (*openAPISpec, error) {
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true // the docs page lists things in document order
	doc, err := loader.LoadFromData(src)
	if err != nil {
		return nil, fmt.Errorf("web: openapi.yaml: %w", err)
	}
	js, err := yamlToJSON(src)
	if err != nil {
		return nil, fmt.Errorf("web: openapi.yaml: %w", err)
	}
	return &openAPISpec{yaml: src, json: js, doc: doc}, nil
}

// openAPICacheControl lets clients and proxies keep the document briefly;
// it changes only with a deployment.
const openAPICacheControl = "public, max-age=300"

// openAPIJSON serves GET /api/v1/openapi.json.
func (s *Server) openAPIJSON(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, openAPICacheControl)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(apiSpec.json)
}

// openAPIYAML serves GET /api/v1/openapi.yaml, the document as written.
func (s *Server) openAPIYAML(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, openAPICacheControl)
	c.Set(fiber.HeaderContentType, "application/yaml; charset=utf-8")
	return c.Send(apiSpec.yaml)
}

// yamlToJSON converts a YAML document to indented JSON, keeping the order
// of mapping keys (paths and fields stay in the order they were written,
// which generic map decoding would lose).
func yamlToJSON(src []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := writeJSONNode(&buf, &root); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func writeJSONNode(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return fmt.Errorf("yaml: want one document, got %d nodes", len(n.Content))
		}
		return writeJSONNode(buf, n.Content[0])
	case yaml.AliasNode:
		return writeJSONNode(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, err := json.Marshal(n.Content[i].Value)
			if err != nil {
				return err
			}
			buf.Write(k)
			buf.WriteByte(':')
			if err := writeJSONNode(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSONNode(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		// Decoding the scalar applies YAML's own typing (ints, floats,
		// booleans, null, quoted strings) before it becomes JSON.
		var v any
		if err := n.Decode(&v); err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("yaml line %d: %w", n.Line, err)
		}
		buf.Write(b)
	default:
		return fmt.Errorf("yaml line %d: unexpected node kind %d", n.Line, n.Kind)
	}
	return nil
}

// contractCheck, when set, is shown every request with its final response
// once the rest of the app is done with it. The package's tests set it (in
// TestMain, before any server exists) to validate the API traffic of the
// whole test suite against openapi.yaml; in production it is nil and costs
// nothing.
var contractCheck func(c *fiber.Ctx)

// useContractCheck installs contractCheck as the outermost middleware, so
// it sees the response the client gets: errors already rendered, request
// id and limit headers set.
func (s *Server) useContractCheck() {
	check := contractCheck
	if check == nil {
		return
	}
	s.app.Use(func(c *fiber.Ctx) error {
		err := c.Next()
		check(c)
		return err
	})
}

// validateAPISpec checks the document against the OpenAPI 3.1 rules,
// examples included. Tests call it; the server only needs it to parse.
func validateAPISpec(ctx context.Context, doc *openapi3.T) error {
	return doc.Validate(ctx, openapi3.EnableExamplesValidation(), openapi3.EnableMultiError())
}
