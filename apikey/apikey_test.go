package apikey_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/selahdev/selah/apikey"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func generate(t *testing.T, test bool) string {
	t.Helper()
	k, err := apikey.Generate(test)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestGenerate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		test   bool
		prefix string
	}{
		{"live", false, "svc_live_"},
		{"test", true, "svc_test_"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			seen := map[string]bool{}
			for range 200 {
				k := generate(t, tc.test)
				if len(k) != apikey.Len || apikey.Len != 58 {
					t.Fatalf("len(%q) = %d, want 58", k, len(k))
				}
				if !strings.HasPrefix(k, tc.prefix) {
					t.Fatalf("%q lacks prefix %s", k, tc.prefix)
				}
				for _, r := range k[len(tc.prefix):] {
					if !strings.ContainsRune(alphabet, r) {
						t.Fatalf("%q has non-base62 %q", k, r)
					}
				}
				if seen[k] {
					t.Fatalf("duplicate key %q", k)
				}
				seen[k] = true
				p, err := apikey.Parse(k)
				if err != nil {
					t.Fatalf("Parse(Generate()) = %v", err)
				}
				if p.Test != tc.test || p.Key != k {
					t.Fatalf("Parse = %+v", p)
				}
			}
		})
	}
}

// TestSecretUsesWholeAlphabet is a coarse check that secrets are not drawn
// from a narrower set (a biased or truncated generator).
func TestSecretUsesWholeAlphabet(t *testing.T) {
	t.Parallel()
	seen := map[rune]bool{}
	for range 300 {
		k := generate(t, false)
		for _, r := range k[len(apikey.LivePrefix) : len(apikey.LivePrefix)+apikey.SecretLen] {
			seen[r] = true
		}
	}
	if len(seen) != 62 {
		t.Fatalf("secrets used %d of 62 characters", len(seen))
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	k := generate(t, false)
	body := k[:len(k)-apikey.ChecksumLen]
	sum := k[len(body):]
	other := "0"
	if sum[0] == '0' {
		other = "1"
	}
	cases := []struct {
		name string
		key  string
		want error
	}{
		{"empty", "", apikey.ErrFormat},
		{"prefix only", "svc_live_", apikey.ErrFormat},
		{"too short", k[:len(k)-1], apikey.ErrFormat},
		{"too long", k + "0", apikey.ErrFormat},
		{"unknown prefix", "svc_prod_" + k[9:], apikey.ErrFormat},
		{"upper-case prefix", strings.ToUpper(k[:9]) + k[9:], apikey.ErrFormat},
		{"other vendor", "sk_live_0" + k[9:], apikey.ErrFormat},
		{"non-base62 in secret", k[:20] + "_" + k[21:], apikey.ErrFormat},
		{"non-ascii", k[:20] + "é" + k[22:], apikey.ErrFormat},
		{"space", k[:20] + " " + k[21:], apikey.ErrFormat},
		{"wrong checksum", body + other + sum[1:], apikey.ErrChecksum},
		{"live checksum on test prefix", "svc_test_" + k[9:], apikey.ErrChecksum},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := apikey.Parse(tc.key); !errors.Is(err, tc.want) {
				t.Fatalf("Parse(%q) = %v, want %v", tc.key, err, tc.want)
			}
		})
	}
}

// TestParseRejectsEveryTypo: CRC32 detects every burst of up to 32 bits, so
// every single-character substitution and every adjacent transposition is
// caught, deterministically.
func TestParseRejectsEveryTypo(t *testing.T) {
	t.Parallel()
	for _, test := range []bool{false, true} {
		k := generate(t, test)
		start := len(apikey.LivePrefix)
		for i := start; i < len(k); i++ {
			for j := 0; j < len(alphabet); j++ {
				if alphabet[j] == k[i] {
					continue
				}
				typo := k[:i] + string(alphabet[j]) + k[i+1:]
				if _, err := apikey.Parse(typo); !errors.Is(err, apikey.ErrChecksum) {
					t.Fatalf("substitution at %d accepted: %v", i, err)
				}
			}
			if i+1 < len(k) && k[i] != k[i+1] {
				swapped := k[:i] + string(k[i+1]) + string(k[i]) + k[i+2:]
				if _, err := apikey.Parse(swapped); !errors.Is(err, apikey.ErrChecksum) {
					t.Fatalf("transposition at %d accepted: %v", i, err)
				}
			}
		}
	}
}

// TestChecksumKnownAnswer pins the checksum algorithm (CRC32-IEEE of
// prefix+secret, base62, zero-padded to six digits) so that keys already
// issued stay valid. The expected values were computed with hash/crc32.
func TestChecksumKnownAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, sum string }{
		{"svc_live_" + strings.Repeat("A", apikey.SecretLen), "01HlkP"}, // crc 0x01221781: leading zero kept
		{"svc_test_" + strings.Repeat("z", apikey.SecretLen), "0HKCy1"}, // crc 0x0f427729
	} {
		p, err := apikey.Parse(tc.body + tc.sum)
		if err != nil {
			t.Fatalf("Parse(%s…%s) = %v", tc.body[:13], tc.sum, err)
		}
		if p.Test != strings.HasPrefix(tc.body, "svc_test_") {
			t.Fatalf("Test = %v", p.Test)
		}
	}
}

func TestHash(t *testing.T) {
	t.Parallel()
	a, b := generate(t, false), generate(t, false)
	ha, hb := apikey.Hash(a), apikey.Hash(b)
	if len(ha) != 32 {
		t.Fatalf("len(Hash) = %d, want 32 (SHA-256)", len(ha))
	}
	if !bytes.Equal(ha, apikey.Hash(a)) {
		t.Fatal("Hash is not deterministic")
	}
	if bytes.Equal(ha, hb) {
		t.Fatal("different keys hash alike")
	}
}

func TestDisplayPrefix(t *testing.T) {
	t.Parallel()
	k := generate(t, true)
	got := apikey.DisplayPrefix(k)
	if want := k[:13] + "…"; got != want {
		t.Fatalf("DisplayPrefix = %q, want %q", got, want)
	}
	if got := apikey.DisplayPrefix("svc"); got != "svc…" {
		t.Fatalf("DisplayPrefix(short) = %q", got)
	}
}

func TestNewID(t *testing.T) {
	t.Parallel()
	id, err := apikey.NewID()
	if err != nil {
		t.Fatal(err)
	}
	if len(id) != 16 || !strings.HasPrefix(id, "key_") {
		t.Fatalf("NewID = %q", id)
	}
	for _, r := range id[4:] {
		if !strings.ContainsRune(alphabet, r) {
			t.Fatalf("NewID %q has non-base62 %q", id, r)
		}
	}
}
