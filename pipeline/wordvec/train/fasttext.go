package train

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/selahdev/selah/pipeline/wordvec"
)

// Params are fastText's training parameters: skipgram, as the prototype
// measured (issue 12), with DefaultParams' settings and fastText's
// defaults otherwise.
type Params struct {
	Dims     int // -dim
	Epochs   int // -epoch
	MinCount int // -minCount: rarer words get no vector
	Window   int // -ws
	MinN     int // -minn, character n-grams
	MaxN     int // -maxn
	// Threads is -thread. fastText's threads update the model without
	// locks (Hogwild), so only one thread gives the same vectors from the
	// same corpus and seed; more threads train faster but differ in the
	// last digits from run to run.
	Threads int
	Seed    int // -seed
}

// DefaultParams reproduce the committed vectors file. Against the
// prototype's fastText defaults it trains without character n-grams
// (MaxN 0): they multiply the work about fourfold, which on the shared
// 2-core machine made one reproducible (single-thread) run take well over
// an hour, and they only smooth rare words, while the file holds the
// corpus's own vocabulary (MinCount) whose vectors the contexts train.
// 200 dimensions and 15 epochs (not the prototype's 100 and 5): on the
// tuning sets the word vectors alone found more paraphrases and
// held-out-style queries with each (10 epochs, 25 epochs, 200 dimensions
// measured; a window of 10 found fewer paraphrases), DEVELOPERS.md,
// "Thirteenth round".
var DefaultParams = Params{Dims: 200, Epochs: 15, MinCount: 5, Window: 5, MinN: 0, MaxN: 0, Threads: 1, Seed: 1}

func (p Params) args(input, output string) []string {
	return []string{"skipgram", "-input", input, "-output", output,
		"-dim", strconv.Itoa(p.Dims), "-epoch", strconv.Itoa(p.Epochs), "-minCount", strconv.Itoa(p.MinCount),
		"-ws", strconv.Itoa(p.Window), "-minn", strconv.Itoa(p.MinN), "-maxn", strconv.Itoa(p.MaxN),
		"-thread", strconv.Itoa(p.Threads), "-seed", strconv.Itoa(p.Seed), "-verbose", "2", "-bucket", strconv.Itoa(p.buckets())}
}

// buckets is fastText's -bucket: the character n-gram hash table, none
// without n-grams (fastText would otherwise allocate its default 2M rows).
func (p Params) buckets() int {
	if p.MaxN == 0 {
		return 0
	}
	return 2_000_000
}

// Report says what Train did.
type Report struct {
	Corpus   CorpusReport
	Params   Params
	Words    int
	Bytes    int
	SHA256   string
	Assemble time.Duration
	Fit      time.Duration
}

// Train assembles the corpus into workDir, runs `fasttext skipgram` on it
// (fastText's progress goes to progress, if set) and writes the vectors
// file to out. workDir keeps corpus.txt and fastText's model files for
// inspection; the caller removes it.
func Train(ctx context.Context, src Sources, p Params, workDir string, out io.Writer, progress io.Writer) (Report, error) {
	rep := Report{Params: p}
	bin, err := exec.LookPath("fasttext")
	if err != nil {
		return rep, fmt.Errorf("train: the fasttext command is not installed (Debian package fasttext; run deploy/setup.sh): %w", err)
	}
	t0 := time.Now()
	corpusPath := filepath.Join(workDir, "corpus.txt")
	f, err := os.Create(corpusPath)
	if err != nil {
		return rep, fmt.Errorf("train: %w", err)
	}
	rep.Corpus, err = Assemble(ctx, src, f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("train: %w", cerr)
	}
	if err != nil {
		return rep, err
	}
	rep.Assemble = time.Since(t0)

	t0 = time.Now()
	model := filepath.Join(workDir, "model")
	cmd := exec.CommandContext(ctx, bin, p.args(corpusPath, model)...)
	var stderr bytes.Buffer
	cmd.Stdout = progress
	cmd.Stderr = &stderr
	if progress != nil {
		cmd.Stderr = io.MultiWriter(&stderr, progress)
	}
	if err := cmd.Run(); err != nil {
		msg := stderr.String()
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return rep, fmt.Errorf("train: fasttext: %w: %s", err, msg)
	}
	rep.Fit = time.Since(t0)
	return rep, encodeVec(&rep, model+".vec", out)
}

// FromVec writes the vectors file from a .vec file fastText already wrote
// for the corpus Assemble gives (a run by hand, or one interrupted after
// training): it assembles the corpus again for the word counts, without
// training.
func FromVec(ctx context.Context, src Sources, p Params, vecPath string, out io.Writer) (Report, error) {
	rep := Report{Params: p}
	t0 := time.Now()
	var err error
	if rep.Corpus, err = Assemble(ctx, src, io.Discard); err != nil {
		return rep, err
	}
	rep.Assemble = time.Since(t0)
	return rep, encodeVec(&rep, vecPath, out)
}

// encodeVec reads fastText's .vec file, quantizes it and writes the
// vectors file to out.
func encodeVec(rep *Report, vecPath string, out io.Writer) error {
	p := rep.Params
	vec, err := os.Open(vecPath)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	defer vec.Close()
	entries, err := ReadVec(vec, p.Dims, rep.Corpus.Counts)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	sum, err := wordvec.Encode(&buf, p.Dims, rep.Corpus.Tokens, entries)
	if err != nil {
		return err
	}
	if _, err := out.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("train: write vectors: %w", err)
	}
	rep.Words, rep.Bytes, rep.SHA256 = len(entries), buf.Len(), sum
	return nil
}

// ReadVec reads fastText's text vectors (a "count dims" header line, then
// "word x1 ... xdims" per line), giving each word its corpus count. The
// end-of-line token fastText adds ("</s>") is not a word.
func ReadVec(r io.Reader, dims int, counts map[string]uint32) ([]wordvec.Entry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	if !sc.Scan() {
		return nil, fmt.Errorf("train: empty .vec file: %w", sc.Err())
	}
	head := strings.Fields(sc.Text())
	if len(head) != 2 || head[1] != strconv.Itoa(dims) {
		return nil, fmt.Errorf("train: .vec header %q, want %d dims", sc.Text(), dims)
	}
	var out []wordvec.Entry
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != dims+1 {
			return nil, fmt.Errorf("train: .vec line for %q has %d fields, want %d", f[0], len(f), dims+1)
		}
		if f[0] == "</s>" {
			continue
		}
		e := wordvec.Entry{Word: f[0], Count: counts[f[0]], Vec: make([]float32, dims)}
		for i, s := range f[1:] {
			x, err := strconv.ParseFloat(s, 32)
			if err != nil {
				return nil, fmt.Errorf("train: .vec %q component %d: %w", f[0], i, err)
			}
			e.Vec[i] = float32(x)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("train: read .vec: %w", err)
	}
	return out, nil
}
