package api

// PassageResponse is the body of GET /scripture.
type PassageResponse struct {
	Reference   string       `json:"reference"`
	Translation string       `json:"translation"`
	Book        Book         `json:"book"`
	Verses      []Verse      `json:"verses"`
	Text        string       `json:"text"`
	VerseCount  int          `json:"verseCount"`
	Previous    *ChapterLink `json:"previous"`
	Next        *ChapterLink `json:"next"`
	RequestID   string       `json:"requestId"`
}

// Book describes the book of a passage.
type Book struct {
	Number    int    `json:"number"`
	Name      string `json:"name"`
	OSIS      string `json:"osis"`
	Testament string `json:"testament"` // "OT" or "NT"
	Chapters  int    `json:"chapters"`
}

// Verse is one verse of a passage.
type Verse struct {
	Reference string `json:"reference"`
	Book      string `json:"book"`
	Chapter   int    `json:"chapter"`
	Verse     int    `json:"verse"`
	Text      string `json:"text"`
	Title     string `json:"title,omitempty"` // a psalm's superscription
}

// ChapterLink points to a neighbouring chapter.
type ChapterLink struct {
	Reference string `json:"reference"`
	URL       string `json:"url"`
}

// BooksResponse is the body of GET /books.
type BooksResponse struct {
	Books     []BookInfo `json:"books"`
	Count     int        `json:"count"`
	RequestID string     `json:"requestId"`
}

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
