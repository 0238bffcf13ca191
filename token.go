package selah

import (
	"crypto/rand"
	"encoding/base64"
)

// TokenLen is the length of a token from NewToken.
var TokenLen = base64.RawURLEncoding.EncodedLen(32)

// NewToken returns 256 random bits in unpadded base64url (TokenLen
// characters): the form of session and CSRF tokens, e-mail verification
// links and one-time key reveals. Web and store both make them, so the form
// is written once here. It is not crypto/rand.Text (130 bits in base32):
// session tokens live in browsers' cookies and their hashes in Postgres, and
// a new form would sign everyone out.
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails: crypto/rand crashes the program instead (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// WellFormedToken reports whether t has the form NewToken gives, so a
// malformed cookie or link is refused before it reaches the database.
func WellFormedToken(t string) bool {
	if len(t) != TokenLen {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(t)
	return err == nil
}
