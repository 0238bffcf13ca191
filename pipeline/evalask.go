package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// AskCase is one question with the verses that count as a good reference
// for it, or, of kind KindDecline, a question the answer must decline.
type AskCase struct {
	Question string
	// Kind groups the cases in the report: person, event, doctrine,
	// teaching (what Jesus taught), practical, decline; "" for the old
	// set's everyday questions.
	Kind   string
	Expect []corpus.VerseID
	// Each, when set, groups the expected verses by the things the
	// question asks about: a comparison ("the difference between grace
	// and mercy") is answered only when the answer cites a verse of each.
	Each [][]corpus.VerseID
	// Speaker, for a question asking who said some words, are the names
	// an answer may give the speaker by ("Pilate", "Pontius Pilate"): the
	// report counts the answers naming one.
	Speaker []string
}

// holdsExpected reports whether any of ids is a verse the case expects.
func (c AskCase) holdsExpected(ids []corpus.VerseID) bool {
	return holdsAny(ids, c.Expect)
}

// answeredBy reports whether ids answer the case: they hold an expected
// verse, and one of every group when the case has groups.
func (c AskCase) answeredBy(ids []corpus.VerseID) bool {
	if len(c.Each) == 0 {
		return c.holdsExpected(ids)
	}
	for _, g := range c.Each {
		if !holdsAny(ids, g) {
			return false
		}
	}
	return true
}

func holdsAny(ids, want []corpus.VerseID) bool {
	return slices.ContainsFunc(ids, func(id corpus.VerseID) bool { return slices.Contains(want, id) })
}

// KindDecline is the kind of a question the Bible has no passage on: the
// answer must say so and cite nothing.
const KindDecline = "decline"

type askLine struct {
	Question string   `json:"question"`
	Kind     string   `json:"kind"`
	Expect   []string `json:"expect"`
	Expected []string `json:"expected"`
	// ExpectEach groups the expected references by the things a question
	// asks about (AskCase.Each); each group's are expected too.
	ExpectEach [][]string `json:"expectEach"`
	Speaker    []string   `json:"speaker"`
}

// DefaultAskCases returns the built-in question set
// (testdata/eval/ask.jsonl), the old set the offline generator was tuned
// on.
func DefaultAskCases() ([]AskCase, error) { return AskSetCases("ask") }

// AskTuningSets are the /ask tuning sets (testdata/eval) the theme gate
// is fitted on; the held-out ask2, ask3, ask4 and ask5 are never among
// them.
var AskTuningSets = []string{"ask", "askdev", "askdev3", "askdev4", "askdev5", "askdev6", "practicaldev", "practical2dev", "practicaldev3", "declinedev2"}

// AskSetCases returns the cases of a built-in ask set by name.
func AskSetCases(name string) ([]AskCase, error) {
	b, err := evalFiles.ReadFile("testdata/eval/" + name + ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("pipeline: ask set %s: %w", name, err)
	}
	cs, err := ReadAskCases(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("pipeline: ask set %s: %w", name, err)
	}
	return cs, nil
}

// AskTuningCases returns the cases of every ask tuning set, in order.
func AskTuningCases() ([]AskCase, error) {
	var out []AskCase
	for _, name := range AskTuningSets {
		cs, err := AskSetCases(name)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// ReadAskCases reads JSON lines {"question", "kind"?, "expect": ["John
// 3:16", ...], "expectEach"?: [["Ephesians 2:8"], ["Titus 3:5"]]}
// ("expected" is read too). An expected reference may be a range
// ("Matthew 5:3-12"): every verse in it counts. A decline case expects no
// verse. With expectEach, an answer must cite a verse of every group.
func ReadAskCases(r io.Reader) ([]AskCase, error) {
	return readCases(r, "ask case", func(l askLine) (AskCase, error) {
		refs := append(l.Expect, l.Expected...)
		for _, g := range l.ExpectEach {
			refs = append(refs, g...)
		}
		kind := strings.ToLower(strings.TrimSpace(l.Kind))
		switch {
		case strings.TrimSpace(l.Question) == "":
			return AskCase{}, fmt.Errorf("needs a question")
		case (len(refs) == 0) != (kind == KindDecline):
			return AskCase{}, fmt.Errorf("needs expected verses (none for kind decline)")
		case slices.ContainsFunc(l.ExpectEach, func(g []string) bool { return len(g) == 0 }):
			return AskCase{}, fmt.Errorf("an expectEach group needs a reference")
		}
		expect, err := expandRefs(refs)
		if err != nil {
			return AskCase{}, err
		}
		c := AskCase{Question: l.Question, Kind: kind, Expect: expect, Speaker: l.Speaker}
		for _, g := range l.ExpectEach {
			ids, err := expandRefs(g)
			if err != nil {
				return AskCase{}, err
			}
			c.Each = append(c.Each, ids)
		}
		return c, nil
	})
}

// AskReport is the outcome of EvaluateAsk.
type AskReport struct {
	Generator string // the answerer's configured generator
	MaxRefs   int
	Cases     int
	// HitRate is the share of cases answered well: for a case expecting
	// verses, its references include one; for a decline case, it was
	// declined.
	HitRate float64
	// Kinds are the per-kind figures, in order of first appearance.
	Kinds []AskKindReport
	// Declines counts decline cases, DeclinesRight those declined;
	// FalseDeclines counts other cases declined.
	Declines, DeclinesRight, FalseDeclines int
	// Answered counts the answers that were not declines. GroundedAnswers
	// counts those whose every reference is grounded (a retrieved verse
	// with the database's text) and every sentence names a reference it
	// cites; OwnSentence those with at least one sentence of their own (see
	// ownSentence).
	Answered, GroundedAnswers, OwnSentence int
	// References counts the references of all answers; GroundedShare is
	// the share of them that are grounded. It must be 1.
	References    int
	GroundedShare float64
	// OnTarget is the share of the references of answers to cases that
	// expect verses which hold one of them: what a reader finds of use
	// among all the references cited, not only whether one was. The
	// expected lists are not exhaustive, so it is a floor, for comparing
	// changes on the same set.
	OnTarget           float64
	expectRefs, onRefs int
	// NoAnswer counts declined answers; Fallbacks those where the
	// composer's answer replaced the generator's.
	NoAnswer  int
	Fallbacks int
	// Speakers counts the cases naming a speaker (AskCase.Speaker),
	// SpeakersNamed the answers that name one of them.
	Speakers, SpeakersNamed int
	MeanLatency             time.Duration
	Misses                  []AskMiss
	Ungrounded              []string // references or sentences that failed the check, with their question
	// Answers are every case's answer, for --answers.
	Answers []AskAnswer
}

// AskKindReport is the hit rate of one kind of case.
type AskKindReport struct {
	Kind    string
	Cases   int
	HitRate float64
	hits    int
	// The theme path's reach (ThemeReach), over the kind's answerable
	// cases: Themed took it (a Nave's theme, not a person or place, was
	// weighed); ThemeHolds were answered from a theme whose first MaxRefs
	// verses of teaching hold an expected verse; BestHolds reach such a
	// theme, chosen or not. Ceiling is the hit rate with every case that
	// reaches one answered from it, the others as answered: what a better
	// choice among the themes the sources reach could give.
	Themed, ThemeHolds, BestHolds int
	Ceiling                       float64
	ceiling                       int
	// CandidatesHold counts the kind's answerable cases whose answer gave
	// the generator an expected verse among its candidates (a declined
	// answer gives none): what any generator could cite, the OpenAI-
	// compatible one as much as the composer.
	CandidatesHold int
}

// AskAnswer is one case's answer as returned.
type AskAnswer struct {
	Question, Text, Summary string
	References              []string
}

// AskMiss is a case answered wrongly.
type AskMiss struct {
	Question string
	Got      []string // the answer's references; empty for no answer
}

// EvaluateAsk answers every case with at most maxRefs references and
// scores the answers: hit rate by kind, declines, grounding of every
// reference (checked against the retrieved candidates and a fresh read of
// the database) and of every sentence, and sentences of the answer's own.
func EvaluateAsk(ctx context.Context, a *Answerer, cases []AskCase, maxRefs int) (AskReport, error) {
	rep := AskReport{Generator: a.GeneratorName(), MaxRefs: maxRefs, Cases: len(cases)}
	var spent time.Duration
	hits, grounded := 0, 0
	kinds := map[string]*AskKindReport{}
	var order []string
	for _, c := range cases {
		start := time.Now()
		ans, err := a.Answer(ctx, c.Question, maxRefs, AnswerOptions{themes: true})
		if err != nil {
			return rep, fmt.Errorf("pipeline: evaluate ask %q: %w", c.Question, err)
		}
		spent += time.Since(start)
		if ans.Fallback {
			rep.Fallbacks++
		}
		var got []string
		for _, ref := range ans.References {
			got = append(got, ref.Reference)
		}
		rep.Answers = append(rep.Answers, AskAnswer{Question: c.Question, Text: ans.Text, Summary: ans.Summary, References: got})
		hit := false
		var cited []corpus.VerseID
		if ans.NoPassage {
			rep.NoAnswer++
			if c.Kind != KindDecline {
				rep.FalseDeclines++
			}
		} else {
			rep.Answered++
			allGrounded := true
			for _, ref := range ans.References {
				ids := ref.VerseIDs()
				ok, err := a.groundedReference(ctx, ref, ids, ans.Retrieved)
				if err != nil {
					return rep, err
				}
				rep.References++
				if ok {
					grounded++
				} else {
					allGrounded = false
					rep.Ungrounded = append(rep.Ungrounded, c.Question+": "+ref.Reference)
				}
				cited = append(cited, ids...)
				held := c.holdsExpected(ids)
				if c.Kind != KindDecline {
					rep.expectRefs++
					if held {
						rep.onRefs++
					}
				}
			}
			hit = c.answeredBy(cited)
			if bad := uncitedSentence(ans.Text, ans.References); bad != "" {
				allGrounded = false
				rep.Ungrounded = append(rep.Ungrounded, c.Question+": sentence without a citation: "+bad)
			}
			if allGrounded && len(ans.References) > 0 {
				rep.GroundedAnswers++
			}
			if slices.ContainsFunc(Sentences(ans.Text), ownSentence) {
				rep.OwnSentence++
			}
		}
		if len(c.Speaker) > 0 {
			rep.Speakers++
			if !ans.NoPassage && namesAny(ans.Text, c.Speaker) {
				rep.SpeakersNamed++
			}
		}
		if c.Kind == KindDecline {
			rep.Declines++
			hit = ans.NoPassage
			if hit {
				rep.DeclinesRight++
			}
		}
		k := kinds[c.Kind]
		if k == nil {
			k = &AskKindReport{Kind: c.Kind}
			kinds[c.Kind] = k
			order = append(order, c.Kind)
		}
		k.Cases++
		if c.Kind != KindDecline && !ans.NoPassage && c.answeredBy(ans.Retrieved) {
			k.CandidatesHold++
		}
		reach := ThemeReach{}
		if c.Kind != KindDecline && ans.themes != nil {
			reach = reachOf(*ans.themes, c.Expect, maxRefs)
			k.Themed++
			if reach.Chosen {
				k.ThemeHolds++
			}
			if reach.Best {
				k.BestHolds++
			}
		}
		if hit || reach.Best && c.Kind != KindDecline {
			k.ceiling++
		}
		if hit {
			hits++
			k.hits++
		} else {
			rep.Misses = append(rep.Misses, AskMiss{Question: c.Question, Got: got})
		}
	}
	if len(cases) > 0 {
		rep.HitRate = float64(hits) / float64(len(cases))
		rep.MeanLatency = spent / time.Duration(len(cases))
	}
	for _, kind := range order {
		k := kinds[kind]
		k.HitRate = float64(k.hits) / float64(k.Cases)
		k.Ceiling = float64(k.ceiling) / float64(k.Cases)
		rep.Kinds = append(rep.Kinds, *k)
	}
	rep.GroundedShare = 1
	if rep.References > 0 {
		rep.GroundedShare = float64(grounded) / float64(rep.References)
	}
	if rep.expectRefs > 0 {
		rep.OnTarget = float64(rep.onRefs) / float64(rep.expectRefs)
	}
	return rep, nil
}

// Sentences splits an answer into sentences: at a full stop, question or
// exclamation mark followed by a space and a capital or a numbered
// book's name ("… (Ruth 4:17). 1 Kings 1:11 reads: …"), or the end,
// never inside a quotation or parentheses.
func Sentences(text string) []string {
	var out []string
	depth, quoted := 0, false
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		switch r {
		case '"':
			quoted = !quoted
		case '“':
			quoted = true
		case '”':
			quoted = false
		case '(':
			depth++
		case ')':
			depth = max(0, depth-1)
		case '.', '?', '!':
			if quoted || depth > 0 {
				continue
			}
			numbered := i+4 < len(rs) && rs[i+1] == ' ' && strings.ContainsRune("123", rs[i+2]) && rs[i+3] == ' ' && unicode.IsUpper(rs[i+4])
			if i+1 == len(rs) || i+2 < len(rs) && rs[i+1] == ' ' && unicode.IsUpper(rs[i+2]) || numbered {
				if s := strings.TrimSpace(string(rs[start : i+1])); s != "" {
					out = append(out, s)
				}
				start = i + 1
			}
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// ownSentence reports whether a sentence is the answer's own: it quotes
// nothing and has at least four words besides the references it names.
func ownSentence(s string) bool {
	if strings.ContainsAny(s, "\"“”") {
		return false
	}
	for _, loc := range slices.Backward(refPattern.FindAllStringIndex(s, -1)) {
		s = s[:loc[0]] + s[loc[1]:]
	}
	return len(quoteWords(s)) >= 4
}

// uncitedSentence is the first sentence of text that names none of refs,
// or "".
func uncitedSentence(text string, refs []Reference) string {
	for _, s := range Sentences(text) {
		named, err := namedReferences(s)
		if err != nil || !slices.ContainsFunc(named, func(n corpus.Reference) bool {
			return slices.ContainsFunc(refs, func(r Reference) bool {
				return slices.ContainsFunc(r.VerseIDs(), n.Contains)
			})
		}) {
			return s
		}
	}
	return ""
}

// groundedReference checks one reference independently of how the answer
// was built: its verses were retrieved, and its text is the database's.
func (a *Answerer) groundedReference(ctx context.Context, ref Reference, ids, retrieved []corpus.VerseID) (bool, error) {
	if len(ids) == 0 || ref.Translation != api.KJV {
		return false, nil
	}
	for _, id := range ids {
		if !slices.Contains(retrieved, id) {
			return false, nil
		}
	}
	verses, err := a.st.VersesByID(ctx, ids)
	if err != nil {
		return false, fmt.Errorf("pipeline: evaluate ask: %w", err)
	}
	if len(verses) != len(ids) {
		return false, nil
	}
	texts := make([]string, len(verses))
	for i, v := range verses {
		texts[i] = strings.TrimSpace(v.Text)
	}
	return ref.Text == strings.Join(texts, " "), nil
}

// WriteTable prints the report as tables: the whole, then by kind.
func (r AskReport) WriteTable(w io.Writer) error {
	share := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.3f", float64(n)/float64(of))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "generator\tmax refs\tcases\thit rate\tdeclines\tfalse declines\tgrounded\town sentence\treferences\tref grounded\ton target\tfallbacks\tmean latency\t\n")
	fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%s\t%d\t%s\t%s\t%d\t%.3f\t%s\t%d\t%s\t\n", r.Generator, r.MaxRefs, r.Cases, r.HitRate,
		share(r.DeclinesRight, r.Declines), r.FalseDeclines, share(r.GroundedAnswers, r.Answered), share(r.OwnSentence, r.Answered),
		r.References, r.GroundedShare, share(r.onRefs, r.expectRefs), r.Fallbacks, r.MeanLatency.Round(10*time.Microsecond))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Kinds) > 1 || len(r.Kinds) == 1 && r.Kinds[0].Kind != "" {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "kind\tcases\thit rate\tthemed\ttheme holds\tbest theme holds\tceiling\tcandidates hold\t\n")
		for _, k := range r.Kinds {
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%d\t%d\t%d\t%.3f\t%d\t\n", cmp.Or(k.Kind, "(none)"), k.Cases, k.HitRate, k.Themed, k.ThemeHolds, k.BestHolds, k.Ceiling, k.CandidatesHold)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if r.Speakers > 0 {
		if _, err := fmt.Fprintf(w, "\nspeaker named: %s (%d of %d)\n", share(r.SpeakersNamed, r.Speakers), r.SpeakersNamed, r.Speakers); err != nil {
			return err
		}
	}
	for _, u := range r.Ungrounded {
		if _, err := fmt.Fprintf(w, "ungrounded: %s\n", u); err != nil {
			return err
		}
	}
	return nil
}

// namesAny reports whether text names one of names in its own words, as
// whole words, whatever their case ("the LORD" in "The LORD said"): the
// verses it quotes are left out, since Genesis 4:9 quoted names Cain
// whether or not the answer says that Cain spoke.
func namesAny(text string, names []string) bool {
	text = regexp.MustCompile(`"[^"]*"|“[^”]*”`).ReplaceAllString(text, " ")
	words := strings.Fields(strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || r == ' ' {
			return r
		}
		return ' '
	}, text)))
	joined := " " + strings.Join(words, " ") + " "
	return slices.ContainsFunc(names, func(n string) bool {
		return strings.Contains(joined, " "+strings.Join(strings.Fields(strings.ToLower(n)), " ")+" ")
	})
}

// WriteAnswers prints every answer as returned.
func (r AskReport) WriteAnswers(w io.Writer) error {
	for _, a := range r.Answers {
		if _, err := fmt.Fprintf(w, "Q: %s\nA: %s\nS: %s\nR: %s\n\n", a.Question, a.Text, a.Summary, strings.Join(a.References, "; ")); err != nil {
			return err
		}
	}
	return nil
}

// WriteMisses lists the questions answered wrongly.
func (r AskReport) WriteMisses(w io.Writer) error {
	for _, m := range r.Misses {
		got := strings.Join(m.Got, "; ")
		if got == "" {
			got = "(no answer)"
		}
		if _, err := fmt.Fprintf(w, "miss: %q → %s\n", m.Question, got); err != nil {
			return err
		}
	}
	return nil
}

// ThemeReach says how near the theme path came to an expected verse for
// one question: Chosen, the theme it was answered from holds one among
// the first verses of its teaching that an answer cites; Best, some theme
// it weighed does (weighThemes' wide pool: the router's themes, those they
// refer to and those the word vectors bridge to). A question whose best
// theme holds none is out of the theme path's reach: no choice among the
// themes Nave's and the vectors give would answer it.
type ThemeReach struct {
	Chosen, Best bool
}

// reachOf measures th against the expected verses, reading the first
// n verses of each theme's teaching (the references an answer cites).
func reachOf(th themeResult, expect []corpus.VerseID, n int) ThemeReach {
	holds := func(teaching []Routed) bool {
		for _, r := range teaching[:min(n, len(teaching))] {
			if slices.Contains(expect, r.Verse) {
				return true
			}
		}
		return false
	}
	var out ThemeReach
	for i, p := range th.pool {
		if holds(p) {
			out.Best = true
			out.Chosen = out.Chosen || i == th.chosen
		}
	}
	return out
}
