package pipeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/selahdev/selah/corpus"
)

// Generator writes a draft answer to a question from the retrieved verses.
// Whatever it returns is checked by the Answerer (see ground.go) before
// anyone sees it, so a generator may be wrong but can never put a verse or
// a wording in front of a user that the database does not hold.
type Generator interface {
	// Name identifies the generator in logs and in Answer.Generator.
	Name() string
	Generate(ctx context.Context, q Question) (Draft, error)
}

// Question is what a generator answers from: the user's question and the
// retrieved verses, numbered from 1, best first.
type Question struct {
	// Text is the question as retrieval read it: without its frame when
	// it asks whether the Bible speaks of a thing (exists.go), with its
	// conversation's subject when it follows up.
	Text string
	// Asked, when set, is the question whole, as the reader asked it:
	// a model answers it ("does the bible mention unicorns" asks yes or
	// no), while Text is the thing it asks about.
	Asked      string
	Candidates []Candidate
	// MaxRefs is how many references the answer may cite (1-8); adjacent
	// verses merge into one reference.
	MaxRefs int
	// Facts are the Nave's Topical Bible entries the question reaches
	// through the topic router, best first; their verses that are
	// candidates are the ones a fact may cite.
	Facts []Fact
	// ThemeFacts are the entries of a theme topic the question names
	// ("JUDGING", "TRANSFIGURATION"): their verses are not added to the
	// candidates, but a candidate they list may be said to be about them.
	ThemeFacts []Fact
	// Listings are the Nave's topics that file a candidate under a title
	// holding a word of the question ("Why did God send the flood?":
	// Genesis 6:17 under FLOOD), one Fact per topic with its candidate
	// verses, the title matching most of the question first.
	Listings []Fact
	// Hubs are the curated topic hubs matching the question, best first.
	Hubs []HubFact
	// Passages are the passages the question names ("What does John 3:16
	// mean?"), in order: the answer cites and quotes them first, and their
	// verses are its candidates.
	Passages []Passage
	// Named, when set, is the name the question asks about ("the Great
	// Commission") and Passages the passages cited for it (nickname.go):
	// the question names the thing, not the passages.
	Named string
	// Words are the Strong's dictionary entries a word-meaning question
	// asks about ("What does agape mean?", lexicon.go): the answer says
	// what each is and means, and its candidates are verses translating
	// them.
	Words []WordFact
	// Writer is set when the question asks who wrote a book or a psalm
	// (writer.go): the verse naming the writer is its one candidate.
	Writer *WriterFact
	// Quote is set when the question asks who said some words or where
	// the Bible says them (quote.go): the verses holding them are its
	// candidates.
	Quote *QuoteFact
	// Reason is set when the question asks why (why.go): the verse giving
	// the reason is its first candidate.
	Reason *ReasonFact
	// When is set when the question asks when (when.go): the verse
	// stating the time is its first candidate.
	When *WhenFact
	// Kin is set when the question asks how people are related
	// (kin.go): the relations Nave's states, each with the verses stating
	// it, are its first candidates.
	Kin *KinFact
	// Fate is set when the question asks how a person died or what
	// became of them (fate.go): the entries telling it, each with the
	// verses saying it, are its first candidates.
	Fate *FateFact
	// Summary is set when the question asks what a book is about
	// (summary.go): the book's most-cited passages are its candidates.
	Summary *SummaryFact
	// JesusWords is set when the question asks what Jesus said or taught:
	// his words (Verse.WordsOfChrist) answer it first.
	JesusWords bool
	// Particular is set when the question is about particular people or
	// events: the router reached a topic, it follows up on an earlier
	// question's subject, or it asks who or what happened (asksParticular). Verses are then ranked by evidence, and a verse
	// naming people is not set back (see rankCandidates).
	Particular bool
}

// Fact is one Nave's sub-entry the question reaches: a topic, the phrase
// Nave's lists verses under ("King of Salem"; empty for verses under the
// topic itself) and those verses, in Nave's order.
type Fact struct {
	Topic  string
	Entry  string
	Verses []corpus.VerseID
	// Score is the router's best score for the entry, in (0, 1].
	Score float64
}

// HubFact is a curated topic hub matching the question: its title, its
// summary (written for selah) and its passages' verses, strongest first.
type HubFact struct {
	Title   string
	Summary string
	Verses  []corpus.VerseID
	// Nave names the Nave's topics the hub's verses were drawn from.
	Nave []string
}

// Candidate is one retrieved verse offered to a generator.
type Candidate struct {
	// N is the number the generator cites the verse by (1-based).
	N     int
	Verse corpus.Verse
	// Evidence is the share of the question's terms the verse's KJV text
	// speaks to, idf-weighted, in [0, 1] (see relevance.go). The extractive
	// generator ranks by it; a model does not need it.
	Evidence float64
	// Context is set for a verse offered only because it finishes the
	// sentence of a retrieved one (see Answerer.withNeighbours): cite it
	// with its neighbour, not for its own sake.
	Context bool
	// Answered is set for a verse that asks a question the verse after it
	// replies to ("Master, which is the great commandment in the law?",
	// Matthew 22:36; "Jesus said unto him, Thou shalt love …"): a passage
	// ending on it runs on into the reply, as one ending mid-sentence does
	// (Answerer.withNeighbours).
	Answered bool
	// Key is set for a passage a teacher cites first on the theme the
	// question names (corpus/topics keys, reached through the Nave's
	// router): relevant whatever words of the question it holds.
	Key bool
	// Particular is set for a verse tied to people, places or events
	// rather than teaching (particular): the offline generators move it
	// down.
	Particular bool
}

// Reference is the candidate's canonical reference ("John 3:16").
func (c Candidate) Reference() string { return c.Verse.ID.String() }

// Draft is a generator's proposal. Citations point into the question's
// candidates, by number or by reference string; models sometimes write the
// reference instead of the number, and either is only a pointer: the text
// of a cited verse always comes from the database.
type Draft struct {
	Answer     string
	Summary    string
	Citations  []int    // candidate numbers
	References []string // reference strings ("John 3:16", "Matthew 5:3-5")
	// CitedSentences promises that every sentence of Answer names a
	// reference it rests on and that Summary is one sentence; grounding
	// then holds the draft to it (rule 5, ground.go).
	CitedSentences bool
}

// Generator kinds, and the name of the answer that no generator wrote.
const (
	GeneratorExtractive = "extractive" // the offline composer: deterministic; the default
	GeneratorOpenAI     = "openai"     // an OpenAI-compatible chat completions API
	GeneratorNone       = "none"       // no relevant passage: nothing was generated
)

// ChatConfig chooses and configures the answer generator. The zero value is
// the extractive generator. Environment variables, read by
// ChatConfigFromEnv:
//
//	SELAH_GENERATOR      extractive (default) or openai
//	OPENAI_BASE_URL      API base URL (default https://api.openai.com/v1);
//	                     point it at Ollama or vLLM for a local server
//	OPENAI_API_KEY       API key
//	OPENAI_CHAT_MODEL    model (default gpt-4o-mini)
//	OPENAI_CHAT_TIMEOUT  per-attempt timeout, a Go duration (default 20s)
//	OPENAI_CHAT_RETRIES  retries after a failed attempt (default 1)
type ChatConfig struct {
	Kind string // GeneratorExtractive ("" too) or GeneratorOpenAI

	// The rest configure the openai kind only.
	BaseURL string
	APIKey  string
	Model   string
	// Timeout bounds each request attempt (0: DefaultChatTimeout).
	Timeout time.Duration
	// MaxRetries is how often a failed attempt is retried (0:
	// DefaultChatRetries; negative: never).
	MaxRetries int
	// MaxTokens caps the completion (0: DefaultChatMaxTokens).
	MaxTokens int
}

// Defaults of ChatConfig. A chat completion takes seconds where an
// embedding takes milliseconds, hence a longer timeout and fewer retries
// than the embedder's. A hung server costs one timeout before the
// extractive answer; failing ones at most two attempts and a backoff.
const (
	DefaultChatModel     = "gpt-4o-mini"
	DefaultChatTimeout   = 20 * time.Second
	DefaultChatRetries   = 1
	DefaultChatMaxTokens = 700
)

// ChatConfigFromEnv reads the configuration from the environment variables
// listed at ChatConfig; getenv is os.Getenv in production.
func ChatConfigFromEnv(getenv func(string) string) (ChatConfig, error) {
	c := ChatConfig{
		Kind:    strings.ToLower(strings.TrimSpace(getenv("SELAH_GENERATOR"))),
		BaseURL: getenv("OPENAI_BASE_URL"),
		APIKey:  getenv("OPENAI_API_KEY"),
		Model:   getenv("OPENAI_CHAT_MODEL"),
	}
	var err error
	if v := getenv("OPENAI_CHAT_TIMEOUT"); v != "" {
		if c.Timeout, err = time.ParseDuration(v); err != nil || c.Timeout < 0 {
			return c, fmt.Errorf("pipeline: OPENAI_CHAT_TIMEOUT=%q is not a duration", v)
		}
	}
	if v := getenv("OPENAI_CHAT_RETRIES"); v != "" {
		if c.MaxRetries, err = strconv.Atoi(v); err != nil {
			return c, fmt.Errorf("pipeline: OPENAI_CHAT_RETRIES=%q is not a number", v)
		}
	}
	return c, c.Validate()
}

// Validate reports a configuration that cannot work.
func (c ChatConfig) Validate() error {
	switch c.Kind {
	case "", GeneratorExtractive, GeneratorOpenAI:
	default:
		return fmt.Errorf("pipeline: unknown generator kind %q (want extractive or openai)", c.Kind)
	}
	if c.Timeout < 0 || c.MaxTokens < 0 {
		return fmt.Errorf("pipeline: generator: negative timeout or token limit")
	}
	return nil
}

// NewGenerator returns the configured generator.
func NewGenerator(cfg ChatConfig) (Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Kind == GeneratorOpenAI {
		return NewChat(cfg)
	}
	return Composer{}, nil
}
