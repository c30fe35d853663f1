package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set at link time by the Makefile:
//
//	go build -ldflags "-X main.version=v1.2.0 -X main.commit=abc123 -X main.buildDate=2026-01-31T12:00:00Z"
//
// These are facts about the binary, not settings: when they are empty, the
// Go toolchain's own build record (module version, VCS revision and time)
// stands in.
var (
	version   string
	commit    string
	buildDate string
)

// buildInfo identifies a binary.
type buildInfo struct {
	Version, Commit, Date, Go string
	Modified                  bool
}

// buildVersion is this binary's buildInfo.
func buildVersion() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, commit, buildDate, bi)
}

// versionOf prefers the values linked in with -ldflags, then the build
// record, then "unknown".
func versionOf(v, c, d string, bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: v, Commit: c, Date: d, Go: runtime.Version()}
	if bi != nil {
		if b.Version == "" && bi.Main.Version != "" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true" && c == ""
			}
		}
	}
	for _, f := range []*string{&b.Version, &b.Commit, &b.Date} {
		if *f == "" {
			*f = "unknown"
		}
	}
	return b
}

func (b buildInfo) String() string {
	dirty := ""
	if b.Modified {
		dirty = ", with uncommitted changes"
	}
	return fmt.Sprintf("passbook %s (commit %s%s, built %s, %s)", b.Version, b.Commit, dirty, b.Date, b.Go)
}

func cmdVersion(e env) error {
	if len(e.args) > 0 && e.args[0] != "--help" && e.args[0] != "-h" {
		return fmt.Errorf("version takes no arguments")
	}
	if len(e.args) > 0 {
		fmt.Fprintln(e.stdout, "usage: passbook version (or passbook --version)\n\nPrints the version, the commit and the build date of this binary.")
		return nil
	}
	fmt.Fprintln(e.stdout, buildVersion())
	return nil
}
