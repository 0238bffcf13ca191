package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// MaxPassageVerses caps one /scripture response. The longest chapter
// (Psalm 119) has 176 verses, so any whole chapter fits.
const MaxPassageVerses = 200

func verseJSON(v corpus.Verse) api.Verse {
	return api.Verse{Reference: v.ID.String(), Book: v.Book.Name, Chapter: v.Chapter, Verse: v.Number, Text: v.Text, Title: v.Title}
}

// chapterLink returns the chapter delta chapters away from book b chapter
// ch, crossing book boundaries, or nil past either end of the canon.
func chapterLink(b corpus.Book, ch, delta int) *api.ChapterLink {
	ch += delta
	for ch < 1 || ch > b.Chapters() {
		nb, ok := corpus.BookByNumber(b.Number + delta)
		if !ok {
			return nil
		}
		b = nb
		if delta < 0 {
			ch = b.Chapters()
		} else {
			ch = 1
		}
	}
	ref := corpus.Reference{Book: b, StartChapter: ch, StartVerse: 1, EndChapter: ch, EndVerse: b.Verses(ch)}.String()
	return &api.ChapterLink{Reference: ref, URL: api.ScriptureURL(ref)}
}

func joinText(vs []corpus.Verse) string {
	var sb strings.Builder
	n := 0
	for _, v := range vs {
		n += len(v.Text) + 1
	}
	sb.Grow(n)
	for i, v := range vs {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(v.Text)
	}
	return sb.String()
}

// scripture serves GET /scripture?ref=.
func (s *Server) scripture(c *fiber.Ctx) error {
	raw := c.Query("ref")
	if strings.TrimSpace(raw) == "" {
		return selah.Errorf(selah.EINVALIDREF, `The ref query parameter is required, e.g. ref=John+3:16.`)
	}
	ref, err := corpus.ParseReference(raw)
	if err != nil {
		return err
	}
	if n := ref.VerseCount(); n > MaxPassageVerses {
		return selah.Errorf(selah.EPASSAGETOOLARGE,
			"%s has %d verses; a passage may have at most %d (any whole chapter fits).", ref, n, MaxPassageVerses)
	}
	verses, err := s.text.VerseRange(c.UserContext(), ref.First(), ref.Last())
	if err != nil {
		return err
	}
	if len(verses) == 0 {
		return selah.Errorf(selah.EPASSAGENOTFOUND, "%s is not in the corpus.", ref)
	}
	res := api.PassageResponse{
		Reference:   ref.String(),
		Translation: api.KJV,
		Book: api.Book{Number: ref.Book.Number, Name: ref.Book.Name, OSIS: ref.Book.OSIS,
			Testament: string(ref.Book.Testament), Chapters: ref.Book.Chapters()},
		Verses:     make([]api.Verse, len(verses)),
		Text:       joinText(verses),
		VerseCount: len(verses),
		Previous:   chapterLink(ref.Book, ref.StartChapter, -1),
		Next:       chapterLink(ref.Book, ref.EndChapter, +1),
	}
	for i, v := range verses {
		res.Verses[i] = verseJSON(v)
	}
	return s.sendCacheable(c, &res, func(id string) { res.RequestID = id })
}
