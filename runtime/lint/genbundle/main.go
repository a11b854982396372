// Command genbundle rebuilds eslint.js.gz, the ESLint that package lint
// runs: it installs eslint-linter-browserify (ESLint's Linter for
// browsers) with npm into a temporary folder, lowers it to ES2017 with
// esbuild (goja does not parse for-await), and gzips it. Run it from
// runtime/lint with go generate after changing Version.
//
// It is run by go generate only and imports no convfiles package.
package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"
)

// Version is the eslint-linter-browserify release bundled; its version
// is ESLint's.
const Version = "10.11.0"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "genbundle:", err)
		os.Exit(1)
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "convfiles-eslint-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	npm := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", tmp, "eslint-linter-browserify@"+Version)
	npm.Stdout, npm.Stderr = os.Stderr, os.Stderr
	if err := npm.Run(); err != nil {
		return fmt.Errorf("npm install: %w", err)
	}
	pkg := filepath.Join(tmp, "node_modules", "eslint-linter-browserify")
	src, err := os.ReadFile(filepath.Join(pkg, "linter.js"))
	if err != nil {
		return err
	}
	res := api.Transform(string(src), api.TransformOptions{
		Target: api.ES2017, Format: api.FormatIIFE, GlobalName: "eslint",
		MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true,
		LegalComments: api.LegalCommentsInline,
	})
	if len(res.Errors) > 0 {
		return fmt.Errorf("esbuild: %s", res.Errors[0].Text)
	}
	out, err := os.Create("eslint.js.gz")
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	if _, err := zw.Write(res.Code); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	license, err := os.ReadFile(filepath.Join(pkg, "LICENSE"))
	if err != nil {
		return err
	}
	if err := os.WriteFile("LICENSE.eslint-linter-browserify", license, 0o644); err != nil {
		return err
	}
	return out.Close()
}
