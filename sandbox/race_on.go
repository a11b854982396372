//go:build race

package sandbox

// raceDetector is set in binaries built with -race: the detector maps
// terabytes of shadow memory, which address-space and data limits forbid.
const raceDetector = true
