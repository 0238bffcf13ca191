package wordvec

import (
	_ "embed"
	"sync"
)

// vectorsFile is the committed vectors file `selah train` wrote.
//
//go:embed vectors.bin
var vectorsFile []byte

// DefaultSHA256 is the SHA-256 of the committed vectors file. Load checks
// it, so vectors cannot change without this line changing with them.
const DefaultSHA256 = "6ea3587c91ea0627008480432e8c5b28884fb73f20d812ee68e0a39706d2950f"

var (
	defaultOnce sync.Once
	defaultVecs *Vectors
	defaultErr  error
)

// Default returns the committed vectors, parsed once (a few tens of
// milliseconds) and shared.
func Default() (*Vectors, error) {
	defaultOnce.Do(func() { defaultVecs, defaultErr = Load(vectorsFile, DefaultSHA256) })
	return defaultVecs, defaultErr
}
