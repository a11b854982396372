// Package tokens counts the tokens of a text as OpenAI's o200k_base
// encoding does, offline: the measure the tests and benchmarks hold the
// prompt, the tool list and bounded answers to. Language models' own
// tokenizers differ by a few percent; none is smaller by much.
package tokens

import (
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

var (
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
)

// Count returns how many tokens s is.
func Count(s string) (int, error) {
	once.Do(func() {
		tiktoken.SetBpeLoader(loader.NewOfflineLoader())
		enc, err = tiktoken.GetEncoding("o200k_base")
	})
	if err != nil {
		return 0, err
	}
	return len(enc.Encode(s, nil, nil)), nil
}
