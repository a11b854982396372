//go:build !race

package sandbox

// raceDetector is set in binaries built with -race (see race_on.go).
const raceDetector = false
