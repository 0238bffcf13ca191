package deploy_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction: continuation lines joined, a
// heredoc's body appended after a newline.
type instruction struct {
	cmd  string // upper case: FROM, RUN, ...
	args string
	line int
}

// dockerfile is a parsed Dockerfile: its build stages, in order, with the
// global ARG defaults substituted.
type dockerfile struct {
	stages [][]instruction
}

var heredocStart = regexp.MustCompile(`<<-?["']?([A-Za-z_][A-Za-z0-9_]*)["']?`)

func parseDockerfile(t *testing.T, path string) dockerfile {
	t.Helper()
	lines := strings.Split(readFile(t, path), "\n")
	var ins []instruction
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		start := i + 1
		var b strings.Builder
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
			b.WriteString(strings.TrimSuffix(line, `\`))
			i++
			line = strings.TrimSpace(lines[i])
			for (line == "" || strings.HasPrefix(line, "#")) && i+1 < len(lines) {
				i++
				line = strings.TrimSpace(lines[i])
			}
		}
		b.WriteString(line)
		if m := heredocStart.FindStringSubmatch(line); m != nil {
			for i+1 < len(lines) {
				i++
				if strings.TrimSpace(lines[i]) == m[1] {
					break
				}
				b.WriteString("\n" + lines[i])
			}
		}
		cmd, args, _ := strings.Cut(b.String(), " ")
		ins = append(ins, instruction{strings.ToUpper(cmd), strings.TrimSpace(args), start})
	}

	// Global ARGs (before the first FROM) with their defaults.
	args := map[string]string{}
	var d dockerfile
	for _, in := range ins {
		if in.cmd == "FROM" {
			for name, val := range args {
				in.args = strings.ReplaceAll(in.args, "${"+name+"}", val)
			}
			d.stages = append(d.stages, nil)
		}
		if len(d.stages) == 0 {
			if in.cmd == "ARG" {
				if name, val, ok := strings.Cut(in.args, "="); ok {
					args[name] = val
				}
			}
			continue
		}
		d.stages[len(d.stages)-1] = append(d.stages[len(d.stages)-1], in)
	}
	if len(d.stages) == 0 {
		t.Fatalf("%s: no FROM", path)
	}
	return d
}

// matching returns the stage's instructions of kind cmd whose arguments
// match re.
func matching(stage []instruction, cmd string, re *regexp.Regexp) []instruction {
	var out []instruction
	for _, in := range stage {
		if in.cmd == cmd && re.MatchString(in.args) {
			out = append(out, in)
		}
	}
	return out
}

// imageUID is the numeric user the selah image runs as.
func imageUID(t *testing.T) int {
	t.Helper()
	d := parseDockerfile(t, "Dockerfile")
	users := matching(d.stages[len(d.stages)-1], "USER", regexp.MustCompile(`.`))
	if len(users) == 0 {
		t.Fatal("Dockerfile: the runtime stage has no USER")
	}
	name, _, _ := strings.Cut(users[len(users)-1].args, ":")
	uid, err := strconv.Atoi(name)
	if err != nil {
		t.Fatalf("Dockerfile: USER %q: want a numeric uid, so Kubernetes can check runAsNonRoot", users[len(users)-1].args)
	}
	return uid
}

func TestDockerfile(t *testing.T) {
	d := parseDockerfile(t, "Dockerfile")
	if len(d.stages) != 2 {
		t.Fatalf("%d stages, want build and runtime", len(d.stages))
	}
	build, runtime := d.stages[0], d.stages[1]
	goVersion := strings.Split(goModLine(t, "go")[1], ".")
	goMinor := strings.Join(goVersion[:2], ".")

	tests := []struct {
		name  string
		stage []instruction
		cmd   string
		re    string
	}{
		{"build on golang matching go.mod", build, "FROM", `^golang:` + regexp.QuoteMeta(goMinor) + `-bookworm (?i:as) build$`},
		{"static binary", build, "RUN", `CGO_ENABLED=0 go build -trimpath -ldflags "-s -w[^"]*" -o /selah \./cmd/selah`},
		{"runtime on debian slim", runtime, "FROM", `^debian:bookworm-slim$`},
		{"binary on PATH", runtime, "COPY", `^--from=build /selah /usr/local/bin/selah$`},
		{"apt without recommends", runtime, "RUN", `apt-get install -y --no-install-recommends`},
		{"apt lists cleaned", runtime, "RUN", `apt-get install[\s\S]*rm -rf /var/lib/apt/lists/\*`},
		{"CA certificates", runtime, "RUN", `apt-get install[^;]*\bca-certificates\b`},
		{"non-root numeric user", runtime, "USER", `^[1-9][0-9]*(:[0-9]+)?$`},
		{"listens on all interfaces", runtime, "ENV", `(^|\s)ADDR=0\.0\.0\.0:8080(\s|$)`},
		{"worker metrics on all interfaces", runtime, "ENV", `(^|\s)METRICS_ADDR=0\.0\.0\.0:9090(\s|$)`},
		{"JSON logs", runtime, "ENV", `(^|\s)LOG_FORMAT=json(\s|$)`},
		{"ports", runtime, "EXPOSE", `^8080 9090$`},
		{"entrypoint", runtime, "ENTRYPOINT", `^\["selah"\]$`},
		{"default command", runtime, "CMD", `^\["web"\]$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(matching(tt.stage, tt.cmd, regexp.MustCompile(tt.re))) == 0 {
				t.Errorf("no %s matching %s", tt.cmd, tt.re)
			}
		})
	}

	t.Run("corpus packages as setup.sh", func(t *testing.T) {
		installs := matching(runtime, "RUN", regexp.MustCompile(`apt-get install`))
		if len(installs) != 1 {
			t.Fatalf("%d apt-get install steps, want 1", len(installs))
		}
		installed := map[string]bool{}
		for _, f := range strings.Fields(installs[0].args) {
			installed[strings.TrimSuffix(f, ";")] = true
		}
		corpus := corpusPackages(t)
		for _, want := range []string{"sword-text-kjv", "sword-text-web", "sword-dict-naves"} {
			if !strings.Contains(strings.Join(corpus, " "), want) {
				t.Errorf("setup.sh no longer installs %s; update this test and the image together", want)
			}
		}
		for _, p := range corpus {
			if !installed[p] {
				t.Errorf("the image does not install %s, which setup.sh does", p)
			}
		}
		for p := range setupTestOnlyPackages {
			if installed[p] {
				t.Errorf("the image installs %s, which only the tests need", p)
			}
		}
	})
}

// TestPostgresDockerfile checks that the compose database builds pgvector
// with deploy/setup.sh's recipe: every step must appear in both.
func TestPostgresDockerfile(t *testing.T) {
	d := parseDockerfile(t, "postgres.Dockerfile")
	if len(d.stages) != 2 {
		t.Fatalf("%d stages, want a pgvector build stage and the runtime", len(d.stages))
	}
	pg := setupPGVersion(t)
	for i, stage := range d.stages {
		from := regexp.MustCompile(`^postgres:` + pg + `-bookworm( |$)`)
		if len(matching(stage, "FROM", from)) == 0 {
			t.Errorf("stage %d is not FROM postgres:%s-bookworm (setup.sh's PGVER)", i, pg)
		}
	}
	if len(matching(d.stages[1], "COPY", regexp.MustCompile(`^--from=pgvector /out/ /$`))) == 0 {
		t.Error("the runtime stage does not copy the built pgvector from the build stage")
	}

	// The version variable is $PGVER in setup.sh and $PG_MAJOR here.
	norm := strings.NewReplacer("$PG_MAJOR", "$PG", "$PGVER", "$PG")
	var recipe strings.Builder
	for _, in := range matching(d.stages[0], "RUN", regexp.MustCompile(`.`)) {
		recipe.WriteString(in.args + "\n")
	}
	sources := map[string]string{
		"setup.sh":            norm.Replace(readFile(t, "setup.sh")),
		"postgres.Dockerfile": norm.Replace(recipe.String()),
	}
	steps := []struct {
		name string
		re   string
	}{
		{"build tools", `build-essential dpkg-dev`},
		{"server headers", `postgresql-server-dev-\$PG\b`},
		{"trixie deb-src list", `deb-src \[signed-by=/usr/share/keyrings/debian-archive-keyring\.gpg\] \S+ trixie main`},
		{"private source list", `-o "Dir::Etc::SourceList=\$work/trixie-src\.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=\$work/lists"`},
		{"private lists dir", `mkdir -p "\$work/lists/partial"`},
		{"update from trixie", `apt-get "\$\{aptopts\[@\]\}" update`},
		{"download source only", `apt-get "\$\{aptopts\[@\]\}" source --download-only pgvector`},
		{"unpack", `dpkg-source -x --no-check pgvector_\*\.dsc src`},
		{"build and install", `make\b.*PG_CONFIG="/usr/lib/postgresql/\$PG/bin/pg_config".*\binstall\b`},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			re := regexp.MustCompile(st.re)
			for name, src := range sources {
				if !re.MatchString(src) {
					t.Errorf("%s lacks %s", name, st.re)
				}
			}
		})
	}
}
