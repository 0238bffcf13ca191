package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
)

// decodeJSON reads a JSON object body into dst strictly: the content type
// must be JSON, the body one object with no unknown fields and nothing
// after it. Errors are invalid_request and name the field when there is one.
func decodeJSON(c *fiber.Ctx, dst any) error {
	ct := c.Get(fiber.HeaderContentType)
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != fiber.MIMEApplicationJSON && !strings.HasSuffix(mt, "+json")) {
		return selah.Errorf(selah.EINVALID, "Content-Type must be application/json.")
	}
	body := c.Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return selah.Errorf(selah.EINVALID, "The request body is empty; send a JSON object.")
	}
	if !utf8.Valid(body) {
		return selah.Errorf(selah.EINVALID, "The request body is not valid UTF-8.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return selah.Errorf(selah.EINVALID, "The request body must hold a single JSON object.")
	}
	return nil
}

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return selah.Errorf(selah.EINVALID, "Malformed JSON at byte %d.", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return selah.Errorf(selah.EINVALID, "The request body must be a JSON object.")
		}
		return selah.Errorf(selah.EINVALID, "Field %q must be %s.", typ.Field, jsonTypeName(typ.Type.Kind().String()))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return selah.Errorf(selah.EINVALID, "Malformed JSON: the body ends early.")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return selah.Errorf(selah.EINVALID, "Unknown field %s.", strings.TrimPrefix(err.Error(), "json: unknown field "))
	default:
		return selah.Errorf(selah.EINVALID, "Malformed JSON body.")
	}
}

func jsonTypeName(kind string) string {
	switch kind {
	case "int", "int64", "int32":
		return "an integer"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "ptr":
		return "of the documented type"
	default:
		return fmt.Sprintf("of type %s", kind)
	}
}

// requiredText validates a required string field: trimmed, 1..max
// characters (Unicode code points).
func requiredText(field string, v *string, max int) (string, error) {
	if v == nil {
		return "", selah.Errorf(selah.EINVALID, "Field %q is required.", field)
	}
	s := strings.TrimSpace(*v)
	if s == "" {
		return "", selah.Errorf(selah.EINVALID, "Field %q must not be empty.", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", selah.Errorf(selah.EINVALID, "Field %q is %d characters long; the maximum is %d.", field, n, max)
	}
	return s, nil
}

// optionalInt validates an optional integer field within [min, max].
func optionalInt(field string, v *int, def, min, max int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < min || *v > max {
		return 0, selah.Errorf(selah.EINVALID, "Field %q must be between %d and %d.", field, min, max)
	}
	return *v, nil
}
