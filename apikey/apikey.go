// Package apikey defines the format of selah's API keys: how a key is made,
// checked without any I/O, hashed for storage and shown to people.
//
// A key looks like
//
//	svc_live_<43 base62 secret><6 base62 checksum>     (58 characters)
//	svc_test_<43 base62 secret><6 base62 checksum>
//
// The parts:
//
//   - The prefix says what the key is and which mode it is for, so a leaked
//     key is recognisable by secret scanners and by people, and test keys can
//     never be mistaken for live ones.
//   - The secret is 43 characters drawn uniformly from the 62-letter alphabet
//     0-9A-Za-z with crypto/rand: 43·log2(62) ≈ 256 bits of entropy.
//   - The checksum is the CRC32 (IEEE) of prefix+secret, written in base62
//     and left-padded with zeros to 6 characters, as GitHub does for its
//     tokens. It lets Parse reject typos and made-up keys without a database
//     round trip; it is not a secret and adds no security.
//
// Only the SHA-256 of the whole key is stored (Hash). A slow password hash is
// not needed: the secret is 256 random bits, so the hash cannot be reversed
// by guessing, and a fast, unsalted hash is what lets the key be found by an
// index lookup on every request. DisplayPrefix gives the part that may be
// shown again later (prefix and first four secret characters).
package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// Prefixes of live and test keys.
const (
	LivePrefix = "svc_live_"
	TestPrefix = "svc_test_"
)

// Lengths of the parts of a key.
const (
	prefixLen   = len(LivePrefix)
	SecretLen   = 43
	ChecksumLen = 6
	// Len is the length of every key.
	Len = prefixLen + SecretLen + ChecksumLen
	// shownSecret is how many secret characters DisplayPrefix shows.
	shownSecret = 4
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Errors returned by Parse. Both mean "not a key we issued"; they differ
// only for logs and tests.
var (
	ErrFormat   = errors.New("apikey: malformed key")
	ErrChecksum = errors.New("apikey: checksum mismatch")
)

// Parsed is a key that passed Parse.
type Parsed struct {
	Key  string // the whole key
	Test bool   // svc_test_ rather than svc_live_
}

// Generate returns a new random key, a test key when test is set.
func Generate(test bool) (string, error) {
	prefix := LivePrefix
	if test {
		prefix = TestPrefix
	}
	secret, err := randomBase62(SecretLen)
	if err != nil {
		return "", err
	}
	body := prefix + secret
	return body + checksum(body), nil
}

// NewID returns a public key id, key_ and 12 random base62 characters (71
// bits): short enough to type in a CLI or put in a URL, and unrelated to the
// secret.
func NewID() (string, error) {
	s, err := randomBase62(12)
	if err != nil {
		return "", err
	}
	return "key_" + s, nil
}

// Parse checks a key's prefix, length, alphabet and checksum. It does no
// I/O, so garbage and typos are refused before any cache or database.
func Parse(key string) (Parsed, error) {
	if len(key) != Len {
		return Parsed{}, ErrFormat
	}
	var p Parsed
	switch key[:prefixLen] {
	case LivePrefix:
	case TestPrefix:
		p.Test = true
	default:
		return Parsed{}, ErrFormat
	}
	for i := prefixLen; i < len(key); i++ {
		if strings.IndexByte(alphabet, key[i]) < 0 {
			return Parsed{}, ErrFormat
		}
	}
	body := key[:prefixLen+SecretLen]
	if key[len(body):] != checksum(body) {
		return Parsed{}, ErrChecksum
	}
	p.Key = key
	return p, nil
}

// Hash returns the SHA-256 of the key, the only form in which it is stored.
func Hash(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// DisplayPrefix returns the part of a key that may be shown after creation,
// e.g. "svc_live_AbCd…". For anything shorter than a key it returns the
// first characters it has, so it never panics.
func DisplayPrefix(key string) string {
	n := min(len(key), prefixLen+shownSecret)
	return key[:n] + "…"
}

// checksum is the CRC32 of s in base62, zero-padded to ChecksumLen.
// 62^6 > 2^32, so every CRC32 fits.
func checksum(s string) string {
	v := crc32.ChecksumIEEE([]byte(s))
	var b [ChecksumLen]byte
	for i := ChecksumLen - 1; i >= 0; i-- {
		b[i] = alphabet[v%62]
		v /= 62
	}
	return string(b[:])
}

// randomBase62 returns n characters drawn uniformly from alphabet. Bytes of
// 248 and above are rejected so that every character has the same
// probability (248 = 4·62).
func randomBase62(n int) (string, error) {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("apikey: random: %w", err)
		}
		for _, b := range buf {
			if b >= 248 {
				continue
			}
			out = append(out, alphabet[b%62])
			if len(out) == n {
				break
			}
		}
	}
	return string(out), nil
}
