package web

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
)

// The passage reader: /read/{book}/{chapter}, one chapter of the KJV with an
// anchor per verse (id="v16") and links to the chapters either side, across
// book boundaries. Every reference the site shows links here (readerURL).

// bookSlug is a book's name in reader paths: its canonical name in lower
// case with hyphens for spaces ("1-corinthians", "song-of-solomon").
func bookSlug(b corpus.Book) string {
	return strings.ReplaceAll(strings.ToLower(b.Name), " ", "-")
}

var booksBySlug = func() map[string]corpus.Book {
	m := make(map[string]corpus.Book)
	for _, b := range corpus.Books() {
		m[bookSlug(b)] = b
	}
	return m
}()

// chapterPath is the reader's path of a chapter.
func chapterPath(b corpus.Book, ch int) string {
	return "/read/" + bookSlug(b) + "/" + strconv.Itoa(ch)
}

// readerURL is the reader's link for a reference: its first chapter,
// anchored at its first verse ("John 3:16-18" → /read/john/3#v16). A
// whole-chapter reference has no anchor. Text that is not a reference
// links nowhere ("").
func readerURL(ref string) string {
	r, err := corpus.ParseReference(ref)
	if err != nil {
		return ""
	}
	u := chapterPath(r.Book, r.StartChapter)
	if r.StartVerse > 1 || r.EndChapter == r.StartChapter && r.EndVerse < r.Book.Verses(r.StartChapter) {
		u += "#v" + strconv.Itoa(r.StartVerse)
	}
	return u
}

// readerLink is a neighbouring chapter in the reader.
type readerLink struct {
	Title, URL string
}

type readerVerse struct {
	Number int
	Text   string
	Title  string
}

type readerPage struct {
	Title          string // "John 3"
	Book           string
	Chapter        int
	Verses         []readerVerse
	Previous, Next *readerLink
}

var errNoSuchChapter = selah.Errorf(selah.EPASSAGENOTFOUND,
	"There is no such chapter in the King James Bible. Check the book's name and the chapter number.")

// readChapter serves GET /read/{book}/{chapter}. A book named otherwise
// than by its slug ("John", "1 Corinthians", "1cor") is redirected to the
// slug's address.
func (s *Server) readChapter(c *fiber.Ctx) error {
	name, err := url.PathUnescape(c.Params("book"))
	if err != nil {
		return errNoSuchChapter
	}
	ch, err := strconv.Atoi(c.Params("chapter"))
	b, ok := booksBySlug[name]
	if !ok {
		if lb, found := corpus.LookupBook(name); found && err == nil && ch >= 1 && ch <= lb.Chapters() {
			return c.Redirect(chapterPath(lb, ch), fiber.StatusMovedPermanently)
		}
		return errNoSuchChapter
	}
	if err != nil || ch < 1 || ch > b.Chapters() {
		return errNoSuchChapter
	}
	vs, err := s.text.VerseRange(c.UserContext(), corpus.NewVerseID(b.Number, ch, 1), corpus.NewVerseID(b.Number, ch, b.Verses(ch)))
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return errNoSuchChapter
	}
	title := b.Name + " " + strconv.Itoa(ch)
	if b.Name == "Psalms" {
		title = "Psalm " + strconv.Itoa(ch)
	}
	page := readerPage{Title: title, Book: b.Name, Chapter: ch}
	for _, v := range vs {
		page.Verses = append(page.Verses, readerVerse{Number: v.Number, Text: v.Text, Title: v.Title})
	}
	if l := chapterLink(b, ch, -1); l != nil {
		page.Previous = readerLinkOf(l.Reference)
	}
	if l := chapterLink(b, ch, +1); l != nil {
		page.Next = readerLinkOf(l.Reference)
	}
	return s.renderPage(c, fiber.StatusOK, "read", page)
}

func readerLinkOf(ref string) *readerLink {
	r, err := corpus.ParseReference(ref)
	if err != nil {
		return nil
	}
	title := r.Book.Name + " " + strconv.Itoa(r.StartChapter)
	return &readerLink{Title: title, URL: chapterPath(r.Book, r.StartChapter)}
}
