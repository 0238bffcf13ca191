package sword

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Lexicon is an open zLD lexicon module (a dictionary or topical index such
// as Nave's) held in memory; the Nave module is 1.5 MB. It has four files:
//
//   - .idx: one 8-byte entry per key, the offset and size of the key's
//     record in .dat (uint32 little-endian each);
//   - .dat: per key a record "KEY\r\n" followed either by the block number
//     and the entry's index in that block (uint32 each), or by "@LINK
//     OTHER KEY", which makes the key an alias of another;
//   - .zdx: one 8-byte entry per block, its offset and size in .zdt;
//   - .zdt: the zlib-compressed blocks. A decompressed block starts with
//     an entry count, then per entry its offset and size in the block
//     (uint32 each), then the entries' text, each ending in a NUL.
//
// A Lexicon is safe for concurrent use: nothing is cached between calls.
type Lexicon struct {
	Name    string
	Version string
	confRaw []byte
	idx     []byte
	dat     []byte
	zdx     []byte
	zdt     []byte
	records []lexRecord      // in index order
	byKey   map[string][]int // upper-cased key -> records, in index order
	order   []string         // distinct keys in index order
}

// lexRecord is one .dat record: its key and where its text lives, or the
// key it links to.
type lexRecord struct {
	key   string
	block uint32
	entry uint32
	link  string // target key of an @LINK record, else ""
}

// lexFiles are the extensions of a zLD module's files, in the order
// Checksum hashes them.
var lexFiles = []string{".idx", ".dat", ".zdx", ".zdt"}

// maxLinkHops bounds how many @LINK records one lookup follows, so a cycle
// in a damaged module is an error rather than a hang.
const maxLinkHops = 8

// OpenLexicon opens the zLD module called name in the SWORD library at dir
// (e.g. /usr/share/sword). It reads the conf and the four data files and
// parses every key record, so a damaged index is reported here; entry
// text is decompressed when asked for.
func OpenLexicon(dir, name string) (*Lexicon, error) {
	conf, raw, err := openConf(dir, name, "zLD")
	if err != nil {
		return nil, err
	}
	l := &Lexicon{Name: conf.Name, Version: conf.Get("Version"), confRaw: raw}
	prefix := conf.dataPath(dir) // the files' path without extension
	for i, dst := range []*[]byte{&l.idx, &l.dat, &l.zdx, &l.zdt} {
		b, err := os.ReadFile(prefix + lexFiles[i])
		if err != nil {
			return nil, fmt.Errorf("sword: open %s: %w", l.Name, err)
		}
		*dst = b
	}
	if err := l.parseIndex(); err != nil {
		return nil, fmt.Errorf("sword: %s: %w", l.Name, err)
	}
	return l, nil
}

// parseIndex reads every .idx entry and its .dat record.
func (l *Lexicon) parseIndex() error {
	if len(l.idx)%8 != 0 {
		return fmt.Errorf("index is %d bytes, not a whole number of 8-byte entries", len(l.idx))
	}
	n := len(l.idx) / 8
	if n == 0 {
		return errors.New("index is empty")
	}
	l.records = make([]lexRecord, 0, n)
	l.byKey = make(map[string][]int, n)
	for i := range n {
		off := int64(binary.LittleEndian.Uint32(l.idx[i*8:]))
		size := int64(binary.LittleEndian.Uint32(l.idx[i*8+4:]))
		if off+size > int64(len(l.dat)) {
			return fmt.Errorf("index entry %d points at %d+%d, past the %d-byte key file", i, off, size, len(l.dat))
		}
		r, err := parseRecord(l.dat[off : off+size])
		if err != nil {
			return fmt.Errorf("index entry %d: %w", i, err)
		}
		u := strings.ToUpper(r.key)
		if _, seen := l.byKey[u]; !seen {
			l.order = append(l.order, r.key)
		}
		l.byKey[u] = append(l.byKey[u], len(l.records))
		l.records = append(l.records, r)
	}
	return nil
}

// parseRecord reads one .dat record. SWORD ends the key at the first
// newline and drops a carriage return before it.
func parseRecord(rec []byte) (lexRecord, error) {
	key, rest, ok := bytes.Cut(rec, []byte("\n"))
	if !ok {
		return lexRecord{}, fmt.Errorf("record %q has no end of key", truncate(rec))
	}
	r := lexRecord{key: string(bytes.TrimSuffix(key, []byte("\r")))}
	if r.key == "" {
		return lexRecord{}, errors.New("record with an empty key")
	}
	if target, ok := bytes.CutPrefix(rest, []byte("@LINK")); ok {
		r.link = string(bytes.TrimSpace(target))
		if r.link == "" {
			return lexRecord{}, fmt.Errorf("key %q links to an empty key", r.key)
		}
		return r, nil
	}
	if len(rest) < 8 {
		return lexRecord{}, fmt.Errorf("key %q has a %d-byte locator, want 8", r.key, len(rest))
	}
	r.block = binary.LittleEndian.Uint32(rest)
	r.entry = binary.LittleEndian.Uint32(rest[4:])
	return r, nil
}

func truncate(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

// Keys returns the module's distinct keys in index order (alphabetical in
// SWORD's sense). A key that the index holds twice is listed once.
func (l *Lexicon) Keys() []string {
	return append([]string(nil), l.order...)
}

// Entry returns the raw markup (TEI for Nave) of key, matched without
// regard to case as SWORD does. A few keys occur twice in an index (Nave
// has two SIN and two REVERENCE records, one of each a different topic);
// their texts are joined with a newline in index order, where SWORD's own
// tools show only one of them. An unknown key is an error wrapping
// fs.ErrNotExist.
func (l *Lexicon) Entry(key string) (string, error) {
	recs, ok := l.byKey[strings.ToUpper(strings.TrimSpace(key))]
	if !ok {
		return "", fmt.Errorf("sword: %s has no entry %q: %w", l.Name, key, fs.ErrNotExist)
	}
	var texts []string
	var c blockCache
	for _, i := range recs {
		text, err := l.text(i, &c)
		if err != nil {
			return "", fmt.Errorf("sword: %s %q: %w", l.Name, key, err)
		}
		texts = append(texts, text)
	}
	return strings.Join(texts, "\n"), nil
}

// Each calls fn with every record of the index in order: the key and the
// raw markup of its entry. Links are resolved, so an alias is visited with
// its target's text; a key the index holds twice is visited twice. An
// error from fn stops the walk and is returned.
func (l *Lexicon) Each(fn func(key, raw string) error) error {
	var c blockCache
	for i, r := range l.records {
		text, err := l.text(i, &c)
		if err != nil {
			return fmt.Errorf("sword: %s %q: %w", l.Name, r.key, err)
		}
		if err := fn(r.key, text); err != nil {
			return err
		}
	}
	return nil
}

// Checksum identifies the module's content: a SHA-256 over its conf and
// data files. It has Text.Checksum's signature so ingest treats both
// alike; the files are already in memory, so it does not fail.
func (l *Lexicon) Checksum() (string, error) {
	h := sha256.New()
	h.Write(l.confRaw)
	for i, b := range [][]byte{l.idx, l.dat, l.zdx, l.zdt} {
		fmt.Fprintf(h, "%s\x00", lexFiles[i])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// blockCache keeps the last block decompressed: entries in index order sit
// in the same block, so one decompression serves many of them.
type blockCache struct {
	valid bool
	block uint32
	data  []byte
}

// text returns the entry text of record i, following links.
func (l *Lexicon) text(i int, c *blockCache) (string, error) {
	r := l.records[i]
	for hop := 0; r.link != ""; hop++ {
		if hop == maxLinkHops {
			return "", fmt.Errorf("more than %d links from %q", maxLinkHops, l.records[i].key)
		}
		recs, ok := l.byKey[strings.ToUpper(r.link)]
		if !ok {
			return "", fmt.Errorf("key %q links to missing key %q", r.key, r.link)
		}
		r = l.records[recs[0]]
	}
	if !c.valid || c.block != r.block {
		data, err := l.decompress(r.block)
		if err != nil {
			return "", err
		}
		*c = blockCache{valid: true, block: r.block, data: data}
	}
	return blockEntry(c.data, r.block, r.entry)
}

// maxLexBlock bounds a decompressed block; Nave's largest is under 100 KB.
const maxLexBlock = 16 << 20

func (l *Lexicon) decompress(block uint32) ([]byte, error) {
	if int64(block)*8+8 > int64(len(l.zdx)) {
		return nil, fmt.Errorf("block %d not in the %d-entry block index", block, len(l.zdx)/8)
	}
	off := int64(binary.LittleEndian.Uint32(l.zdx[block*8:]))
	size := int64(binary.LittleEndian.Uint32(l.zdx[block*8+4:]))
	if off+size > int64(len(l.zdt)) {
		return nil, fmt.Errorf("block %d (%d+%d) lies outside the %d-byte data file", block, off, size, len(l.zdt))
	}
	zr, err := zlib.NewReader(bytes.NewReader(l.zdt[off : off+size]))
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", block, err)
	}
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, maxLexBlock+1))
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", block, err)
	}
	if len(data) > maxLexBlock {
		return nil, fmt.Errorf("block %d decompresses to more than %d bytes", block, maxLexBlock)
	}
	return data, nil
}

// blockEntry returns entry n of a decompressed block, without the NUL
// SWORD stores after each entry.
func blockEntry(data []byte, block, n uint32) (string, error) {
	if len(data) < 4 {
		return "", fmt.Errorf("block %d is %d bytes, too short for its entry count", block, len(data))
	}
	count := binary.LittleEndian.Uint32(data)
	if n >= count {
		return "", fmt.Errorf("entry %d not in block %d of %d entries", n, block, count)
	}
	meta := 4 + int64(n)*8
	if meta+8 > int64(len(data)) {
		return "", fmt.Errorf("entry %d of block %d: table runs past the %d-byte block", n, block, len(data))
	}
	off := int64(binary.LittleEndian.Uint32(data[meta:]))
	size := int64(binary.LittleEndian.Uint32(data[meta+4:]))
	if off+size > int64(len(data)) {
		return "", fmt.Errorf("entry %d of block %d (%d+%d) runs past the %d-byte block", n, block, off, size, len(data))
	}
	text := data[off : off+size]
	if i := bytes.IndexByte(text, 0); i >= 0 {
		text = text[:i]
	}
	return string(text), nil
}
