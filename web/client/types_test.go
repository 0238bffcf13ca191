package client_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/web/client"
	"github.com/selahdev/selah/worker"
)

// TestTypesMirrorServer: the client's types have exactly the JSON fields
// of the server's, recursively, so a field added to the API shows up here
// as a failure until the client learns it.
func TestTypesMirrorServer(t *testing.T) {
	for _, tc := range []struct {
		client, server any
	}{
		{client.HealthResponse{}, web.HealthResponse{}},
		{client.PassageResponse{}, web.PassageResponse{}},
		{client.SearchResponse{}, worker.SearchResponse{}},
		{client.AskResponse{}, worker.AskResponse{}},
		{client.TopicListResponse{}, web.TopicListResponse{}},
		{client.TopicDetailResponse{}, web.TopicDetailResponse{}},
		{client.BooksResponse{}, web.BooksResponse{}},
		{client.VerifyResponse{}, web.VerifyResponse{}},
		{client.ReferencesResponse{}, web.ReferencesResponse{}},
		{client.UsageResponse{}, web.UsageResponse{}},
	} {
		c, s := shape(reflect.TypeOf(tc.client)), shape(reflect.TypeOf(tc.server))
		if !reflect.DeepEqual(c, s) {
			t.Errorf("%T does not mirror %T:\n client %v\n server %v", tc.client, tc.server, c, s)
		}
	}
}

// shape is a type's JSON structure: objects as maps of field name to
// shape, arrays as one-element slices, and "value" for anything that
// encodes as a JSON scalar (so a time.Time matches an RFC 3339 string).
func shape(t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Time]() {
		return "value"
	}
	switch t.Kind() {
	case reflect.Slice:
		return []any{shape(t.Elem())}
	case reflect.Map:
		return map[string]any{"*": shape(t.Elem())}
	case reflect.Struct:
		m := map[string]any{}
		addFields(m, t)
		return m
	default:
		return "value"
	}
}

func addFields(m map[string]any, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" {
			addFields(m, f.Type) // embedded: its fields are promoted
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = shape(f.Type)
	}
}
