package main

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// version is set by release builds (release/build.sh: -ldflags
// "-X main.version=…").
var version string

// buildVersion is the version the binary was built from: a release
// build's, else a tagged module version, else the source's VCS revision
// and commit time.
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// pseudoVersion matches the versions Go derives from a commit without a
// tag (v0.0.0-20261126192615-daf57a5d780e): the revision says more.
var pseudoVersion = regexp.MustCompile(`^v\d+\.\d+\.\d+-(\d+\.)?\d{14}-[0-9a-f]{12}`)

// versionOf reads a version from build information: the module's version
// when it is a tag ("v1.2.0"); for a build from a source tree, "devel",
// the commit and its time, and "+dirty" when the tree had changes; for a
// build that recorded no commit (go run, -buildvcs=false, a tree without
// Git), "devel" and why there is no more.
func versionOf(bi *debug.BuildInfo) string {
	if bi == nil {
		return "devel (no build information)"
	}
	main := bi.Main.Version
	if main != "" && main != "(devel)" && !pseudoVersion.MatchString(main) {
		return main
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel (this build recorded no commit: go run and -buildvcs=false leave it out; go build in a Git checkout records it)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return strings.TrimSpace("devel " + rev + dirty + " " + at)
}
