package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/selahdev/selah/corpus/wordnet"
	"github.com/selahdev/selah/pipeline/wordvec"
	"github.com/selahdev/selah/store"
)

// DefaultWordNetDir is where Debian's wordnet-base installs WordNet 3.0
// (deploy/setup.sh).
const DefaultWordNetDir = "/usr/share/wordnet"

// RetrievalConfig says which sources LoadRetriever assembles.
type RetrievalConfig struct {
	// Embedder picks the dense source: the OpenAI-compatible embeddings in
	// pgvector when its Kind is openai, else the SIF index over the
	// committed word vectors (selah train reproduces them).
	Embedder EmbedderConfig
	// WordNetDir holds WordNet 3.0's dict files, for query expansion.
	WordNetDir string
}

// WithDefaults fills what c leaves empty.
func (c RetrievalConfig) WithDefaults() RetrievalConfig {
	c.WordNetDir = cmp.Or(c.WordNetDir, DefaultWordNetDir)
	return c
}

// RetrievalConfigFromEnv reads SELAH_EMBEDDER and the OPENAI_* embedding
// settings, and SELAH_WORDNET_DIR.
func RetrievalConfigFromEnv(getenv func(string) string) (RetrievalConfig, error) {
	emb, err := EmbedderConfigFromEnv(getenv)
	if err != nil {
		return RetrievalConfig{}, err
	}
	return RetrievalConfig{Embedder: emb, WordNetDir: getenv("SELAH_WORDNET_DIR")}.WithDefaults(), nil
}

// LoadRetriever assembles the production retrieval over the corpus in st:
// the lexical index, the dense source, the Nave's router and the WordNet
// expander. Each is built from the database or from files on its own, so
// they are built at once: a worker's start is the slowest of them, not
// their sum. Every process that retrieves (serve, worker, eval, bench, the
// tests of web) wires it here, so they all search alike.
func LoadRetriever(ctx context.Context, st *store.Store, cfg RetrievalConfig) (*Retriever, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Embedder.Validate(); err != nil {
		return nil, err
	}
	var (
		r         *Retriever
		dense     VerseSource
		denseName string
		router    *NaveRouter
		wn        *wordnet.WordNet
		bridge    *themeBridge
		lexicon   *Lexicon
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		r, err = NewRetriever(gctx, st)
		return err
	})
	g.Go(func() error {
		if cfg.Embedder.Kind == KindOpenAI {
			d, err := LoadDense(gctx, st, cfg.Embedder)
			dense, denseName = d, OpenAIName
			return err
		}
		vecs, err := wordvec.Default()
		if err != nil {
			return fmt.Errorf("pipeline: word vectors: %w", err)
		}
		sif, err := LoadSIFIndex(gctx, st, vecs, SIFOptions{})
		if err != nil {
			return fmt.Errorf("pipeline: SIF index: %w", err)
		}
		dense, denseName, bridge = sif, SIFName, newThemeBridge(vecs)
		// The bridge's titles and their CSLS density (about 2 s of dot
		// products) are built beside the other sources rather than in the
		// first question that needs them.
		g.Go(func() error {
			bridge.once.Do(bridge.build)
			return nil
		})
		return nil
	})
	g.Go(func() (err error) {
		if router, err = LoadNaveRouter(gctx, st); err != nil {
			return fmt.Errorf("pipeline: Nave's router: %w", err)
		}
		return nil
	})
	g.Go(func() (err error) {
		if lexicon, err = LoadLexicon(gctx, st); err != nil {
			return fmt.Errorf("pipeline: Strong's lexicon: %w", err)
		}
		return nil
	})
	g.Go(func() (err error) {
		if wn, err = OpenWordNet(cfg.WordNetDir); err != nil {
			return fmt.Errorf("pipeline: WordNet (deploy/setup.sh installs wordnet-base; SELAH_WORDNET_DIR): %w", err)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	r.Dense, r.DenseName, r.bridge, r.Lexicon = dense, denseName, bridge, lexicon
	r.learnAliasedNames(wn, router.Titles())
	router.Entity = r.namesEntity
	router.Place = func(title string) bool { return namesPlace(wn, title) }
	router.Person = func(title string) bool { return namesPerson(wn, title) }
	router.Base = wn.BaseForms
	router.Noun = func(w string) bool { return wn.Has(w, wordnet.Noun) }
	router.Verb = func(w string) bool { return wn.Has(w, wordnet.Verb) }
	router.SetSpellings(titleSpellings(wn, router.Titles()))
	router.AddNames(titleSynonyms(wn, router.Titles(), func(title string) bool {
		return r.namesEntity(title) || !r.inBible(titleNames(title)[0])
	}))
	places := placeDefinitions(wn)
	router.Defines = func(w string) []string { return places[w] }
	r.Common = func(w string) bool { return r.commonName(wn, w) }
	router.Common = r.Common
	r.Router = router
	r.Titled = router.Titled
	r.speller.learn(router.Titles())
	// The vectors are read when a word first needs them, not at start:
	// the OpenAI-compatible configuration loads them for nothing else.
	r.speller.english = func(w string) int {
		vecs, err := wordvec.Default()
		if err != nil {
			return 0
		}
		if i := vecs.Lookup(w); i >= 0 {
			return int(vecs.Count(i))
		}
		return 0
	}
	r.Expand = NewWordNetExpander(wn)
	router.Expand = r.Expand
	r.Dictionary = func(w string) bool { return len(wn.BaseForms(w)) > 0 }
	r.Lemma = func(w string) bool { return slices.Contains(wn.BaseForms(w), w) }
	r.Speech = func(w string) bool { return communicationVerb(wn, w) }
	r.senses = newSenses(wn, r)
	r.offer = sync.OnceValue(func() *occasionThemes { return newOccasionThemes(wn, r.namesEntity) })
	r.fate = newFateClassifier(wn)
	r.timeNouns = timeNouns(wn, r.verses)
	r.kindOf = func(w, k string) bool { return wn.KindOf(w, k, 3) }
	return r, nil
}
