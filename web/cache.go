package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
)

// Cacheable responses (GET /scripture, /topics/{slug}, /books) carry:
//
//   - ETag: a strong validator, the SHA-256 of the response's content (its
//     JSON without requestId) and of the corpus edition's checksum, so it
//     changes exactly when the content or the text it comes from changes;
//   - Cache-Control: private, max-age=86400: the text is fixed, but a
//     response belongs to the key that asked for it, so shared caches keep
//     out;
//   - X-Corpus-Edition (the SWORD module and its version) and
//     X-Corpus-Checksum (the checksum ingest recorded for it).
//
// A request with If-None-Match naming the current ETag gets 304 with no
// body. It has passed authentication and the limits like any request, so
// it counts toward the per-minute limit.
const (
	HeaderCorpusEdition  = "X-Corpus-Edition"
	HeaderCorpusChecksum = "X-Corpus-Checksum"
	cacheControlText     = "private, max-age=86400"
)

// passageSource is where handlers read KJV text and the edition it comes
// from: *store.Store, which serves both from memory once LoadPassages has
// run (store/passages.go), so /scripture, /topics and answer pages send no
// query for text.
type passageSource interface {
	VerseRange(ctx context.Context, first, last corpus.VerseID) ([]corpus.Verse, error)
	VersesByID(ctx context.Context, ids []corpus.VerseID) ([]corpus.Verse, error)
	TextEdition(ctx context.Context) (store.Edition, error)
}

// edition names the corpus the text comes from.
type edition struct {
	Name, Checksum string
}

func (s *Server) edition(c *fiber.Ctx) (edition, error) {
	ed, err := s.text.TextEdition(c.UserContext())
	if err != nil {
		return edition{}, err
	}
	if ed.Checksum == "" {
		return edition{Name: api.KJV, Checksum: "none"}, nil
	}
	return edition{Name: strings.TrimSpace(ed.Module + " " + ed.Version), Checksum: ed.Checksum}, nil
}

// sendCacheable answers with res (whose requestId is still empty) under
// an ETag of its content, or 304 when the client has that version.
// setID puts the request id into res before it is sent.
func (s *Server) sendCacheable(c *fiber.Ctx, res any, setID func(string)) error {
	ed, err := s.edition(c)
	if err != nil {
		return err
	}
	body, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("web: encode response: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(ed.Checksum))
	h.Write([]byte{0})
	h.Write(body)
	tag := `"` + hex.EncodeToString(h.Sum(nil))[:32] + `"`
	c.Set(fiber.HeaderETag, tag)
	c.Set(fiber.HeaderCacheControl, cacheControlText)
	c.Set(HeaderCorpusEdition, ed.Name)
	c.Set(HeaderCorpusChecksum, ed.Checksum)
	if etagMatches(c.Get(fiber.HeaderIfNoneMatch), tag) {
		c.Status(fiber.StatusNotModified)
		c.Response().ResetBody()
		return nil
	}
	// The body differs from the hashed one only in its requestId, the last
	// field of every cacheable response: splice the id in rather than
	// encode the response a second time (on /scripture the encoding is the
	// handler's largest cost).
	id := RequestID(c)
	if bytes.HasSuffix(body, emptyRequestID) {
		idJSON, err := json.Marshal(id)
		if err != nil {
			return fmt.Errorf("web: encode response: %w", err)
		}
		out := make([]byte, 0, len(body)+len(idJSON))
		out = append(out, body[:len(body)-len(emptyRequestID)+len(`"requestId":`)]...)
		out = append(out, idJSON...)
		out = append(out, '}')
		c.Response().SetBodyRaw(out)
		c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
		return nil
	}
	setID(id)
	return c.JSON(res)
}

// emptyRequestID ends the encoding of a cacheable response whose requestId
// is still empty.
var emptyRequestID = []byte(`"requestId":""}`)

// etagMatches applies If-None-Match: a list of entity tags or "*",
// compared weakly (RFC 9110 13.1.2), so W/"x" matches "x".
func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
