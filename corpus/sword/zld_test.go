package sword

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"html"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func openNave(t testing.TB) *Lexicon {
	t.Helper()
	l, err := OpenLexicon(library, "Nave")
	if err != nil {
		t.Fatalf("open Nave (run deploy/setup.sh): %v", err)
	}
	return l
}

func TestLexiconNave(t *testing.T) {
	t.Parallel()
	l := openNave(t)
	keys := l.Keys()
	// 5,322 index records; SIN and REVERENCE each appear twice.
	if len(keys) != 5320 || len(l.records) != 5322 {
		t.Fatalf("%d keys in %d records, want 5320 in 5322", len(keys), len(l.records))
	}
	if keys[0] != "AARON" || keys[len(keys)-1] != "ZUZIMS" {
		t.Errorf("keys run %q..%q, want AARON..ZUZIMS", keys[0], keys[len(keys)-1])
	}
	for _, k := range []string{"FAITH", "faith", " Faith "} {
		raw, err := l.Entry(k)
		if err != nil {
			t.Fatalf("Entry(%q): %v", k, err)
		}
		if !strings.HasPrefix(raw, `<entryFree n="FAITH">`) || !strings.HasSuffix(raw, "</entryFree>") {
			t.Errorf("Entry(%q) = %.60q...%q", k, raw, raw[max(0, len(raw)-20):])
		}
	}
	// Both SIN records come back: the desert and the topic.
	sin, err := l.Entry("SIN")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(sin, "<entryFree"); n != 2 || !strings.Contains(sin, "Desert of") || !strings.Contains(sin, "MISCELLANY") {
		t.Errorf("SIN holds %d entries, want the desert and the topic", n)
	}
	if _, err := l.Entry("NO SUCH TOPIC"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Entry of a missing key: %v, want fs.ErrNotExist", err)
	}

	visits := 0
	err = l.Each(func(key, raw string) error {
		visits++
		if !strings.HasPrefix(raw, "<entryFree n=") {
			t.Errorf("%s: entry starts %.40q", key, raw)
		}
		return nil
	})
	if err != nil || visits != 5322 {
		t.Fatalf("Each: %d visits, %v; want 5322", visits, err)
	}
	stop := errors.New("stop")
	if err := l.Each(func(string, string) error { return stop }); err != stop {
		t.Errorf("Each did not return fn's error: %v", err)
	}

	if _, err := OpenLexicon(library, "engKJV2006eb"); err == nil || !strings.Contains(err.Error(), "not zLD") {
		t.Errorf("OpenLexicon of a Bible text: %v, want a driver error", err)
	}

	sum, err := l.Checksum()
	if err != nil || len(sum) != 64 {
		t.Fatalf("Checksum = %q, %v", sum, err)
	}
	if again, _ := openNave(t).Checksum(); again != sum {
		t.Errorf("Checksum changed between opens: %s, %s", sum, again)
	}
}

// wordRE picks the words and numbers of a text, so markup and layout do
// not matter when comparing with diatheke.
var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

// tagRE matches one tag of an entry.
var tagRE = regexp.MustCompile(`<[^>]*>`)

// TestLexiconAgainstDiatheke compares entries with what SWORD's diatheke
// prints: the raw markup (-f internal, which shows newlines as spaces)
// and the words of the plain rendering (-f plain, which writes the
// entry's n attribute as a heading and list items as bullets).
func TestLexiconAgainstDiatheke(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("diatheke"); err != nil {
		t.Fatalf("diatheke is not installed (run deploy/setup.sh): %v", err)
	}
	l := openNave(t)
	for _, key := range []string{"AARON", "ABADDON", "FAITH", "PRAYER", "LORD'S PRAYER", "ANXIETY", "LOVE", "ZUZIMS"} {
		t.Run(key, func(t *testing.T) {
			raw, err := l.Entry(key)
			if err != nil {
				t.Fatal(err)
			}
			internal := diatheke(t, "internal", key)
			if got := collapse(raw); got != collapse(internal) {
				t.Errorf("raw entry differs from diatheke -f internal\n got %.200q\nwant %.200q", got, collapse(internal))
			}
			n := regexp.MustCompile(`<entryFree n="([^"]*)"`).FindStringSubmatch(raw)
			want := strings.Join(wordRE.FindAllString(diatheke(t, "plain", key), -1), " ")
			text := html.UnescapeString(tagRE.ReplaceAllString(raw, ""))
			got := strings.Join(wordRE.FindAllString(n[1]+" "+text, -1), " ")
			if got != want {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("words differ from diatheke -f plain at byte %d\n got %.80q\nwant %.80q", i, got[max(0, i-20):], want[max(0, i-20):])
			}
		})
	}
}

// diatheke returns the Nave entry for key as diatheke prints it in format,
// without the "KEY: " before it and the "(Nave)" after it.
func diatheke(t *testing.T, format, key string) string {
	t.Helper()
	out, err := exec.Command("diatheke", "-b", "Nave", "-f", format, "-k", key).Output()
	if err != nil {
		t.Fatalf("diatheke %s: %v", key, err)
	}
	s, ok := strings.CutPrefix(string(out), key+": ")
	if !ok {
		t.Fatalf("diatheke printed %.60q, not entry %s", out, key)
	}
	return strings.TrimSuffix(strings.TrimSpace(s), "(Nave)")
}

// copyNave copies the Nave module into a new library and returns the
// library and the data path prefix of its files.
func copyNave(t *testing.T) (dir, prefix string) {
	t.Helper()
	dir = t.TempDir()
	conf, err := os.ReadFile(filepath.Join(library, "mods.d", "nave.conf"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "mods.d", "nave.conf"), conf)
	prefix = filepath.Join(dir, "modules", "lexdict", "zld", "nave", "nave")
	for _, ext := range lexFiles {
		b, err := os.ReadFile(filepath.Join(library, "modules", "lexdict", "zld", "nave", "nave"+ext))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, prefix+ext, b)
	}
	return dir, prefix
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLexiconTruncated cuts each file of a copy of Nave short: opening or
// walking the module must then fail with an error, never panic.
func TestLexiconTruncated(t *testing.T) {
	t.Parallel()
	dir, prefix := copyNave(t)
	for _, ext := range lexFiles {
		orig, err := os.ReadFile(prefix + ext)
		if err != nil {
			t.Fatal(err)
		}
		// Each length loses data that some entry needs. Not every cut
		// can be noticed: an index cut at a multiple of 8 bytes is a
		// smaller valid index, and the .dat's last record ends in a CR LF
		// that no index entry covers.
		for _, n := range []int{0, 5, len(orig)/2 + 3, len(orig) - 3} {
			t.Run(ext, func(t *testing.T) {
				writeFile(t, prefix+ext, orig[:n])
				defer writeFile(t, prefix+ext, orig)
				l, err := OpenLexicon(dir, "Nave")
				if err == nil {
					err = l.Each(func(string, string) error { return nil })
				}
				if err == nil {
					t.Errorf("%s cut to %d of %d bytes: no error", ext, n, len(orig))
				}
			})
		}
	}
	if _, err := OpenLexicon(dir, "Nave"); err != nil {
		t.Fatalf("restored copy: %v", err)
	}
}

// lexEntry is one record of a module built by buildLexicon: a key with
// its text, or with "@LINK target".
type lexEntry struct{ key, text string }

// buildLexicon writes a zLD module as SWORD would, with blocks of
// perBlock entries, so the tests can cover links and damage that Nave
// does not have.
func buildLexicon(t *testing.T, dir string, perBlock int, entries []lexEntry) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "mods.d", "test.conf"), []byte("[Test]\nDataPath=./modules/lexdict/zld/test/test\nModDrv=zLD\nCompressType=ZIP\n"))
	var idx, dat, zdx, zdt bytes.Buffer
	var texts []string
	u32 := func(w *bytes.Buffer, v int) { binary.Write(w, binary.LittleEndian, uint32(v)) }
	flush := func() {
		if len(texts) == 0 {
			return
		}
		var blk bytes.Buffer
		u32(&blk, len(texts))
		off := 4 + 8*len(texts)
		for _, s := range texts {
			u32(&blk, off)
			u32(&blk, len(s)+1)
			off += len(s) + 1
		}
		for _, s := range texts {
			blk.WriteString(s + "\x00")
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(blk.Bytes())
		zw.Close()
		u32(&zdx, zdt.Len())
		u32(&zdx, z.Len())
		zdt.Write(z.Bytes())
		texts = nil
	}
	for _, e := range entries {
		start := dat.Len()
		dat.WriteString(e.key + "\r\n")
		if strings.HasPrefix(e.text, "@LINK") {
			dat.WriteString(e.text)
		} else {
			u32(&dat, zdx.Len()/8)
			u32(&dat, len(texts))
			texts = append(texts, e.text)
			if len(texts) == perBlock {
				flush()
			}
		}
		u32(&idx, start)
		u32(&idx, dat.Len()-start)
		dat.WriteString("\r\n")
	}
	flush()
	prefix := filepath.Join(dir, "modules", "lexdict", "zld", "test", "test")
	for i, b := range []*bytes.Buffer{&idx, &dat, &zdx, &zdt} {
		writeFile(t, prefix+lexFiles[i], b.Bytes())
	}
}

func TestLexiconLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	buildLexicon(t, dir, 2, []lexEntry{
		{"ALPHA", "first"},
		{"BETA", "@LINK ALPHA"},
		{"GAMMA", "@LINK BETA"},
		{"LOOP", "@LINK LOOP"},
		{"LOST", "@LINK NOWHERE"},
		{"OMEGA", "last"},
	})
	l, err := OpenLexicon(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, want string }{{"ALPHA", "first"}, {"beta", "first"}, {"GAMMA", "first"}, {"OMEGA", "last"}} {
		if got, err := l.Entry(c.key); got != c.want || err != nil {
			t.Errorf("Entry(%q) = %q, %v; want %q", c.key, got, err, c.want)
		}
	}
	for _, key := range []string{"LOOP", "LOST"} {
		if _, err := l.Entry(key); err == nil {
			t.Errorf("Entry(%q): no error", key)
		}
	}
	if err := l.Each(func(string, string) error { return nil }); err == nil {
		t.Error("Each over a broken link: no error")
	}
}

// FuzzLexicon feeds damaged index and block data to the reader, which
// must report errors and never panic.
func FuzzLexicon(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x00\x0f\x00\x00\x00"), []byte("A\r\n\x00\x00\x00\x00\x00\x00\x00\x00"), []byte("\x01\x00\x00\x00\x0c\x00\x00\x00\x02\x00\x00\x00x\x00"))
	f.Add([]byte("\x00\x00\x00\x00\xff\xff\xff\xff"), []byte("A\n@LINK A"), []byte{})
	f.Fuzz(func(t *testing.T, idx, dat, block []byte) {
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(block)
		zw.Close()
		zdx := binary.LittleEndian.AppendUint32(nil, 0)
		zdx = binary.LittleEndian.AppendUint32(zdx, uint32(z.Len()))
		l := &Lexicon{Name: "fuzz", idx: idx, dat: dat, zdx: zdx, zdt: z.Bytes()}
		if err := l.parseIndex(); err != nil {
			return
		}
		l.Each(func(string, string) error { return nil })
		for _, k := range l.Keys() {
			l.Entry(k)
		}
	})
}
