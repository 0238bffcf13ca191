package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/selahdev/selah/corpus"
)

// The theme gate. A question that names a theme Nave's teaches under
// sections ("I keep blowing up at my kids", "drowning in credit card
// debt") is answered from the theme's key passages and sections even when
// no one verse holds its many words, and so when search's confidence is
// weak — if it speaks of the theme as the Bible does. "Is my tithe tax
// deductible" names TAX and "a prayer journal app for iphone" PRAYER, and
// the Bible has nothing for them. Whether it does is a fitted logistic
// model over three facts of the question and the theme:
//
//   - setting: the share of the question's content words besides the
//     title's that the theme's text holds (its Nave's phrases and the KJV
//     and WEB wording of its verses, sense.go), a word counting also when
//     one of its WordNet synonyms or derivations is there ("hurt" and
//     "injury");
//   - unknown: the share of the question's words the corpus has never
//     seen ("iphone", "metabolism", "Arizona");
//   - likeness: the question's likeness to the theme's own verses, its
//     key passages first, then its sections: the mean of the best three
//     cosines of their SIF vectors.
//
// The model was fitted by FitThemeGate (selah eval --calibrate) on the ask
// tuning sets' questions that reach the gate with a weak search, the only
// ones whose answering it decides: answerable against decline, each class
// weighing half. It replaced a rule (one of the question's other words in
// the theme's text, and the title held whole) that declined most pastoral
// questions: "how can I forgive someone who hurt me" shares no word with
// FORGIVENESS's text but "forgive".
type gateFeatures struct {
	setting, unknown, likeness float64
}

func (f gateFeatures) vec() []float64 { return []float64{f.setting, f.unknown, f.likeness} }

// ThemeGate is the fitted model: P = σ(Bias + W·(setting, unknown,
// likeness)).
type ThemeGate struct {
	Bias float64
	W    [3]float64
}

// themeGate is the shipped model, printed by selah eval --calibrate
// (DEVELOPERS.md, "Quality").
var themeGate = ThemeGate{Bias: -1.884, W: [3]float64{2.409, -6.83, 5.401}}

func (g ThemeGate) prob(f gateFeatures) float64 {
	z := g.Bias
	for i, x := range f.vec() {
		z += g.W[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// answers reports whether the question is answered from the theme.
func (g ThemeGate) answers(f gateFeatures) bool { return g.prob(f) >= gateAnswers }

// gateAnswers is the probability from which the gate answers. Above even
// odds: an off-topic question answered with verses misleads, a pastoral
// one declined says only that nothing was found. Chosen on the ask tuning
// sets' figures (DEVELOPERS.md): at 0.5 they lost two declines, at 0.7
// answers.
const gateAnswers = 0.6

// Literal prints g as Go source for themeGate.
func (g ThemeGate) Literal() string {
	return fmt.Sprintf("ThemeGate{Bias: %g, W: [3]float64{%g, %g, %g}}", g.Bias, g.W[0], g.W[1], g.W[2])
}

// gateSample is what the gate weighed for one question, kept on its
// Answer for fitting.
type gateSample struct {
	f          gateFeatures
	confidence float64 // search's, for the question
}

// Theme choice. The theme a question's words name best is not always the
// one it is about: "we're two months behind on rent and I can't sleep"
// names RENTING first; "I keep falling into the same temptation, why
// can't I beat this" names BEATING. Of the first maxThemeChoices theme
// topics the router gives, the theme is the one whose route score plus
// likeness (both in [0, 1], added unweighted as in byQuestion) is highest.
const (
	maxThemeChoices = 5
	// themeLikeVerses bounds the verses a theme's likeness reads.
	themeLikeVerses = 30
	// themeLikeBest: the likeness is the mean of the best few cosines; one
	// verse may share a rare word by chance.
	themeLikeBest = 3
	// maxSeeThemes: a topic referring to more themes than this is a hub
	// (GOD refers to 20 and more: WORKS, PREDESTINATION, CREATION …), and
	// a question naming it is about none of them in particular; its
	// references are not weighed. Chosen on the ask tuning sets
	// (DEVELOPERS.md): at 5 askdev4 lost a hit.
	maxSeeThemes = 10
)

// themeCandidate is a theme topic weighed for a question.
type themeCandidate struct {
	topic    string
	ts       *topicSense
	score    float64  // its best route's
	likeness float64  // to the question, of its first themeLikeVerses verses
	routes   []Routed // its key passages, then its sections' verses
	// aside: the question names it only as its circumstance
	// (senses.circumstance).
	aside bool
	// predicate: the question names it only as what it asks its subject
	// is ("Is laziness a sin?": SIN; predicateWords).
	predicate bool
	// whole: the number of its title's terms, when the question holds
	// them all (wholeTitle).
	whole int
	// eligible: the question may be answered from it (weighThemes: a
	// theme bridged beside the router's is weighed, not chosen).
	eligible bool
}

// themeTeacher is the router read for a theme's teaching (NaveRouter).
type themeTeacher interface {
	teaching(title string, score float64) []Routed
	seeAlso(title string) []string
	isTopic(title string) bool
}

// weighThemes returns the themes a question is weighed against, each with
// its routes and likeness, and the index of the one it is most about
// among them (-1: none): of the first maxThemeChoices topics of routes
// (best first), and the topics they refer to whole ("LYING: See
// FALSEHOOD", at seeDiscount; not a hub's, maxSeeThemes), the
// abstraction with teaching (key passages or sections) whose route score
// plus likeness is highest, a time the question names as its
// circumstance last (before); when none of them can answer and bridged
// is set, the same of the themes the word vectors bridge the question to
// (bridge.go) and WordNet names for its words (wordNetThemes). wide adds
// the bridged themes also when the router's can answer, never chosen: the
// pool a better choice could take from (ThemeReach). v: the question
// asks what Jesus said or what a book says, and only themes whose
// teaching holds his words, or the book's verses, are weighed.
func (a *Answerer) weighThemes(question string, routes []Routed, bridged, wide bool, v voice) (pool []themeCandidate, best int) {
	tt, _ := a.Router.(themeTeacher)
	var cands []themeCandidate
	seen := map[string]bool{}
	for _, r := range routes {
		if !r.Key && !seen[r.Topic] && len(seen) < maxThemeChoices {
			seen[r.Topic] = true
			cands = append(cands, themeCandidate{topic: r.Topic, score: r.Score})
		}
	}
	if tt != nil {
		for _, c := range slices.Clone(cands) {
			see := tt.seeAlso(c.topic)
			if len(see) > maxSeeThemes {
				continue
			}
			for _, to := range see {
				if !seen[to] {
					seen[to] = true
					cands = append(cands, themeCandidate{topic: to, score: c.score * seeDiscount})
				}
			}
		}
	}
	lk, _ := a.r.Dense.(likeness)
	held := a.r.lex.an.termSet(question)
	predicate := a.r.lex.an.termSet(strings.Join(predicateWords(question), " "))
	best = -1
	consider := func(cands []themeCandidate, eligible bool) {
		for _, c := range cands {
			if a.r.namesEntity(c.topic) {
				continue
			}
			// A topic the question names comes with its entries in the order
			// they match the question; one it refers to, in Nave's.
			for _, r := range routes {
				if r.Topic == c.topic && (r.Key || r.Section) {
					c.routes = append(c.routes, r)
				}
			}
			if len(c.routes) == 0 && tt != nil {
				c.routes = tt.teaching(c.topic, c.score)
			}
			if len(c.routes) == 0 && c.score >= routeNames && !a.refersToTheme(tt, c.topic) {
				// A topic the question names that Nave's files in plain
				// entries only, no section: its entries are what it
				// teaches ("What is the armor of God?": ARMOR's
				// "FIGURATIVE", Ephesians 6:11-17). One referring to a
				// theme that teaches is read through it ("LYING: See
				// FALSEHOOD"; its own entry is an instance: "Lying
				// spirit from God").
				for _, r := range routes {
					if r.Topic == c.topic {
						c.routes = append(c.routes, r)
					}
				}
			}
			// The sense is learnt once per topic and process (sense.go), the
			// costly step: only for topics with teaching.
			if len(c.routes) == 0 {
				continue
			}
			// A question asking what Jesus said is answered from his words
			// (Answer): a theme whose teaching holds none of them has
			// nothing to answer it with ("What did Jesus say about the dead
			// rising again?": RISING, of rising early).
			if v.scoped() && !slices.ContainsFunc(c.routes, func(r Routed) bool { return a.speaks(v, r) }) {
				continue
			}
			if c.ts = a.r.senses.topic(c.topic); !c.ts.abstraction() {
				continue
			}
			if lk != nil {
				ids := make([]corpus.VerseID, min(len(c.routes), themeLikeVerses))
				for i := range ids {
					ids[i] = c.routes[i].Verse
				}
				c.likeness = meanBest(lk.Similarity(question, ids), themeLikeBest)
			}
			c.aside = a.r.senses.circumstance(c.ts, question)
			c.whole = a.wholeTitle(held, c.topic)
			c.predicate = a.namedIn(predicate, held, c.topic)
			c.eligible = eligible
			pool = append(pool, c)
			if eligible && (best < 0 || before(c, pool[best])) {
				best = len(pool) - 1
			}
		}
	}
	consider(cands, true)
	// A theme the question names only as its predicate is its frame, and
	// the themes bridged from its subject are weighed beside it.
	framed := best >= 0 && pool[best].predicate
	if (best < 0 || wide || framed) && bridged && lk != nil && a.r.bridge != nil {
		// No theme the router named can answer: the themes the question's
		// words are near in the word vectors (bridge.go), at their CSLS
		// score, capped like a route's. Weighed only now: beside the
		// router's themes they won where its own words named the right one.
		// A framed question is bridged from its subject: near "sin" lie
		// TRESPASS and OFFERINGS, whatever "gambling" is near.
		subject := question
		if framed {
			subject = a.subject(question)
		}
		var near []themeCandidate
		for _, b := range a.r.bridge.near(subject) {
			if !seen[b.title] {
				seen[b.title] = true
				near = append(near, themeCandidate{topic: b.title, score: min(b.score, 1)})
			}
		}
		if tt != nil {
			named := a.wordNetThemes(subject, tt)
			for _, t := range slices.Sorted(maps.Keys(named)) {
				if !seen[t] {
					near = append(near, themeCandidate{topic: t, score: named[t]})
				}
			}
		}
		consider(near, best < 0 || framed)
	}
	return pool, best
}

// refersToTheme reports whether a topic refers to a theme that teaches:
// an abstraction (sense.go) with key passages or sections. ARMOR refers
// to GREAVES, a thing with a section, and is read whole.
func (a *Answerer) refersToTheme(tt themeTeacher, title string) bool {
	if tt == nil {
		return false
	}
	return slices.ContainsFunc(tt.seeAlso(title), func(to string) bool {
		return a.r.senses.topic(to).abstraction() && len(tt.teaching(to, 0)) > 0
	})
}

// isHub reports whether r's topic refers to more than maxSeeThemes
// topics: a hub, about none of them in particular.
func (a *Answerer) isHub(r Routed) bool {
	tt, _ := a.Router.(themeTeacher)
	return tt != nil && len(tt.seeAlso(r.Topic)) > maxSeeThemes
}

// wordNetThemes are the themes WordNet names for the question's words:
// the topics titled by a word's synonym, derivation or broader term
// (relatedAt, collocations read whole: "worry" is a kind of anxiety), at
// the relation's expansion weight, and the topics those refer to whole
// at seeDiscount ("ANXIETY: See CARE"; a hub's none, maxSeeThemes). They
// are weighed as the word vectors' bridge is, only when the router names
// no theme that can answer: beside the router's, WordNet's relatives won
// where the question's own words named the right theme (DEVELOPERS.md,
// eleventh and twenty-seventh rounds).
func (a *Answerer) wordNetThemes(question string, tt themeTeacher) map[string]float64 {
	if a.r.Expand == nil {
		return nil
	}
	out := map[string]float64{}
	add := func(title string, score float64) {
		out[title] = max(out[title], score)
	}
	eachRelated(a.r.Expand, question, func(rels []Related) {
		for _, rel := range rels {
			if strings.ContainsAny(rel.Word, " _-") || !tt.isTopic(rel.Word) {
				continue
			}
			score := min(rel.Weight, maxExpansionWeight)
			add(strings.ToUpper(rel.Word), score)
			if see := tt.seeAlso(rel.Word); len(see) <= maxSeeThemes {
				for _, to := range see {
					add(to, score*seeDiscount)
				}
			}
		}
	})
	return out
}

// before reports whether theme c is chosen over theme b: a theme the
// question names only as its circumstance ("my anxiety is so bad I lie
// awake every night" is about CARE, not NIGHT) after any other, then by
// route score plus likeness.
func before(c, b themeCandidate) bool {
	if c.aside != b.aside {
		return !c.aside
	}
	if c.predicate != b.predicate {
		return !c.predicate
	}
	// A title of several words the question holds whole is what it names,
	// whatever their verses' likeness: "the Lord's Prayer" is LORD'S
	// PRAYER, and PRAYER a word of its name (Matthew 6:9-13 shares few
	// words with "What is the Lord's Prayer?"). Of two such titles, the
	// longer.
	if c.whole > 1 || b.whole > 1 {
		if c.whole != b.whole {
			return c.whole > b.whole
		}
	}
	return c.score+c.likeness > b.score+b.likeness
}

// namedIn reports whether the question names a title only in the words
// of phrase (terms): it holds some of the title's terms, and each it holds
// is one of phrase's.
func (a *Answerer) namedIn(phrase, held map[string]bool, title string) bool {
	if len(phrase) == 0 {
		return false
	}
	named, only := false, true
	a.r.lex.an.terms(title, func(t string) {
		if held[t] {
			named = true
			only = only && phrase[t]
		}
	})
	return named && only
}

// wholeTitle is the number of terms of a title when the question's terms
// (held) include every one, else 0. ("ANGEL (A SPIRIT)" is not held by
// "Who is the Holy Spirit?", though its route scores 1.)
func (a *Answerer) wholeTitle(held map[string]bool, title string) int {
	n := 0
	a.r.lex.an.terms(title, func(t string) {
		if n >= 0 && held[t] {
			n++
		} else {
			n = -1
		}
	})
	return max(n, 0)
}

// meanBest is the mean of the n largest of xs (of all, when fewer).
func meanBest(xs []float64, n int) float64 {
	xs = slices.Clone(xs)
	slices.SortFunc(xs, func(a, b float64) int { return cmp.Compare(b, a) })
	xs = xs[:min(n, len(xs))]
	if len(xs) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// gateFeatures are the gate's facts of a question and its theme.
func (a *Answerer) gateFeatures(question string, c themeCandidate, rv *relevance) gateFeatures {
	f := gateFeatures{setting: 1, likeness: c.likeness}
	if others, shared := c.ts.setting(a.r, question, true); others > 0 {
		f.setting = shared / others
	}
	f.unknown = safeDiv(float64(rv.q.unknown), float64(rv.q.unknown+rv.q.words))
	return f
}

// FitThemeGate fits the theme gate on cases, answered by a: a question
// the gate weighed with a weak search is a sample, answerable (any kind
// but decline) or not; the two classes weigh the same in the loss, as
// the tuning sets hold fewer declines than questions. It returns the
// model and the number of samples.
func FitThemeGate(ctx context.Context, a *Answerer, cases []AskCase) (ThemeGate, int, error) {
	var xs [][]float64
	var ys []float64
	for _, c := range cases {
		ans, err := a.Answer(ctx, c.Question, 0, AnswerOptions{Extractive: true})
		if err != nil {
			return ThemeGate{}, 0, fmt.Errorf("pipeline: fit theme gate %q: %w", c.Question, err)
		}
		if ans.gate == nil || ans.gate.confidence >= WeakBelow {
			continue
		}
		y := 1.0
		if c.Kind == KindDecline {
			y = 0
		}
		xs, ys = append(xs, ans.gate.f.vec()), append(ys, y)
	}
	pos := 0.0
	for _, y := range ys {
		pos += y
	}
	n := float64(len(ys))
	if pos == 0 || pos == n {
		return ThemeGate{}, len(ys), fmt.Errorf("pipeline: fit theme gate: %d samples, %g answerable: need both kinds", len(ys), pos)
	}
	weights := make([]float64, len(ys))
	for i, y := range ys {
		weights[i] = n / (2 * (n - pos))
		if y == 1 {
			weights[i] = n / (2 * pos)
		}
	}
	bias, w := logistic(xs, ys, weights, 3000, 0.5, 1e-3)
	g := ThemeGate{Bias: bias}
	copy(g.W[:], w)
	return g, len(ys), nil
}
