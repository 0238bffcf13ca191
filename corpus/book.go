// Package corpus holds the domain of Scripture text: books and the KJV
// versification, verse ids, references and their parser, and readers for the
// SWORD modules the text is ingested from. It knows nothing of Postgres or HTTP.
package corpus

import "fmt"

// Canonical sizes of the KJV versification. Ingest refuses a module that does
// not match them.
const (
	BookCount    = 66
	ChapterCount = 1189
	VerseCount   = 31102
)

// Testament is OT or NT.
type Testament string

const (
	OldTestament Testament = "OT"
	NewTestament Testament = "NT"
)

type bookData struct {
	osis   string
	name   string
	verses []int
}

// Book is one of the 66 books of the KJV canon.
type Book struct {
	Number    int    // 1..66 in canonical order
	OSIS      string // OSIS id, e.g. "1Cor"
	Name      string // canonical English name, e.g. "1 Corinthians"
	Testament Testament
	verses    []int
}

// Chapters returns the number of chapters in the book.
func (b Book) Chapters() int { return len(b.verses) }

// Verses returns the number of verses in chapter ch, or 0 when the chapter
// does not exist.
func (b Book) Verses(ch int) int {
	if ch < 1 || ch > len(b.verses) {
		return 0
	}
	return b.verses[ch-1]
}

// SingleChapter reports whether the book has one chapter (Obadiah, Philemon,
// 2 John, 3 John, Jude), where "Jude 3" means verse 3.
func (b Book) SingleChapter() bool { return len(b.verses) == 1 }

var (
	books  [BookCount]Book
	byOSIS = map[string]int{}
)

func init() {
	for i, d := range kjvBooks {
		t := OldTestament
		if i >= 39 {
			t = NewTestament
		}
		books[i] = Book{Number: i + 1, OSIS: d.osis, Name: d.name, Testament: t, verses: d.verses}
		byOSIS[d.osis] = i
	}
}

// Books returns the 66 books in canonical order.
func Books() []Book { return books[:] }

// BookByNumber returns book n (1..66).
func BookByNumber(n int) (Book, bool) {
	if n < 1 || n > BookCount {
		return Book{}, false
	}
	return books[n-1], true
}

// BookByOSIS returns the book with the given OSIS id ("Gen", "1Cor", ...).
func BookByOSIS(id string) (Book, bool) {
	i, ok := byOSIS[id]
	if !ok {
		return Book{}, false
	}
	return books[i], true
}

// VerseID identifies a verse as the integer BBCCCVVV: John 3:16 is 43003016.
// It orders verses canonically, so ranges are BETWEEN queries.
type VerseID int

// NewVerseID builds the id of book b, chapter c, verse v.
func NewVerseID(b, c, v int) VerseID { return VerseID(b*1_000_000 + c*1000 + v) }

// Book returns the book number of the id.
func (id VerseID) Book() int { return int(id) / 1_000_000 }

// Chapter returns the chapter of the id.
func (id VerseID) Chapter() int { return int(id) / 1000 % 1000 }

// Verse returns the verse number of the id.
func (id VerseID) Verse() int { return int(id) % 1000 }

// Valid reports whether the id names a verse of the KJV versification.
func (id VerseID) Valid() bool {
	b, ok := BookByNumber(id.Book())
	return ok && id.Verse() >= 1 && id.Verse() <= b.Verses(id.Chapter())
}

// String renders the id as a canonical single-verse reference.
func (id VerseID) String() string {
	b, ok := BookByNumber(id.Book())
	if !ok {
		return fmt.Sprintf("verse %d", int(id))
	}
	return fmt.Sprintf("%s %d:%d", b.Name, id.Chapter(), id.Verse())
}

// Verse is one verse of KJV text.
type Verse struct {
	ID      VerseID
	Book    Book
	Chapter int
	Number  int
	Text    string // plain KJV text, no markup, no paragraph marks
	Title   string // a psalm title standing before the verse, kept apart from its text
	// WordsOfChrist is set when the verse holds words of Jesus (the KJV
	// module marks them <q who="Jesus">, the red letters of print
	// editions).
	WordsOfChrist bool
}
