package pipeline

import (
	"context"
	"regexp"
	"strings"

	"github.com/selahdev/selah/corpus"
)

// A question may ask to explain or summarize a passage, story or
// teaching by the name people know it by ("Summarize the Sermon on the
// Mount", "explain the golden rule", "David and Goliath in a nutshell",
// "whats the lesson of the woman at the well"). Asked plainly ("What is
// the Sermon on the Mount?") the router finds the Nave's topic or entry
// that names it, and the passage it lists (passage.go); the frame's
// words ("summarize", "lesson", "nutshell") are no words of the name, so
// the framed question named nothing whole and was searched for its
// words: "explain the golden rule" cited Revelation 8:3's golden censer.
// Such a question is asked plainly when, so asked, its best route is a
// topic or entry that names the work whole (namesWhole); a work Nave's
// does not name ("the nicene creed", "the olivet discourse") is asked as
// the question was.

// namedFrames are frames asking to explain or tell a work beside the
// summary frames (summaryFrames); the group is the work.
var namedFrames = []*regexp.Regexp{
	// "walk me through the olivet discourse", "break down the Olivet
	// discourse in simple terms", "eli5 the story of zaccheus"
	regexp.MustCompile(`^(?:(?:can|could|would)\s+you\s+)?(?:please\s+|pls\s+)?(?:walk\s+me\s+through|break\s+down|go\s+over|eli5|explain\s+like\s+i'?m\s+(?:5|five))\s+(.+)$`),
	// "tell me the story of the burning bush"; "tell me about X" is
	// framed for the router already (questionFrame).
	regexp.MustCompile(`^(?:(?:can|could|would)\s+you\s+)?(?:please\s+|pls\s+)?tell\s+me\s+(the\s+(?:whole\s+|full\s+)?(?:story|account)\s+(?:of|about|behind)\s+.+)$`),
	// "what does the apostles creed teach", "what do the four horsemen
	// of the apocalypse represent"; "what did Jesus teach" asks what a
	// person taught, no work.
	regexp.MustCompile(`^what\s+(?:does|do|did)\s+(the\s+.+?)\s+(?:teach|teaches|represent|symbolize)(?:\s+us)?$`),
	// "what is the meaning of the suffering servant passage"
	regexp.MustCompile(`^(?:(?:what(?:'s|s| is| was)?|whats)\s+)?the\s+(?:real\s+|deeper\s+|spiritual\s+)?(?:meaning|significance|moral|takeaway)\s+(?:of|in|behind)\s+(.+)$`),
}

// workFrames are the frames naming a work: a book's summary's and these.
var workFrames = append(append([]*regexp.Regexp{}, summaryFrames...), namedFrames...)

// storyOf opens a work told as a story: "the story of zaccheus" is
// Zacchaeus.
var storyOf = regexp.MustCompile(`^(?:the\s+)?(?:whole\s+|full\s+|bible\s+|biblical\s+)?(?:story|account|narrative|tale|episode|event)\s+(?:of|about|behind)\s+`)

// namedWork is the work a question asks to explain or summarize, in
// lower case ("the sermon on the mount"), from its first sentence: a
// dash or second sentence may ask more ("Moses striking the rock - what's
// the lesson there"), which the plain question leaves out; it is
// answered from the passage the name finds. False when no frame reads
// the question.
func namedWork(question string) (string, bool) {
	parts := askedParts(question)
	if len(parts) == 0 {
		return "", false
	}
	// "Moses striking the rock - what's the lesson there": the work
	// is before the dash.
	s, _, _ := strings.Cut(strings.NewReplacer(" – ", " - ", " — ", " - ").Replace(parts[0]), " - ")
	for _, f := range workFrames {
		m := f.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		work := strings.TrimSpace(workTail.ReplaceAllString(m[1], ""))
		work = strings.TrimSpace(storyOf.ReplaceAllString(work, ""))
		if first, _, _ := strings.Cut(work, " "); work == "" || referring[work] || auxiliaries[first] || beForms[first] {
			// "what does the bible say about anger" is no "what is X
			// about".
			continue
		}
		return work, true
	}
	return "", false
}

// plainNamed is the plain question asking what work is ("what is the
// sermon on the mount"), when work is a name (it opens with "the" or
// with a name the KJV writes: "zaccheus", "david and goliath"; "the
// point of prayer" asks more than what prayer is, "the purpose of my
// life" is no name) and, so asked, routes first to a Nave's topic or
// entry naming it whole: a passage (SERMON's "Of Jesus, on the mount"),
// a teaching (GOLDEN RULE) or a person's story (ZACCHAEUS).
func (a *Answerer) plainNamed(ctx context.Context, work string) (string, bool, error) {
	work = a.r.Respell(work)
	ws := questionWords(work)
	if len(ws) == 0 || ws[0] != "the" && a.r.proper[unpossessed(ws[0])] == 0 {
		return "", false, nil
	}
	plain := "what is " + work
	routed, err := a.route(ctx, plain, themeReach)
	if err != nil || len(routed) == 0 {
		return "", false, err
	}
	return plain, a.r.namesWhole(plain, routed[0].Topic, routed[0].Entry), nil
}

var (
	// workOf names a work by its kind and whose it is: "the gospel of
	// thomas", "the book of enoch". A letter's or epistle's "of" is its
	// writer's ("the letters of paul" are in the KJV).
	workOf = regexp.MustCompile(`^(?:the\s+)?(gospel|book)s?\s+(?:of|according\s+to)\s+(?:st\.?\s+|saint\s+)?(.+)$`)
	// plainWork asks what a work is: "what is the gospel of thomas".
	plainWork = regexp.MustCompile(`^(?:what(?:'s|s| is| was| are| were)|whats)\s+(the\s+.+)$`)
)

// outsideKJV reports whether a question asks about a gospel or book the
// KJV does not hold ("What is the Gospel of Judas about?", "summarize
// the book of enoch"): one named for a person or thing (a name the KJV
// writes, or a word it never writes: "jubilees", "mormon") that is no
// book of the KJV, and whose name the KJV never writes as such ("the
// book of Jasher" it does, Joshua 10:13; "the gospel of Christ", "the
// book of life"). Such a question was answered from the person's
// verses, as if the KJV told the work: Judas' betrayal for the Gospel of
// Judas. The sources say it: the KJV's books, its wording and its names;
// no list of apocrypha. work and framed are namedWork's of the question;
// unframed, a plain "what is the gospel of thomas" is read.
func (r *Retriever) outsideKJV(question, work string, framed bool) bool {
	if !framed {
		parts := askedParts(question)
		if len(parts) == 0 {
			return false
		}
		m := plainWork.FindStringSubmatch(parts[0])
		if m == nil {
			return false
		}
		work = strings.TrimSpace(workTail.ReplaceAllString(m[1], ""))
	}
	m := workOf.FindStringSubmatch(work)
	if m == nil {
		return false
	}
	whose := runWords(m[2])
	if len(whose) == 0 || r.phrase.holds(runWords(m[1]+" of "+m[2])) {
		return false
	}
	if _, book := corpus.LookupBook(m[2]); book {
		return false
	}
	first := unpossessed(whose[0])
	return r.proper[first] > 0 || len(r.phrase.post[first]) == 0
}
