package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
)

// A new key is shown with post/redirect/get: the form's POST makes the key
// and keeps what the page shows in Redis under a random token for
// newKeyTTL, then redirects to GET /settings/api/keys/new?t=<token>,
// which takes the record (GETDEL: once) and shows it. Reloading that page
// cannot post the form again, and shows no key the second time. The token
// is stored only as a hash, and the record belongs to the account that
// made it.
const newKeyTTL = 10 * time.Minute

type shownKey struct {
	AccountID int64      `json:"accountId"`
	Page      newKeyPage `json:"page"`
}

func newKeyRedisKey(token string) string { return "selah:site:newkey:" + sha256Base64(token) }

// showKeyOnce keeps page for one showing and redirects to it.
func (s *Server) showKeyOnce(c *fiber.Ctx, page newKeyPage) error {
	token := selah.NewToken()
	rec, err := json.Marshal(shownKey{AccountID: mustSession(c).account.ID, Page: page})
	if err != nil {
		return fmt.Errorf("web: encode new key page: %w", err)
	}
	if err := s.redis.Set(c.UserContext(), newKeyRedisKey(token), rec, newKeyTTL).Err(); err != nil {
		return fmt.Errorf("web: keep new key for its page: %w", err)
	}
	return c.Redirect("/settings/api/keys/new?t="+url.QueryEscape(token), fiber.StatusSeeOther)
}

// newKeyShown serves GET /settings/api/keys/new: the key, the first time.
func (s *Server) newKeyShown(c *fiber.Ctx) error {
	token := c.Query("t")
	var rec shownKey
	// Read first, take only if it is this account's: someone else opening
	// the link neither sees the key nor uses up its one showing.
	key := newKeyRedisKey(token)
	for _, take := range []bool{false, true} {
		var raw []byte
		var err error
		if take {
			raw, err = s.redis.GetDel(c.UserContext(), key).Bytes()
		} else {
			raw, err = s.redis.Get(c.UserContext(), key).Bytes()
		}
		rec = shownKey{}
		if errors.Is(err, redis.Nil) || token == "" {
			break
		}
		if err != nil {
			return fmt.Errorf("web: read new key: %w", err)
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("web: decode new key page: %w", err)
		}
		if rec.AccountID != mustSession(c).account.ID {
			break
		}
	}
	if rec.AccountID == 0 || rec.AccountID != mustSession(c).account.ID {
		return s.renderKeys(c, fiber.StatusGone, keyForm{},
			"A new key is shown once, and this one has been shown already (or the link is out of date). "+
				"It is in the list below; if you did not copy it, revoke it and create another.", "")
	}
	return s.renderPage(c, fiber.StatusOK, "key_new", rec.Page)
}
