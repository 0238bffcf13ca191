package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"reflect"
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
	// encoding/json lets the last of duplicate keys win and matches field
	// names case-insensitively; a strict pass refuses both first, so a
	// body means one thing to us and to any proxy or log reader, and
	// refuses control characters in strings before they reach Postgres.
	if err := checkJSON(body, reflect.TypeOf(dst)); err != nil {
		return err
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

// checkJSON walks body's tokens against the Go type t: within every object
// a key may appear once, and a key must match its field's JSON name
// exactly (a case-insensitive match is refused as an unknown field, as
// any other unknown field is later). Strings may hold no control
// characters but tab and newline. Syntax errors are left to the decoder,
// which reports them with their offset.
func checkJSON(body []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := walkJSON(dec, t, ""); err != nil && isRefusal(err) {
		return err
	}
	return nil
}

// walkJSON consumes one value. field is its path for messages ("" at the
// top).
func walkJSON(dec *json.Decoder, t reflect.Type, field string) error {
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case string:
		return checkControl(field, v, "\t\n")
	case json.Delim:
		switch v {
		case '[':
			for dec.More() {
				if err := walkJSON(dec, t, field); err != nil {
					return err
				}
			}
		case '{':
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				name := key
				if field != "" {
					name = field + "." + key
				}
				if seen[key] {
					return selah.Errorf(selah.EINVALID, "Field %q appears more than once.", name)
				}
				seen[key] = true
				if err := checkControl(name, key, ""); err != nil {
					return err
				}
				var ft reflect.Type
				if t != nil && t.Kind() == reflect.Struct {
					var ok bool
					if ft, ok = jsonField(t, key); !ok {
						return selah.Errorf(selah.EINVALID, "Unknown field %q (field names are case-sensitive).", name)
					}
				}
				if err := walkJSON(dec, ft, name); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err
	}
	return nil
}

// jsonField returns the type of t's field whose JSON name is exactly key.
// It reports false only for a key that matches a field's name in another
// case; a key matching no field at all is left to DisallowUnknownFields.
func jsonField(t reflect.Type, key string) (reflect.Type, bool) {
	var folded bool
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name == key {
			return f.Type, true
		}
		if strings.EqualFold(name, key) {
			folded = true
		}
	}
	return nil, !folded
}

// checkControl refuses U+0000 and the other C0 and C1 control characters
// (and DEL) in s, except those listed in allow. Postgres refuses NUL in
// text outright, and the others have no business in a question, a query
// or an e-mail address.
func checkControl(field, s, allow string) error {
	for _, r := range s {
		if (r < 0x20 || (r >= 0x7f && r < 0xa0)) && !strings.ContainsRune(allow, r) {
			if field == "" {
				return selah.Errorf(selah.EINVALID, "The request holds a control character (U+%04X); only tab and newline are allowed.", r)
			}
			return selah.Errorf(selah.EINVALID, "Field %q holds a control character (U+%04X); only tab and newline are allowed.", field, r)
		}
	}
	return nil
}

// requiredText validates a required string field: trimmed, 1..max
// characters (Unicode code points).
func requiredText(field string, v *string, max int) (string, error) {
	if v == nil {
		return "", errRequired(field)
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

// errRequired is the error of a required field that is absent.
func errRequired(field string) error {
	return selah.Errorf(selah.EINVALID, "Field %q is required.", field)
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
