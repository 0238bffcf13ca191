package web

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/reqlog"
	"github.com/selahdev/selah/web/session"
)

// The API-key pages of a signed-in account (/settings/api): the list with
// its usage, creating, revoking and rotating a key, and showing a new key
// once.

// maxKeyLifetimeDays bounds the optional expiry of a new key.
const maxKeyLifetimeDays = 3650

// parseDays reads the optional expiry field of the key form.
func parseDays(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxKeyLifetimeDays {
		return 0, selah.Errorf(selah.EINVALID,
			"The expiry must be a whole number of days from 1 to %d, or empty for a key that does not expire.", maxKeyLifetimeDays)
	}
	return n, nil
}

// keyView is a key as the keys page shows it.
type keyView struct {
	ID, Name, Prefix, Mode, State string
	ReplacedBy                    string
	CreatedAt                     time.Time
	LastUsedAt, ExpiresAt         *time.Time
	CanRevoke, CanRotate          bool
}

func (s *Server) keyView(k store.APIKey) keyView {
	mode := "live"
	if k.Test {
		mode = "test"
	}
	return keyView{
		ID: k.ID, Name: k.Name, Prefix: k.Prefix, Mode: mode, State: k.State(s.now()),
		ReplacedBy: k.ReplacedBy, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, ExpiresAt: k.ExpiresAt,
		CanRevoke: k.Status != store.KeyRevoked,
		// Store.RotateKey refuses the others (ECONFLICT); a revoked key is
		// replaced by creating a key.
		CanRotate: k.Status == store.KeyActive && k.ReplacedBy == "",
	}
}

// keyForm is the create form as submitted, to show again after an error.
type keyForm struct {
	Name          string
	Test          bool
	ExpiresInDays string
}

type keysPage struct {
	Keys    []keyView
	Form    keyForm
	Error   string
	Notice  string
	Plan    string
	MaxKeys int
	Usage   *api.UsageResponse // the limits and what is left, as GET /api/v1/usage gives them
}

func (s *Server) keysPage(c *fiber.Ctx) error {
	return s.renderKeys(c, fiber.StatusOK, keyForm{}, "", c.Query("revoked"))
}

// renderKeys shows the keys page. revokedID, from the redirect after a
// revocation, adds a confirmation, but only for a revoked key of this
// account: the query string is not trusted to put words on the page.
func (s *Server) renderKeys(c *fiber.Ctx, status int, form keyForm, errMsg, revokedID string) error {
	acct := session.Must(c).Account
	keys, err := s.store.ListKeys(c.UserContext(), acct.ID)
	if err != nil {
		return fmt.Errorf("web: keys page: %w", err)
	}
	page := keysPage{Form: form, Error: errMsg, Plan: acct.Plan.Name, MaxKeys: acct.Plan.MaxActiveKeys}
	if u, err := s.usageOf(c, acct.ID, acct.Plan); err == nil {
		page.Usage = &u
	} else {
		reqlog.From(c).Warn("usage for the keys page", slog.String("error", err.Error()))
	}
	for _, k := range keys {
		page.Keys = append(page.Keys, s.keyView(k))
		if revokedID != "" && k.ID == revokedID && k.Status == store.KeyRevoked {
			page.Notice = fmt.Sprintf("The key “%s” (%s) is revoked. Requests with it are refused within a second.",
				cmp.Or(k.Name, "(unnamed)"), k.Prefix)
		}
	}
	return s.renderPage(c, status, "settings_api", page)
}

// newKeyPage shows a key that was just made, the only time it is shown.
type newKeyPage struct {
	Secret    string
	Key       keyView
	OldPrefix string // set after a rotation
}

func (s *Server) createKey(c *fiber.Ctx) error {
	acct := session.Must(c).Account
	form := keyForm{
		Name:          strings.TrimSpace(c.FormValue("name")),
		Test:          c.FormValue("mode") == "test",
		ExpiresInDays: strings.TrimSpace(c.FormValue("expires_in_days")),
	}
	if m := c.FormValue("mode"); m != "live" && m != "test" {
		return s.renderKeys(c, fiber.StatusBadRequest, form, "Choose live or test mode.", "")
	}
	days, err := parseDays(form.ExpiresInDays)
	if err != nil {
		return s.renderKeys(c, StatusOf(selah.ErrorCode(err)), form, selah.ErrorMessage(err), "")
	}
	var expires *time.Time
	if days > 0 {
		t := s.now().Add(time.Duration(days) * 24 * time.Hour)
		expires = &t
	}
	secret, k, err := s.store.CreateKey(c.UserContext(), acct.ID, form.Name, form.Test, expires)
	if code := selah.ErrorCode(err); code != "" && code != selah.EINTERNAL {
		return s.renderKeys(c, StatusOf(code), form, selah.ErrorMessage(err), "")
	}
	if err != nil {
		return fmt.Errorf("web: create key: %w", err)
	}
	reqlog.From(c).Info("api key created", slog.String("keyId", k.ID))
	return s.showKeyOnce(c, newKeyPage{Secret: secret, Key: s.keyView(k)})
}

var errNoSuchKey = selah.Errorf(selah.ENOTFOUND, "There is no such API key.")

// ownKey returns the key named in the path if it belongs to the signed-in
// account. Another account's key is "no such key", exactly like a key
// that does not exist, so ids cannot be probed.
func (s *Server) ownKey(c *fiber.Ctx) (store.APIKey, error) {
	k, err := s.store.KeyByID(c.UserContext(), c.Params("id"))
	if errors.Is(err, selah.ErrNotFound) || (err == nil && k.AccountID != session.Must(c).Account.ID) {
		return store.APIKey{}, errNoSuchKey
	}
	if err != nil {
		return store.APIKey{}, fmt.Errorf("web: load key: %w", err)
	}
	return k, nil
}

type confirmPage struct {
	Action string // "revoke" or "rotate"
	Key    keyView
}

// confirmKey asks before revoking or rotating: both cut off whatever uses
// the key, so a stray click must not do it. It is a page with a form, not a
// script dialog, so that it works without JavaScript.
func (s *Server) confirmKey(action string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		k, err := s.ownKey(c)
		if err != nil {
			return err
		}
		return s.renderPage(c, fiber.StatusOK, "key_confirm", confirmPage{Action: action, Key: s.keyView(k)})
	}
}

func (s *Server) revokeKey(c *fiber.Ctx) error {
	k, err := s.ownKey(c)
	if err != nil {
		return err
	}
	if err := s.store.RevokeKey(c.UserContext(), k.ID); err != nil {
		return fmt.Errorf("web: revoke key: %w", err)
	}
	reqlog.From(c).Info("api key revoked", slog.String("keyId", k.ID))
	return c.Redirect("/settings/api?revoked="+k.ID, fiber.StatusSeeOther)
}

// rotateKey replaces the key with a new one and revokes it at once, with no
// grace period: someone rotating from the website is usually replacing a
// key that leaked. The CLI offers a grace period for planned rotations.
func (s *Server) rotateKey(c *fiber.Ctx) error {
	k, err := s.ownKey(c)
	if err != nil {
		return err
	}
	secret, nk, err := s.store.RotateKey(c.UserContext(), k.ID, 0)
	if code := selah.ErrorCode(err); code != "" && code != selah.EINTERNAL {
		return s.renderKeys(c, StatusOf(code), keyForm{}, selah.ErrorMessage(err), "")
	}
	if err != nil {
		return fmt.Errorf("web: rotate key: %w", err)
	}
	reqlog.From(c).Info("api key rotated", slog.String("keyId", k.ID), slog.String("newKeyId", nk.ID))
	return s.showKeyOnce(c, newKeyPage{Secret: secret, Key: s.keyView(nk), OldPrefix: k.Prefix})
}

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
	rec, err := json.Marshal(shownKey{AccountID: session.Must(c).Account.ID, Page: page})
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
		if rec.AccountID != session.Must(c).Account.ID {
			break
		}
	}
	if rec.AccountID == 0 || rec.AccountID != session.Must(c).Account.ID {
		return s.renderKeys(c, fiber.StatusGone, keyForm{},
			"A new key is shown once, and this one has been shown already (or the link is out of date). "+
				"It is in the list below; if you did not copy it, revoke it and create another.", "")
	}
	return s.renderPage(c, fiber.StatusOK, "key_new", rec.Page)
}
