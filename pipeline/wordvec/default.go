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
const DefaultSHA256 = "f8a4069ffbd282d0b42e9c64b0f3d7ec3bc4ab742077ea7eba7f9b7927dcf754"

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
