package pipeline

import (
	"context"
	"regexp"
	"strings"
	"unicode"
)

// Questions comparing two things ("What is the difference between grace
// and mercy?", "Pharisees vs Sadducees", "How is faith different from
// hope?") ask what each is. Answered as one question, they were answered
// of whichever side the words matched best ("Grace is God's undeserved
// kindness" and nothing of mercy; the Sadducees and not the Pharisees).
// Each side is now answered as a question of its own, with its share of
// the references, and the two answers are given one after the other. The
// frames below are English's ways of asking for a comparison, a closed
// class of grammar like writerFrames, not a bridge between words.

var (
	// comparisonFrames hold the two sides as their first two groups.
	comparisonFrames = []*regexp.Regexp{
		regexp.MustCompile(`\bdiff(?:erences?|\.)?\s+between\s+(.+?)\s+and\s+(.+)$`),
		regexp.MustCompile(`^(?:how|in what ways?|why)\s+(?:is|are|was|were)\s+(.+?)\s+(?:different|distinct)\s+(?:from|than|to)\s+(.+)$`),
		regexp.MustCompile(`^(?:how|in what ways?)\s+(?:does|do|did)\s+(.+?)\s+differ\s+from\s+(.+)$`),
		regexp.MustCompile(`^(?:what\s+)?(?:distinguishes|separates|sets)\s+(.+?)\s+(?:apart\s+)?from\s+(.+)$`),
		regexp.MustCompile(`^(?:is|are|was|were)\s+(.+?)\s+(?:the\s+same\s+(?:thing\s+)?as|different\s+(?:from|than))\s+(.+)$`),
		regexp.MustCompile(`^(?:is|are|was|were)\s+(.+?)\s+and\s+(.+?)\s+(?:the\s+same|different)(?:\s+things?|\s+people|\s+persons?)?$`),
		regexp.MustCompile(`^(?:compare|comparing|contrast)\s+(.+?)\s+(?:and|with|to|vs\.?|versus)\s+(.+)$`),
		regexp.MustCompile(`^(.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(.+)$`),
	}
	// comparisonTail is what may follow the second side without being
	// part of it.
	comparisonTail = regexp.MustCompile(`\s+(?:in|according\s+to|from)\s+(?:the\s+)?(?:bible|scriptures?|kjv|new\s+testament|old\s+testament)$|\s+(?:biblically|exactly|really)$|\s+(?:so\s+)?(?:what(?:'s|s|\s+is)\s+the\s+difference|(?:which|what)\s+is\s+(?:it|which)|who\s+was\s+who|is\s+there\s+(?:a|any)\s+difference|(?:the\s+)?same\s+(?:man|person|people|thing))$`)
	// comparisonLead is what may open the first side without being part
	// of it ("in the bible grace vs mercy").
	comparisonLead = regexp.MustCompile(`^(?:biblically|in\s+the\s+bible|according\s+to\s+the\s+bible)\s+`)
)

// comparison reads question as one asking how two things compare and
// returns them as typed; ok is false for any other question.
func comparison(question string) (sides [2]string, ok bool) {
	q := strings.ToLower(strings.TrimSpace(question))
	q = strings.Join(strings.Fields(strings.ReplaceAll(q, "’", "'")), " ")
	q = strings.TrimRightFunc(q, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	for _, f := range comparisonFrames {
		m := f.FindStringSubmatch(q)
		if m == nil {
			continue
		}
		x := comparisonSide(comparisonLead.ReplaceAllString(m[1], ""))
		y := m[2]
		if i := strings.IndexAny(y, "—–:("); i > 0 {
			// A dash, colon or bracket ends the side's noun phrase: what
			// follows asks of it again ("elijah vs elisha — who was
			// who?") or says it otherwise ("the feast of weeks
			// (pentecost)").
			y = y[:i]
		} else if i := strings.Index(y, " - "); i > 0 {
			y = y[:i]
		}
		y = comparisonSide(comparisonTail.ReplaceAllString(strings.TrimSpace(y), ""))
		if x == "" || y == "" || x == y {
			return sides, false
		}
		return [2]string{x, y}, true
	}
	return sides, false
}

// comparisonSide trims a side of the marks around it ("grace," "mercy?").
func comparisonSide(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) && r != '\'' || unicode.IsSpace(r) })
}

// compare answers a comparison of two sides, each as a question of its
// own with its share of maxRefs (the first side the larger), and gives
// the two answers in turn. ok is false, and the question is answered
// whole, when maxRefs cannot cite both sides, a side holds a word the
// corpus never saw, or either side finds no passage: half a comparison
// answered as if whole would mislead, and the whole question may still
// find a verse speaking to both (or be declined).
func (a *Answerer) compare(ctx context.Context, sides [2]string, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	if maxRefs < 2 {
		return Answer{}, false, nil
	}
	for _, side := range sides {
		if a.r.analyse(a.r.Respell(side)).unknown > 0 {
			// A side holding a word the corpus never saw ("a roth ira",
			// "the niv") names a thing outside the Bible, which read alone
			// may still reach a name of it ("ira": David's hero Ira).
			return Answer{}, false, nil
		}
	}
	shares := [2]int{(maxRefs + 1) / 2, maxRefs / 2}
	var parts [2]Answer
	for i, side := range sides {
		ans, err := a.Answer(ctx, side, shares[i], AnswerOptions{Extractive: opts.Extractive})
		if err != nil {
			return Answer{}, false, err
		}
		if ans.NoPassage || len(ans.References) == 0 {
			return Answer{}, false, nil
		}
		parts[i] = ans
	}
	out := Answer{Text: parts[0].Text, Summary: parts[0].Summary, Generator: parts[0].Generator}
	// The sides may reach the same verse and tell it alike ("the old
	// testament" and "the new testament" both "Scripture tells of the
	// new (Matthew 26:27-28)"): what the first said is not said again.
	said := map[string]bool{}
	for _, s := range Sentences(parts[0].Text) {
		said[s] = true
	}
	for _, s := range Sentences(parts[1].Text) {
		if !said[s] {
			said[s] = true
			out.Text += " " + s
		}
	}
	if parts[1].Summary != parts[0].Summary {
		out.Summary = a.joinSummaries(parts[0].Summary, parts[1].Summary)
	}
	seen := map[string]bool{}
	for _, p := range parts {
		for _, ref := range p.References {
			if !seen[ref.Reference] {
				seen[ref.Reference] = true
				out.References = append(out.References, ref)
			}
		}
		out.Retrieved = append(out.Retrieved, p.Retrieved...)
		if p.Fallback && !out.Fallback {
			out.Fallback, out.FallbackReason = true, p.FallbackReason
		}
		if p.Generator != out.Generator {
			// One side fell back to the composer.
			out.Generator = GeneratorExtractive
		}
	}
	return out, true, nil
}

// joinSummaries makes one sentence of two: the first's closing stop
// becomes a semicolon, and the second opens in lower case unless its first
// word is a name the KJV writes capitalised ("Sadducees") or the
// composer's name for a source ("Nave's Topical Bible", "Scripture").
func (a *Answerer) joinSummaries(x, y string) string {
	x = strings.TrimSpace(x)
	y = strings.TrimSpace(y)
	x = strings.TrimSuffix(x, ".")
	first, rest, _ := strings.Cut(y, " ")
	bare := strings.ToLower(strings.TrimRightFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }))
	if bare != "" && !a.r.isName(bare) && !strings.HasPrefix(first, "Nave's") && first != "Scripture" {
		first = strings.ToLower(first[:1]) + first[1:]
	}
	if rest != "" {
		first += " " + rest
	}
	return x + "; " + first
}
