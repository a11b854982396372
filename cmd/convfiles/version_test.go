package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionSaysWhatWasBuilt: a tag is the version; a build from source
// names its commit and the commit's time, never a bare "dev"; a build
// that recorded no commit says why.
func TestVersionSaysWhatWasBuilt(t *testing.T) {
	vcs := func(mod string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "convfiles", Version: mod}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{vcs("v1.4.0"), "v1.4.0"},
		{vcs("v0.0.0-20261126192615-daf57a5d780e", "vcs.revision", "daf57a5d780e3789da1f738de216a0ceaf922a41", "vcs.time", "2026-11-26T19:26:15Z", "vcs.modified", "false"),
			"devel daf57a5d780e 2026-11-26T19:26:15Z"},
		{vcs("v0.0.0-20261126192615-daf57a5d780e+dirty", "vcs.revision", "daf57a5d780e3789da1f738de216a0ceaf922a41", "vcs.time", "2026-11-26T19:26:15Z", "vcs.modified", "true"),
			"devel daf57a5d780e+dirty 2026-11-26T19:26:15Z"},
		{vcs("(devel)"), "devel (this build recorded no commit: go run and -buildvcs=false leave it out; go build in a Git checkout records it)"},
		{nil, "devel (no build information)"},
	} {
		if got := versionOf(c.bi); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
