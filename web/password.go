package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/selahdev/selah"
)

// Passwords are hashed with argon2id (RFC 9106) and stored as PHC strings,
// e.g.
//
//	$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>
//
// with unpadded standard base64 salt (16 bytes) and hash (32 bytes). The
// parameters are RFC 9106's second recommendation (64 MiB, 3 passes, 4
// lanes). They are written into every hash, so they can be raised later
// without invalidating stored passwords. Unlike API keys, passwords are
// chosen by people and guessable, hence a slow, salted, memory-hard hash.
const (
	argonMemory  = 64 * 1024 // KiB
	argonTime    = 3
	argonThreads = 4
	argonSaltLen = 16
	argonKeyLen  = 32
)

// HashPassword returns the argon2id PHC string of pw.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("web: password salt: %w", err)
	}
	sum := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(sum)), nil
}

// CheckPassword reports whether pw matches the PHC string hash. A malformed
// hash, or one with parameters beyond sane bounds, never matches.
func CheckPassword(hash, pw string) bool {
	parts := strings.Split(hash, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, hash
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	// Bounds keep a corrupted row from costing gigabytes or minutes.
	if m < 8 || m > 1<<20 || t < 1 || t > 16 || p < 1 || p > 16 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return false
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// commonPasswords are the passwords of at least minPasswordLen characters
// (lower-cased) among the 49,233 most common of leaked-password corpora,
// as shipped by zxcvbn-ts (npm @zxcvbn-ts/language-common 4.1.3,
// src/passwords.json, MIT, github.com/zxcvbn-ts/zxcvbn). Shorter ones are
// refused by the length rule already.
//
//go:embed common-passwords.txt
var commonPasswordList string

var commonPasswords = func() map[string]struct{} {
	m := make(map[string]struct{}, 2048)
	for _, p := range strings.Split(commonPasswordList, "\n") {
		if p != "" {
			m[p] = struct{}{}
		}
	}
	return m
}()

// minDistinctRunes refuses passwords like "aaaaaaaaaa" or "ababababab",
// which no list can enumerate in all their variants.
const minDistinctRunes = 5

// weakPassword returns why pw may not be chosen by the owner of email, or
// "" when it may. Length is checked by the caller.
func weakPassword(pw, email string) string {
	lower := strings.ToLower(pw)
	if _, ok := commonPasswords[lower]; ok {
		return "That password is one of the most common passwords; choose another."
	}
	distinct := map[rune]bool{}
	for _, r := range lower {
		distinct[r] = true
	}
	if len(distinct) < minDistinctRunes {
		return fmt.Sprintf("Choose a password with at least %d different characters.", minDistinctRunes)
	}
	email = strings.ToLower(strings.TrimSpace(email))
	local, _, _ := strings.Cut(email, "@")
	if lower == email || (local != "" && lower == local) {
		return "Choose a password that is not your email address."
	}
	return ""
}

// passwordSlots bounds concurrent argon2id work: each hash holds 64 MiB
// while it runs, so a burst of sign-ins must queue rather than exhaust
// memory.
var passwordSlots = make(chan struct{}, max(2, runtime.NumCPU()))

// passwordSlotWait is shorter than it was (10 s): the per-address bucket
// keeps floods out, so a request that still finds every slot busy is
// better told soon. A variable only so that the test binary, whose
// parallel tests all hash passwords through these few slots under the race
// detector, can wait longer.
var passwordSlotWait = 5 * time.Second

func withPasswordSlot(ctx context.Context, f func() error) error {
	t := time.NewTimer(passwordSlotWait)
	defer t.Stop()
	select {
	case passwordSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return &selah.Error{Code: selah.EUNAVAILABLE, Message: "The site is busy. Try again in a moment.", RetryAfter: 5}
	}
	defer func() { <-passwordSlots }()
	return f()
}

// dummyHash is checked against when there is no real hash to check. It is
// made on first use, not at start, so commands that never serve sign-ins
// do not pay for it.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("not a password anyone has")
	if err != nil {
		panic(err)
	}
	return h
})
