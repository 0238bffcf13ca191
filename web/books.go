package web

import (
	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// books serves GET /books: the 66 books of the KJV versification, which
// is compiled into the binary.
func (s *Server) books(c *fiber.Ctx) error {
	all := corpus.Books()
	res := api.BooksResponse{Books: make([]api.BookInfo, len(all)), Count: len(all)}
	for i, b := range all {
		bi := api.BookInfo{Number: b.Number, Name: b.Name, OSIS: b.OSIS, Testament: string(b.Testament), Chapters: b.Chapters(),
			Verses: make([]int, b.Chapters())}
		for ch := 1; ch <= b.Chapters(); ch++ {
			bi.Verses[ch-1] = b.Verses(ch)
			bi.VerseCount += b.Verses(ch)
		}
		res.Books[i] = bi
	}
	return s.sendCacheable(c, &res, func(id string) { res.RequestID = id })
}
