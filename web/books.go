package web

import (
	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/corpus"
)

// BookInfo is one book in GET /books.
type BookInfo struct {
	Number    int    `json:"number"`
	Name      string `json:"name"`
	OSIS      string `json:"osis"`
	Testament string `json:"testament"`
	Chapters  int    `json:"chapters"`
	// Verses is the number of verses of each chapter, chapter 1 first.
	Verses     []int `json:"verses"`
	VerseCount int   `json:"verseCount"`
}

// BooksResponse is the body of GET /books.
type BooksResponse struct {
	Books     []BookInfo `json:"books"`
	Count     int        `json:"count"`
	RequestID string     `json:"requestId"`
}

// books serves GET /books: the 66 books of the KJV versification, which
// is compiled into the binary.
func (s *Server) books(c *fiber.Ctx) error {
	all := corpus.Books()
	res := BooksResponse{Books: make([]BookInfo, len(all)), Count: len(all)}
	for i, b := range all {
		bi := BookInfo{Number: b.Number, Name: b.Name, OSIS: b.OSIS, Testament: string(b.Testament), Chapters: b.Chapters(),
			Verses: make([]int, b.Chapters())}
		for ch := 1; ch <= b.Chapters(); ch++ {
			bi.Verses[ch-1] = b.Verses(ch)
			bi.VerseCount += b.Verses(ch)
		}
		res.Books[i] = bi
	}
	return s.sendCacheable(c, &res, func(id string) { res.RequestID = id })
}
