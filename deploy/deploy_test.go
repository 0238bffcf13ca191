package deploy_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// subcommands are the selah subcommands a deployment may run. This is the
// binary's contract as the deploy files rely on it, kept here rather than
// read from `selah --help` so these tests never build cmd/selah. Renaming a
// subcommand means changing this list and the manifests together.
var subcommands = map[string]bool{
	"web":     true,
	"worker":  true,
	"serve":   true,
	"migrate": true,
	"ingest":  true,
}

// migrateScript is the one shell command line a deployment may run: the
// schema, then the corpus.
const migrateScript = "selah migrate && selah ingest"

// queues are the Asynq queues selah's workers serve.
var queues = []string{"search", "ask"}

// pendingKey is the Redis list where Asynq keeps a queue's waiting tasks
// (asynq's internal/base.PendingKey).
func pendingKey(queue string) string { return "asynq:{" + queue + "}:pending" }

// checkArgv reports why argv, a container's full command line, does not run
// selah with a known subcommand: either `selah <sub> [flags]` or
// `sh -c "selah <sub> && selah <sub> ..."`.
func checkArgv(argv []string) error {
	if len(argv) == 0 {
		return errors.New("empty command")
	}
	switch filepath.Base(argv[0]) {
	case "selah":
		if len(argv) < 2 {
			return errors.New("selah without a subcommand")
		}
		if !subcommands[argv[1]] {
			return fmt.Errorf("unknown selah subcommand %q", argv[1])
		}
		return nil
	case "sh", "bash":
		if len(argv) != 3 || argv[1] != "-c" {
			return fmt.Errorf("shell must be run as sh -c SCRIPT, got %q", argv)
		}
		for _, step := range strings.Split(argv[2], "&&") {
			if err := checkArgv(strings.Fields(step)); err != nil {
				return fmt.Errorf("script %q: %w", argv[2], err)
			}
		}
		return nil
	}
	return fmt.Errorf("%q is not selah", argv[0])
}

func TestCheckArgv(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		ok   bool
	}{
		{"web", []string{"selah", "web"}, true},
		{"worker by path", []string{"/usr/local/bin/selah", "worker"}, true},
		{"ingest with flag", []string{"selah", "ingest", "--force"}, true},
		{"migrate script", []string{"/bin/sh", "-c", migrateScript}, true},
		{"empty", nil, false},
		{"no subcommand", []string{"selah"}, false},
		{"flag instead of subcommand", []string{"selah", "--help"}, false},
		{"unknown subcommand", []string{"selah", "server"}, false},
		{"other binary", []string{"curl", "localhost"}, false},
		{"script with unknown step", []string{"sh", "-c", "selah migrate && selah seed"}, false},
		{"script with other tool", []string{"sh", "-c", "selah migrate && rm -rf /"}, false},
		{"shell without -c", []string{"sh", "script.sh"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkArgv(tt.argv)
			if tt.ok && err != nil {
				t.Errorf("checkArgv(%q) = %v, want nil", tt.argv, err)
			}
			if !tt.ok && err == nil {
				t.Errorf("checkArgv(%q) = nil, want an error", tt.argv)
			}
		})
	}
}

// TestYAMLParses decodes every YAML document deploy/ ships.
func TestYAMLParses(t *testing.T) {
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"compose.yaml"}, files...)
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			docs := decodeAll[map[string]any](t, file)
			if len(docs) == 0 {
				t.Fatal("no YAML documents")
			}
			for i, doc := range docs {
				if len(doc) == 0 {
					t.Errorf("document %d is empty", i)
				}
			}
		})
	}
}

// decodeAll decodes every document in the YAML file at path into a T.
func decodeAll[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var docs []T
	for {
		var doc T
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: document %d: %v", path, len(docs), err)
		}
		docs = append(docs, doc)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setupPackages returns the Debian packages deploy/setup.sh installs, from
// its PACKAGES=(...) line.
func setupPackages(t *testing.T) []string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^PACKAGES=\(([^)]*)\)`).FindStringSubmatch(readFile(t, "setup.sh"))
	if m == nil {
		t.Fatal("setup.sh: no PACKAGES=(...) line")
	}
	return strings.Fields(m[1])
}

// setupTestOnlyPackages are the packages setup.sh installs for the tests
// and for developers alone (fasttext: `selah train`, whose vectors file is
// committed); the runtime image must not carry them.
var setupTestOnlyPackages = map[string]bool{"diatheke": true, "chromium": true, "fasttext": true}

// corpusPackages are setup.sh's packages minus the test-only ones.
func corpusPackages(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range setupPackages(t) {
		if !setupTestOnlyPackages[p] {
			out = append(out, p)
		}
	}
	return out
}

// setupPGVersion returns the PostgreSQL major version setup.sh installs by
// default.
func setupPGVersion(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^PGVER=\$\{PGVER:-(\d+)\}`).FindStringSubmatch(readFile(t, "setup.sh"))
	if m == nil {
		t.Fatal("setup.sh: no PGVER=${PGVER:-N} line")
	}
	return m[1]
}

// goModLine returns the fields of the first go.mod line whose first field
// is name (after an optional "require"): e.g. "go 1.26.8".
func goModLine(t *testing.T, name string) []string {
	t.Helper()
	for _, line := range strings.Split(readFile(t, "../go.mod"), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "require" {
			f = f[1:]
		}
		if len(f) >= 2 && f[0] == name {
			return f
		}
	}
	t.Fatalf("go.mod: no %s line", name)
	return nil
}
