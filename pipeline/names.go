package pipeline

import (
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/wordnet"
)

// Proper names, learned from the KJV's capitals. The KJV capitalises a
// name wherever it stands ("Ruth", "Salem", "Pentecost") and a common word
// only at the start of a sentence ("love", "faith", "fruit"). A word
// written with a capital in at least properShare of its occurrences that
// do not open a sentence is a name. Nave's topics titled by a name are
// people, places, feasts and things: entities whose sub-entries tell what
// they were, and so answer "who" and "what happened" questions. Topics
// titled by a common word are themes ("LOVE", "FAITH"), whose sub-entries
// list instances rather than say what the theme is.
//
// A name in a large share of all verses (maxProperVerses: "God", "LORD",
// each in more than one verse in ten) is not the subject of a question
// that names it: "Does God love me?" asks about love, and the topic GOD
// lists everything.
const (
	properShare     = 0.9
	properMin       = 2 // occurrences, so that one odd capital is not a name
	maxProperVerses = 0.05
)

// properNames returns the lower-cased words the verses write as names,
// with the number of verses naming each; as all, every such word
// whatever its share of verses ("israel" too, in one verse in twelve);
// and as determined, the words written with a capital right after an
// article: names of peoples, offices and places, which English gives one
// ("a Pharisee", "the Philistines", "an Ammonite"), unlike a person's
// name ("Job", "Lot"). Only articles: the other determiners are pronouns
// too ("In all this Job sinned not"). A question that writes such a
// person's name in lower case after a determiner ("I lost my job") uses
// the common word (commonName).
func properNames(vs []corpus.Verse) (proper map[string]int, all, determined, rare map[string]bool) {
	type count struct{ upper, lower, verses int }
	counts := map[string]*count{}
	determined = map[string]bool{}
	for _, v := range vs {
		opens := true // a verse may open a sentence
		prev := ""    // the word before, "" after punctuation
		seen := map[string]bool{}
		for _, f := range strings.Fields(v.Text) {
			w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
			if w != "" && unicode.IsUpper([]rune(w)[0]) && (prev == "the" || prev == "a" || prev == "an") {
				determined[strings.ToLower(w)] = true
			}
			prev = strings.ToLower(w)
			if endsPhrase(f) {
				prev = ""
			}
			if key := strings.ToLower(w); w != "" && !seen[key] {
				seen[key] = true
				if c := counts[key]; c != nil {
					c.verses++
				} else {
					counts[key] = &count{verses: 1}
				}
			}
			if w != "" && !opens {
				key := strings.ToLower(w)
				c := counts[key]
				if c == nil {
					c = &count{}
					counts[key] = c
				}
				if unicode.IsUpper([]rune(w)[0]) {
					c.upper++
				} else {
					c.lower++
				}
			}
			opens = strings.ContainsAny(f[len(f)-1:], ".?!:;") || strings.HasPrefix(f, "(")
		}
	}
	proper, all, rare = map[string]int{}, map[string]bool{}, map[string]bool{}
	for w, c := range counts {
		if c.upper > 0 && c.upper < properMin && c.lower == 0 {
			rare[w] = true
		}
		if c.upper >= properMin && float64(c.upper) >= properShare*float64(c.upper+c.lower) {
			all[w] = true
			if float64(c.verses) <= maxProperVerses*float64(len(vs)) {
				proper[w] = c.verses
			}
		}
	}
	return proper, all, determined, rare
}

// learnAliasedNames makes names of the rare capitals (properNames) that
// a Nave's title gives beside a modern name WordNet knows as a place or a
// person: the KJV writes Melita once (Acts 28:1), too seldom to tell a
// name from an odd capital, and Nave's titles it MELITA (MALTA).
func (r *Retriever) learnAliasedNames(wn *wordnet.WordNet, titles []string) {
	for _, t := range titles {
		w := titleWord(t)
		if !r.rare[w] || r.proper[w] > 0 {
			continue
		}
		if slices.ContainsFunc(titleNames(t)[1:], func(alias string) bool { return namesPlace(wn, alias) || namesPerson(wn, alias) }) {
			r.proper[w] = 1
		}
	}
}

// endsPhrase reports whether a white-space field ends in punctuation, so
// that the next word does not follow it in the same phrase.
func endsPhrase(field string) bool {
	r := []rune(field)
	return len(r) > 0 && !unicode.IsLetter(r[len(r)-1])
}

// inBible reports whether the KJV or the WEB writes any word of text
// (the speller's words: the texts themselves, not the index's glosses).
func (r *Retriever) inBible(text string) bool {
	return slices.ContainsFunc(letterRuns(strings.ToLower(text)), func(w string) bool { return r.speller.known[w] })
}

// namesEntity reports whether a Nave's topic title ("RUTH", "JESUS, THE
// CHRIST", "ANGEL (A SPIRIT)") begins with a proper name of the KJV.
func (r *Retriever) namesEntity(title string) bool {
	return r.proper[titleWord(title)] > 0
}

// titleWord is the first word of a Nave's title, in lower case and
// without punctuation ("jesus" of "JESUS, THE CHRIST").
func titleWord(title string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(title), " ")
	return strings.ToLower(strings.TrimFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }))
}

// isName reports whether the KJV writes the lower-cased word as a name
// (properNames), however common.
func (r *Retriever) isName(lower string) bool { return r.names[lower] }

// ubiquitous reports whether the KJV writes the lower-cased word as a name
// too common to be a question's subject (properNames, maxProperVerses:
// "god", "lord").
func (r *Retriever) ubiquitous(lower string) bool { return r.names[lower] && r.proper[lower] == 0 }

// echoesOnlyUbiquitous reports whether the words a question shares with
// a Nave's entry are all names too common to be a question's subject
// (properNames, maxProperVerses: "God", "LORD"): "What does it mean to
// fear the Lord?" shares only "Lord" with COWARDICE's "Peter, in denying
// the Lord", which is no instance of what it asks. False when they share
// nothing.
func (r *Retriever) echoesOnlyUbiquitous(question, entry string) bool {
	in := r.lex.an.termSet(entry)
	ubiquitous, other := false, false
	for _, w := range questionWords(question) {
		w = unpossessed(w)
		r.lex.an.terms(w, func(t string) {
			switch {
			case !in[t]:
			case r.ubiquitous(w):
				ubiquitous = true
			default:
				other = true
			}
		})
	}
	return ubiquitous && !other
}

// namesWhole reports whether every word of the question (its index
// terms: stop words and its frame aside, as the router reads it) is a
// word of a Nave's topic's title or of its entry: "What is the Sermon on
// the Mount?" of SERMON's "Of Jesus, on the mount", "What does the Bible
// say about the Lord's Prayer?" of LORD'S PRAYER. A name too common to be
// a subject (echoesOnlyUbiquitous: "God", "LORD") counts only in the
// entry, when there is one: GOD's entries are the whole Bible's, and
// "What is the peace of God?" named no passage by GOD's "in giving peace
// with other nations" (2 Chronicles 17).
func (r *Retriever) namesWhole(question, title, entry string) bool {
	inTitle, inEntry := r.lex.an.termSet(title), r.lex.an.termSet(entry)
	all, any := true, false
	for _, w := range questionWords(question) {
		ubiquitous := entry != "" && r.ubiquitous(unpossessed(w))
		r.lex.an.terms(w, func(t string) {
			if questionFrame[t] {
				return
			}
			any = true
			all = all && (inEntry[t] || inTitle[t] && !ubiquitous)
		})
	}
	return any && all
}

// namesProper reports whether text holds a word the KJV writes as a name
// (properNames): "the road to Damascus" is a road of the Bible's setting,
// whatever else the question says. A possessive ("Saul's road") is its
// name: questionWords keeps the apostrophe that contractions need.
func (r *Retriever) namesProper(text string) bool {
	return slices.ContainsFunc(questionWords(text), func(w string) bool { return r.proper[unpossessed(w)] > 0 })
}

// possessesName reports whether the question writes a topic's title word
// as a possessor the KJV writes as a name: "Lot" is as often "a lot" as
// the man (namesEntity), but "lot's wife" is his, as "Lot’s" with its
// capital is in every verse that writes it. A word that is a name
// anyway is no name here when namesEntity says so ("God's way": GOD is
// in too many verses to be a question's subject).
func (r *Retriever) possessesName(question, title string) bool {
	tw := titleWord(title)
	return !r.names[tw] && r.proper[tw+"’s"]+r.proper[tw+"'s"] > 0 && slices.ContainsFunc(questionWords(question), func(w string) bool {
		return w == tw+"'s"
	})
}

// unpossessed is a question word without its possessive ending: "saul's"
// and "moses'" are the names.
func unpossessed(w string) string {
	return strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
}

// commonName reports whether a question that writes the lower-case word,
// one the KJV writes as a name, after a determiner means the common word:
// modern English uses it first as a common word (WordNet) and the KJV
// never gives the name an article (properNames).
func (r *Retriever) commonName(wn *wordnet.WordNet, w string) bool {
	return r.names[w] && !r.determined[w] && commonWord(wn, w)
}

// withoutCommon returns query without the words it uses as common words
// where the KJV has only a name (Common: "I lost my job" is searched as
// "I lost my"); query itself when there are none.
func (r *Retriever) withoutCommon(query string) string {
	if r.Common == nil {
		return query
	}
	sc := splitCommon(query, r.Common)
	if len(sc.common) == 0 {
		return query
	}
	return strings.Join(sc.kept, " ")
}

// determiners open a noun phrase whose head is a common noun: a name
// takes none ("my job", "a lot"; "Job", "Lot"). A closed class of
// English grammar, not a list of query words; "that", a conjunction as
// often ("that Job sent and sanctified them"), is left out.
var determiners = map[string]bool{
	"a": true, "an": true, "my": true, "your": true, "his": true, "her": true,
	"its": true, "our": true, "their": true, "this": true, "these": true,
	"those": true, "every": true, "each": true, "no": true, "any": true,
	"some": true, "another": true,
}

// isPossessive reports whether a lower-cased word is a possessive, which
// determines a noun as "my" does: "What was Paul's job?" asks of his work.
func isPossessive(w string) bool {
	return len(w) > 2 && (strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s"))
}

// commonSplit is a query's white-space separated fields, split into the
// words it uses as common words (lower case, right after a determiner,
// and common says so) and the fields it keeps.
type commonSplit struct {
	kept, common []string
}

// splitCommon is the one reading of which of a query's words are common
// words for the router (NaveRouter.commonUse) and the search
// (withoutCommon).
func splitCommon(query string, common func(word string) bool) commonSplit {
	var out commonSplit
	prev := ""
	for _, f := range strings.Fields(query) {
		w := strings.TrimFunc(f, func(c rune) bool { return !unicode.IsLetter(c) })
		if w != "" && (determiners[prev] || isPossessive(prev)) && w == strings.ToLower(w) && common(w) {
			out.common = append(out.common, w)
			prev = ""
			continue
		}
		out.kept = append(out.kept, f)
		prev = strings.ToLower(w)
		if endsPhrase(f) {
			prev = ""
		}
	}
	return out
}
