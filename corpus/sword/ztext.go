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
	"os"
	"path/filepath"
	"strings"
)

// Text is an open zText Bible module: a conf and, per testament, three
// files. The .bzv index has one 10-byte entry per verse slot (block
// number, offset in the uncompressed block, size), the .bzs index one
// 12-byte entry per block (offset in .bzz, compressed size, uncompressed
// size), and .bzz holds the zlib-compressed blocks.
//
// Verse slots follow the module's versification: slot 0 is empty, slot 1
// the testament heading, then for each book a book heading followed, for
// each chapter, by a chapter heading and the chapter's verses.
type Text struct {
	Name          string
	Version       string
	Versification string
	conf          Conf
	confRaw       []byte
	dataDir       string
	testaments    [2][]bookLayout // OT, NT
}

// bookLayout is one book of a versification: its OSIS id and the verse
// count of each chapter.
type bookLayout struct {
	osis   string
	verses []int
}

// slots is the number of index entries a testament with these books has.
func slots(books []bookLayout) int {
	n := 2
	for _, b := range books {
		n++
		for _, v := range b.verses {
			n += 1 + v
		}
	}
	return n
}

// Open opens the zText module called name in the SWORD library at dir
// (e.g. /usr/share/sword). It reads the conf and checks the driver, the
// compression and the versification; the data is read by Each.
func Open(dir, name string) (*Text, error) {
	conf, raw, err := openConf(dir, name, "zText")
	if err != nil {
		return nil, err
	}
	t := &Text{Name: conf.Name, Version: conf.Get("Version"), Versification: conf.Get("Versification"),
		conf: conf, confRaw: raw, dataDir: conf.dataPath(dir)}
	if t.Versification == "" {
		t.Versification = "KJV"
	}
	switch strings.ToUpper(t.Versification) {
	case "KJV":
		t.testaments = kjvLayout()
	case "NRSVA":
		t.testaments = [2][]bookLayout{nrsvaOT, nrsvaNT}
	default:
		return nil, fmt.Errorf("sword: %s uses versification %s, which selah does not know", name, t.Versification)
	}
	return t, nil
}

var testamentFiles = [2]string{"ot", "nt"}

// Checksum identifies the module's content: a SHA-256 over its conf and
// data files. An unchanged module has an unchanged checksum.
func (t *Text) Checksum() (string, error) {
	h := sha256.New()
	h.Write(t.confRaw)
	for _, tf := range testamentFiles {
		for _, ext := range []string{".bzs", ".bzv", ".bzz"} {
			f, err := os.Open(filepath.Join(t.dataDir, tf+ext))
			if errors.Is(err, os.ErrNotExist) {
				continue // a module may lack a testament
			}
			if err != nil {
				return "", fmt.Errorf("sword: checksum %s: %w", t.Name, err)
			}
			fmt.Fprintf(h, "%s%s\x00", tf, ext)
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return "", fmt.Errorf("sword: checksum %s: %w", t.Name, err)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Each calls fn with every non-empty verse of the module in canonical
// order: the book's OSIS id, the chapter and verse in the module's own
// versification, and the raw OSIS markup of the entry. Book and chapter
// headings are not verses and are skipped. An error from fn stops the walk
// and is returned.
func (t *Text) Each(fn func(book string, chapter, verse int, raw string) error) error {
	for i, tf := range testamentFiles {
		books := t.testaments[i]
		if len(books) == 0 {
			continue
		}
		tr, err := openTestament(t.dataDir, tf)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sword: %s: %w", t.Name, err)
		}
		if want := slots(books); tr.entries() < want {
			return fmt.Errorf("sword: %s %s index has %d entries, its %s versification needs %d",
				t.Name, tf, tr.entries(), t.Versification, want)
		}
		slot := 2
		for _, b := range books {
			slot++ // book heading
			for ch, n := range b.verses {
				slot++ // chapter heading
				for v := 1; v <= n; v++ {
					raw, err := tr.entry(slot)
					if err != nil {
						return fmt.Errorf("sword: %s %s %d:%d: %w", t.Name, b.osis, ch+1, v, err)
					}
					slot++
					if len(raw) == 0 {
						continue
					}
					if err := fn(b.osis, ch+1, v, string(raw)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// testament holds one testament's three files in memory (a few MB) and
// the last block it decompressed: Each reads slots in order, so one block
// serves many verses before the next is needed.
type testament struct {
	bzs, bzv, bzz []byte
	block         int64
	data          []byte
}

func openTestament(dir, name string) (*testament, error) {
	t := &testament{block: -1}
	for _, f := range []struct {
		ext string
		dst *[]byte
	}{{".bzs", &t.bzs}, {".bzv", &t.bzv}, {".bzz", &t.bzz}} {
		b, err := os.ReadFile(filepath.Join(dir, name+f.ext))
		if err != nil {
			return nil, err
		}
		*f.dst = b
	}
	return t, nil
}

func (t *testament) entries() int { return len(t.bzv) / 10 }

// entry returns the raw bytes of index slot i. Every offset is checked, so
// a damaged module is an error, never a panic.
func (t *testament) entry(i int) ([]byte, error) {
	if i < 0 || (i+1)*10 > len(t.bzv) {
		return nil, fmt.Errorf("index slot %d out of range", i)
	}
	e := t.bzv[i*10:]
	block := int64(binary.LittleEndian.Uint32(e))
	off := int64(binary.LittleEndian.Uint32(e[4:]))
	size := int64(binary.LittleEndian.Uint16(e[8:]))
	if size == 0 {
		return nil, nil
	}
	if block != t.block {
		data, err := t.decompress(block)
		if err != nil {
			return nil, err
		}
		t.block, t.data = block, data
	}
	if off+size > int64(len(t.data)) {
		return nil, fmt.Errorf("entry %d+%d outside block %d of %d bytes", off, size, block, len(t.data))
	}
	// Entries may end in NULs or stray whitespace; callers trim.
	return bytes.TrimRight(t.data[off:off+size], "\x00"), nil
}

func (t *testament) decompress(block int64) ([]byte, error) {
	if (block+1)*12 > int64(len(t.bzs)) {
		return nil, fmt.Errorf("block %d not in the block index", block)
	}
	b := t.bzs[block*12:]
	off := int64(binary.LittleEndian.Uint32(b))
	clen := int64(binary.LittleEndian.Uint32(b[4:]))
	ulen := int64(binary.LittleEndian.Uint32(b[8:]))
	if off+clen > int64(len(t.bzz)) {
		return nil, fmt.Errorf("block %d lies outside the data file", block)
	}
	zr, err := zlib.NewReader(bytes.NewReader(t.bzz[off : off+clen]))
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", block, err)
	}
	defer zr.Close()
	// ulen comes from the file; cap the allocation by it but do not trust
	// it beyond a sane bound.
	const maxBlock = 64 << 20
	if ulen > maxBlock {
		return nil, fmt.Errorf("block %d claims %d bytes", block, ulen)
	}
	data, err := io.ReadAll(io.LimitReader(zr, maxBlock+1))
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", block, err)
	}
	if int64(len(data)) != ulen {
		return nil, fmt.Errorf("block %d is %d bytes, its index says %d", block, len(data), ulen)
	}
	return data, nil
}
