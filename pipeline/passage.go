package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/selahdev/selah/corpus"
)

// A question may name the passage it asks about ("What does John 3:16
// mean?", "what is psalm 23 about"). The passage is then what the answer
// cites and quotes: searched, its words found other verses sharing them
// ("What does Psalm 23 say?" cited Colossians 3:16, "psalms and hymns").

// maxPassageVerses is how much of a named passage is cited: a chapter of
// up to forty verses (1,048 of the KJV's 1,189) whole, a longer passage
// by its first forty.
const maxPassageVerses = 40

// maxFiled is how many of Nave's entries the answer names for a passage.
const maxFiled = 3

// Passage is a passage the question names, as the answer cites it: a run
// of adjacent verses of one chapter.
type Passage struct {
	Verses []corpus.VerseID
	// Filed are the Nave's Topical Bible entries that list verses of the
	// passage and best say what its words say, as labels ("God (love
	// of)", "Life (everlasting)"), best first.
	Filed []string
}

// askedPassages are the passages question names (corpus.FindPassages),
// each chapter of a reference a passage of its own, at most
// maxPassageVerses verses each and at most maxRefs in all; and rest, the
// question without them ("Why did Jesus eat with sinners?" of "I read
// Mark 2 last night. Why did Jesus eat with sinners?").
func askedPassages(question string, maxRefs int) (runs [][]corpus.VerseID, rest string) {
	seen := map[corpus.VerseID]bool{}
	var b strings.Builder
	at := 0
	for _, m := range corpus.FindPassages(question) {
		b.WriteString(question[at:m.Start])
		at = m.End
		// A verse named twice ("John 3:16 and John 3:15-17") is cited
		// once: what is left of a later mention may be two runs.
		runs = chapterRuns(runs, m.Reference.VerseIDs(), seen, maxRefs)
	}
	b.WriteString(question[at:])
	return runs, b.String()
}

// chapterRuns appends to out the runs of adjacent verses of one chapter
// that ids (in order) hold, leaving out the verses seen holds and marking
// those it keeps, each run at most maxPassageVerses long, until out holds
// maxRefs runs. A reference's verses are in order already: sorting them
// into runs (groupAdjacent) would cost a whole book's square ("Psalms
// 1-150") on the request's path.
func chapterRuns(out [][]corpus.VerseID, ids []corpus.VerseID, seen map[corpus.VerseID]bool, maxRefs int) [][]corpus.VerseID {
	var run []corpus.VerseID
	flush := func() {
		if len(run) > 0 && len(out) < maxRefs {
			run = run[:min(len(run), maxPassageVerses)]
			for _, id := range run {
				seen[id] = true
			}
			out = append(out, run)
		}
		run = nil
	}
	for _, id := range ids {
		if len(out) == maxRefs {
			break
		}
		if seen[id] || len(run) > 0 && id != run[len(run)-1]+1 {
			flush()
		}
		if !seen[id] {
			run = append(run, id)
		}
	}
	flush()
	return out
}

// namedPassages are the passages (entryPassages) of the instance a
// question asks about (routed, when instance is set), or of the theme it
// names (themed[0]'s topic), when the question says nothing its entry or
// title does not: an entry reached on some of its words (WICKED's "The
// householder" for "the parable of the wicked husbandmen") is a source of
// candidates, no passage to quote. Nil when there are none.
func (a *Answerer) namedPassages(query string, themed, routed []Routed, instance bool, maxRefs int) [][]corpus.VerseID {
	switch {
	case instance && len(routed) > 0 && a.r.namesWhole(query, routed[0].Topic, routed[0].Entry):
		return entryPassages(routed, maxRefs)
	case len(themed) > 0 && a.r.namesWhole(query, themed[0].Topic, ""):
		// The topic's own entry; its key passages are a teacher's
		// choice of verses on it, not what Nave's lists. A topic of
		// several entries lists instances (TRANSFIGURATION's of Moses,
		// of Jesus, of Stephen), no one passage; an entry saying
		// something of it (ZACCHAEUS' "Hosts Jesus") is a sentence of
		// the answer. Its plain list of scriptures is the passage.
		own := slices.DeleteFunc(slices.Clone(themed), func(r Routed) bool { return r.Topic != themed[0].Topic || r.Key })
		if len(own) == 0 || slices.ContainsFunc(own, func(r Routed) bool { return r.Entry != own[0].Entry || !plainList(r) }) {
			return nil
		}
		return entryPassages(own, maxRefs)
	}
	return nil
}

// plainList reports whether a route is of a topic's plain list of
// scriptures: its own verses, or Nave's "General scriptures concerning",
// no phrase saying something of it or an instance.
func plainList(r Routed) bool { return r.Entry == "" || hasAnyPrefix(r.Entry, naveScriptureLists) }

// maxNamedRuns is how many runs of verses a Nave's entry or topic may
// list and still be a passage the question names by its name: the
// Sermon on the Mount is three chapters, the Lord's Prayer two tellings.
const maxNamedRuns = 3

// entryPassages are the first maxRefs passages a Nave's entry or topic
// lists (routes, its alone), in the Bible's order, as askedPassages
// returns a reference's, when it lists at most maxNamedRuns of them and
// one is longer than a sentence's span (maxSpanVerses): it names a
// passage, not a verse or two, nor a theme's many. Nil otherwise.
func entryPassages(routes []Routed, maxRefs int) [][]corpus.VerseID {
	ids := make([]corpus.VerseID, 0, len(routes))
	for _, r := range routes {
		ids = append(ids, r.Verse)
	}
	// The router interleaves an entry's runs (the first verse of each,
	// then the second).
	slices.Sort(ids)
	ids = slices.Compact(ids)
	runs := chapterRuns(nil, ids, map[corpus.VerseID]bool{}, maxNamedRuns+1)
	if len(runs) > maxNamedRuns || !slices.ContainsFunc(runs, func(run []corpus.VerseID) bool { return len(run) > maxSpanVerses }) {
		return nil
	}
	return runs[:min(len(runs), maxRefs)]
}

// passageQuestion is the Question of one naming passages: their verses
// are its candidates, in order, and where Nave's files them its facts. A
// passage longer than a sentence's span (maxSpanVerses) that the rest of
// the question asks something of is narrowed to the verses answering it
// (focus).
func (a *Answerer) passageQuestion(ctx context.Context, question, rest string, runs [][]corpus.VerseID, maxRefs int) (Question, error) {
	var ids []corpus.VerseID
	for _, run := range runs {
		ids = append(ids, run...)
	}
	verses, err := a.st.VersesByID(ctx, ids)
	if err != nil {
		return Question{}, fmt.Errorf("pipeline: passage: %w", err)
	}
	byID := map[corpus.VerseID]corpus.Verse{}
	for _, v := range verses {
		byID[v.ID] = v
	}
	rv := a.r.newRelevance(rest)
	q := Question{Text: question, MaxRefs: maxRefs, Particular: true}
	for _, run := range runs {
		if len(run) > maxSpanVerses {
			if run, err = a.focus(ctx, rest, run, byID, rv); err != nil {
				return Question{}, err
			}
		}
		p := Passage{}
		for _, id := range run {
			if v, ok := byID[id]; ok {
				p.Verses = append(p.Verses, id)
				q.Candidates = append(q.Candidates, a.candidate(len(q.Candidates)+1, v, rv))
			}
		}
		if len(p.Verses) == 0 {
			continue
		}
		p.Filed = a.filed(p.Verses, byID)
		q.Passages = append(q.Passages, p)
	}
	return q, nil
}

// focus narrows a long passage to the verses the rest of the question
// asks about: the best of the search's hits for it within the passage
// that holds at least minEvidence of it, widened to its sentence (up to
// maxSpanVerses verses). With none, "What is Psalm 23 about?", the
// passage stands whole.
func (a *Answerer) focus(ctx context.Context, rest string, run []corpus.VerseID, byID map[corpus.VerseID]corpus.Verse, rv *relevance) ([]corpus.VerseID, error) {
	if strings.TrimSpace(rest) == "" {
		return run, nil
	}
	res, err := a.r.Search(ctx, rest, bookCandidates)
	if err != nil {
		return nil, fmt.Errorf("pipeline: passage: %w", err)
	}
	for _, h := range res.Hits {
		i := slices.Index(run, h.Verse.ID)
		if i < 0 || rv.evidence(h.Verse.ID) < minEvidence {
			continue
		}
		lo, hi := i, i+1
		for hi-lo < maxSpanVerses && hi < len(run) && !endsSentence(byID[run[hi-1]].Text) {
			hi++
		}
		for hi-lo < maxSpanVerses && lo > 0 && !endsSentence(byID[run[lo-1]].Text) {
			lo--
		}
		return run[lo:hi], nil
	}
	return run, nil
}

// filed returns the labels of the Nave's entries listing verses of run
// whose words its KJV text holds most of: an entry's topic and phrase are
// Nave's summary of what it lists, and those the passage's own words say
// are what it is about (John 3:16: "God (love of)", "Life (everlasting)";
// not WICKED's "Punishment of", which lists it for "perish"). An entry
// counts when it lists at least half of the passage's verses and, for a
// passage of a sentence's span, when the passage holds at least half of
// its words' idf mass; it scores the share of verses times the mean of 1
// and that share of mass. One per topic, best first, ties to the more
// mass, then in Nave's order.
func (a *Answerer) filed(run []corpus.VerseID, verses map[corpus.VerseID]corpus.Verse) []string {
	tl, ok := a.Router.(topicLister)
	if !ok {
		return nil
	}
	var b strings.Builder
	for _, id := range run {
		b.WriteString(verses[id].Text)
		b.WriteByte(' ')
	}
	held := map[int32]bool{}
	terms, _ := a.r.lex.query(b.String(), nil)
	for _, t := range terms {
		if !t.bigram {
			held[t.id] = true
		}
	}
	type scored struct {
		topic, label string
		verses       int // of run that the entry lists
		share, mass  float64
	}
	var cands []*scored
	byLabel := map[string]*scored{}
	for _, id := range run {
		for _, l := range tl.Listed(id) {
			label, ok := entryLabel(l.Topic, l.Entry, a.r.isName)
			if !ok {
				continue
			}
			if c, ok := byLabel[label]; ok {
				c.verses++
				continue
			}
			c := &scored{topic: l.Topic, label: label, verses: 1}
			byLabel[label] = c
			cands = append(cands, c)
			terms, _ := a.r.lex.query(label, nil)
			var all float64
			for _, t := range terms {
				if t.bigram {
					continue
				}
				all += a.r.lex.idf[t.id]
				if held[t.id] {
					c.mass += a.r.lex.idf[t.id]
				}
			}
			if all > 0 {
				c.share = c.mass / all
			}
		}
	}
	// How much of the passage the entry lists, and how much of its words
	// the passage holds: of a chapter, the entries listing it whole say
	// what it is about in Nave's words, not its own (Isaiah 53: JESUS'
	// "Design of his death"; Genesis 1: GOD's "Creator"), and its words
	// decide among them (Psalms 23: SHEPHERD's "Of God's care"); of a
	// verse or two, every entry lists it all, and an entry none of whose
	// words the verse holds files it for a word it implies (John 3:16
	// under WICKED's "Punishment of", for "perish").
	long := len(run) > maxSpanVerses
	score := func(c *scored) float64 { return float64(c.verses) / float64(len(run)) * (1 + c.share) / 2 }
	cands = slices.DeleteFunc(cands, func(c *scored) bool {
		return 2*c.verses < len(run) || !long && c.share < 0.5
	})
	slices.SortStableFunc(cands, func(x, y *scored) int {
		return cmp.Or(cmp.Compare(score(y), score(x)), cmp.Compare(y.mass, x.mass))
	})
	var out []string
	topics := map[string]bool{}
	for _, c := range cands {
		if len(out) == maxFiled {
			break
		}
		if !topics[c.topic] {
			topics[c.topic] = true
			out = append(out, c.label)
		}
	}
	return out
}

// entryLabel is a Nave's entry as an index names it: the topic, then its
// phrase and its parents' in parentheses, a phrase in capitals (Nave's
// sections, "LOVE OF") in lower case but for the words the KJV writes as
// names (isName, lower-cased): "God (love of)", "Love (of man for God)".
// A list of a theme's scriptures ("General scriptures concerning") is the
// topic alone; a cross-reference ("See CARE"), or a label longer than a
// heading (maxLabelRunes), is no label (false).
func entryLabel(topic, sense string, isName func(lower string) bool) (string, bool) {
	name := topicLabel(topic)
	if strings.Contains(topic, ", THE ") {
		// "JESUS, THE CHRIST": a comma would read as the list's.
		name = topicSubject(topic)
	}
	var parts []string
	for _, p := range strings.Split(withoutSeeHeadings(sense), " — ") {
		// "4. A Syrian general": which of the name's bearers.
		p = strings.TrimSpace(strings.TrimPrefix(p, bearerOf(p)))
		switch {
		case p == "" || hasAnyPrefix(p, naveScriptureLists):
			continue
		case strings.HasPrefix(p, "See "):
			return "", false
		case allCaps(p):
			words := strings.Fields(strings.ToLower(p))
			for i, w := range words {
				if isName(w) {
					words[i] = titleCaps(strings.ToUpper(w), true)
				}
			}
			p = strings.Join(words, " ")
		}
		// Nave's quotes a name in its phrase (SERMON's "Of Jesus, “on
		// the mount,”"); in the answer, quotation marks are Scripture's
		// words, which the grounding holds to the verses.
		p = strings.Trim(quoteMarks.Replace(p), " ,;")
		// A phrase in sentence case keeps its capital, its first word
		// may be a name ("Nicodemus comes to Jesus"), unless that word
		// is a small one ("Of God's care").
		if first, rest, _ := strings.Cut(p, " "); rest != "" {
			if l := strings.ToLower(first); articles[l] || prepositions[l] || conjunctions[l] {
				p = l + " " + rest
			}
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return name, true
	}
	label := fmt.Sprintf("%s (%s)", name, strings.Join(parts, ", "))
	// A heading is short; a longer phrase is a note or a table Nave's
	// printed as one (PROPHECY's messianic passages, each "with" the
	// verse quoting it).
	return label, utf8.RuneCountInString(label) <= maxLabelRunes
}

// quoteMarks drops quotation marks.
var quoteMarks = strings.NewReplacer("“", "", "”", "", `"`, "")

// maxLabelRunes is the longest entryLabel.
const maxLabelRunes = 60

// contextVerse and contextChapter find a verse or a chapter named without
// its book ("What about verse 17?", "and verses 17-18", "what happens in
// chapter 4"): in a conversation, of the passage the last answer cited.
var (
	contextVerse   = regexp.MustCompile(`(?i)\bverses?\s+(\d{1,3})(?:\s*[-–—]\s*(\d{1,3}))?\b`)
	contextChapter = regexp.MustCompile(`(?i)\bchapter\s+(\d{1,3})\b`)
)

// contextPassages are the passages a follow-up names by verse or chapter
// alone, in the book and chapter of the first reference the latest
// earlier answer cited ("What does John 3:16 mean?", then "and verse
// 17?": John 3:17); and rest, the question without them. None when the
// question names no such verse or chapter, or no earlier answer cited a
// passage, or the verse is not in that chapter.
func contextPassages(question string, turns []Turn, maxRefs int) (runs [][]corpus.VerseID, rest string) {
	var last corpus.Reference
	for _, t := range slices.Backward(turns) {
		if len(t.References) == 0 {
			continue
		}
		r, err := corpus.ParseReference(t.References[0])
		if err == nil {
			last = r
			break
		}
	}
	if last.Book.Number == 0 {
		return nil, question
	}
	var ref string
	var loc []int
	if m := contextVerse.FindStringSubmatchIndex(question); m != nil {
		loc = m[:2]
		ref = fmt.Sprintf("%s %d:%s", last.Book.Name, last.StartChapter, question[m[2]:m[3]])
		if m[4] >= 0 {
			ref += "-" + question[m[4]:m[5]]
		}
	} else if m := contextChapter.FindStringSubmatchIndex(question); m != nil {
		loc = m[:2]
		ref = fmt.Sprintf("%s %s", last.Book.Name, question[m[2]:m[3]])
	} else {
		return nil, question
	}
	r, err := corpus.ParseReference(ref)
	if err != nil {
		return nil, question
	}
	runs = chapterRuns(nil, r.VerseIDs(), map[corpus.VerseID]bool{}, maxRefs)
	return runs, question[:loc[0]] + question[loc[1]:]
}
