// Package bytesize formats byte counts for people, in one way everywhere
// convfiles shows a size in a message.
//
// It must never import another convfiles package.
package bytesize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Format renders n bytes as "512 B", "4 KiB", "1.5 MiB".
func Format(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %ciB", int64(v), "KMGTPE"[exp])
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[exp])
}

// units are the suffixes Parse accepts, powers of 1024.
var units = []struct {
	suffix string
	size   int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}, {"", 1}}

// Parse reads a size as people write it: "1048576", "512 KiB", "10MiB",
// "2 GiB", "1TiB" (powers of 1024). It refuses what is not a whole
// non-negative number of bytes, saying what it accepts.
func Parse(s string) (int64, error) {
	for _, u := range units {
		num, ok := strings.CutSuffix(strings.TrimSpace(s), u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if err != nil || n < 0 || n > math.MaxInt64/u.size {
			break
		}
		return n * u.size, nil
	}
	return 0, fmt.Errorf("%q is not a size: write bytes (1048576) or a whole number of KiB, MiB, GiB or TiB (10GiB)", s)
}
