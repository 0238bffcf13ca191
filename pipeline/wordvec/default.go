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
const DefaultSHA256 = "a4541f38a228d49b922c4543c71b551596fe8cb216563d398c5cd71b91853bc0"

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
