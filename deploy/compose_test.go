package deploy_test

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// composeFile is the part of compose.yaml these tests read. Commands must be
// in list form.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image string `yaml:"image"`
	Build *struct {
		Context    string `yaml:"context"`
		Dockerfile string `yaml:"dockerfile"`
	} `yaml:"build"`
	Entrypoint    []string          `yaml:"entrypoint"`
	Command       []string          `yaml:"command"`
	Environment   map[string]string `yaml:"environment"`
	Ports         []string          `yaml:"ports"`
	Volumes       []string          `yaml:"volumes"`
	ContainerName string            `yaml:"container_name"`
	DependsOn     map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Healthcheck *struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
	Restart         string   `yaml:"restart"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	Profiles        []string `yaml:"profiles"`
}

func loadCompose(t *testing.T) composeFile {
	t.Helper()
	docs := decodeAll[composeFile](t, "compose.yaml")
	if len(docs) != 1 {
		t.Fatalf("compose.yaml: %d documents, want 1", len(docs))
	}
	return docs[0]
}

// dockerfile is the path, relative to deploy/, of the Dockerfile the
// service is built from ("" when it only pulls an image).
func (s composeService) dockerfile() string {
	if s.Build == nil {
		return ""
	}
	df := s.Build.Dockerfile
	if df == "" {
		df = "Dockerfile"
	}
	return filepath.Join(s.Build.Context, df)
}

// isSelah reports whether the service runs the selah image.
func (s composeService) isSelah(t *testing.T) bool {
	if df := s.dockerfile(); df != "" {
		got, err1 := filepath.Abs(df)
		want, err2 := filepath.Abs("Dockerfile")
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		return got == want
	}
	return strings.HasPrefix(s.Image, "selah:")
}

// argv is the full command line: an entrypoint replaces the image's
// ["selah"] (and its default command, ["web"]).
func (s composeService) argv() []string {
	if len(s.Entrypoint) > 0 {
		return append(slices.Clone(s.Entrypoint), s.Command...)
	}
	if len(s.Command) == 0 {
		return []string{"selah", "web"}
	}
	return append([]string{"selah"}, s.Command...)
}

func TestComposeSelahServices(t *testing.T) {
	c := loadCompose(t)
	services := []struct {
		name string
		argv []string
		// healthPort is where the healthcheck GETs /readyz; 0: none.
		healthPort            int
		listenEnv, listenAddr string
		minStopGrace          time.Duration
	}{
		{"migrate", []string{"/bin/sh", "-c", migrateScript}, 0, "", "", 0},
		{"web", []string{"selah", "web"}, 8080, "ADDR", "0.0.0.0:8080", 30 * time.Second},
		{"worker", []string{"selah", "worker"}, 9090, "METRICS_ADDR", "0.0.0.0:9090", 30 * time.Second},
	}
	for _, tt := range services {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := c.Services[tt.name]
			if !ok {
				t.Fatalf("no service %s", tt.name)
			}
			if !s.isSelah(t) {
				t.Fatal("does not run the selah image")
			}
			if got := s.argv(); !slices.Equal(got, tt.argv) {
				t.Errorf("command line %q, want %q", got, tt.argv)
			}
			if tt.listenEnv != "" && s.Environment[tt.listenEnv] != tt.listenAddr {
				t.Errorf("%s = %q, want %q", tt.listenEnv, s.Environment[tt.listenEnv], tt.listenAddr)
			}
			// Web and worker serve /metrics on METRICS_ADDR, reachable on
			// the compose network but never published on the host.
			if tt.listenEnv != "" {
				if v := s.Environment["METRICS_ADDR"]; v != "0.0.0.0:9090" {
					t.Errorf("METRICS_ADDR = %q, want 0.0.0.0:9090", v)
				}
				for _, p := range s.Ports {
					if strings.HasSuffix(p, ":9090") || p == "9090" {
						t.Errorf("port %q publishes the metrics listener on the host", p)
					}
				}
			}
			if tt.healthPort != 0 {
				if s.Healthcheck == nil {
					t.Error("no healthcheck")
				} else if test := strings.Join(s.Healthcheck.Test, " "); !strings.Contains(test, "GET /readyz ") ||
					!strings.Contains(test, "/dev/tcp/127.0.0.1/"+strconv.Itoa(tt.healthPort)+" ") {
					t.Errorf("healthcheck %q does not GET /readyz on port %d", test, tt.healthPort)
				}
			}
			if tt.minStopGrace > 0 {
				d, err := time.ParseDuration(s.StopGracePeriod)
				if err != nil || d < tt.minStopGrace {
					t.Errorf("stop_grace_period %q, want at least %s (Docker's default 10s cuts the drain short)", s.StopGracePeriod, tt.minStopGrace)
				}
			}
			for _, name := range []string{"DATABASE_URL", "REDIS_URL"} {
				u, err := url.Parse(s.Environment[name])
				if err != nil || u.Hostname() == "" {
					t.Errorf("%s = %q is not a URL", name, s.Environment[name])
					continue
				}
				if _, ok := c.Services[u.Hostname()]; !ok {
					t.Errorf("%s points at %q, which is not a service", name, u.Hostname())
				}
			}
		})
	}
	for name, s := range c.Services {
		if s.isSelah(t) {
			if err := checkArgv(s.argv()); err != nil {
				t.Errorf("service %s: %v", name, err)
			}
		}
	}
}

func TestComposeStartupOrder(t *testing.T) {
	c := loadCompose(t)
	deps := []struct {
		service, on, condition string
	}{
		{"migrate", "postgres", "service_healthy"},
		{"migrate", "redis", "service_healthy"},
		{"web", "migrate", "service_completed_successfully"},
		{"worker", "migrate", "service_completed_successfully"},
	}
	for _, d := range deps {
		t.Run(d.service+" on "+d.on, func(t *testing.T) {
			if got := c.Services[d.service].DependsOn[d.on].Condition; got != d.condition {
				t.Errorf("condition %q, want %q", got, d.condition)
			}
			if d.condition == "service_healthy" && c.Services[d.on].Healthcheck == nil {
				t.Errorf("%s has no healthcheck to wait for", d.on)
			}
		})
	}
	if r := c.Services["migrate"].Restart; r != "no" {
		t.Errorf("migrate restart %q, want \"no\": it is a one-shot", r)
	}
}

func TestComposeServices(t *testing.T) {
	c := loadCompose(t)
	tests := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"worker is scalable", func(t *testing.T) {
			w := c.Services["worker"]
			if w.ContainerName != "" || len(w.Ports) > 0 {
				t.Error("worker sets container_name or host ports: --scale worker=N would collide")
			}
		}},
		{"web publishes 8080", func(t *testing.T) {
			if !slices.Contains(c.Services["web"].Ports, "8080:8080") {
				t.Errorf("web ports %q, want 8080:8080", c.Services["web"].Ports)
			}
		}},
		{"postgres builds pgvector", func(t *testing.T) {
			pg := c.Services["postgres"]
			if df := pg.dockerfile(); filepath.Base(df) != "postgres.Dockerfile" {
				t.Errorf("postgres builds from %q, want postgres.Dockerfile", df)
			}
			if pg.Healthcheck == nil || !slices.Contains(pg.Healthcheck.Test, "pg_isready") {
				t.Error("postgres healthcheck does not use pg_isready")
			}
			if !slices.ContainsFunc(pg.Volumes, func(v string) bool { return strings.HasSuffix(v, ":/var/lib/postgresql/data") }) {
				t.Error("postgres data is not on a volume")
			}
		}},
		{"redis without persistence as setup.sh", func(t *testing.T) {
			if !strings.Contains(readFile(t, "setup.sh"), `--save "" --appendonly no`) {
				t.Fatal(`setup.sh no longer runs Redis with --save "" --appendonly no; update compose.yaml and this test`)
			}
			cmd := c.Services["redis"].Command
			i := slices.Index(cmd, "--save")
			j := slices.Index(cmd, "--appendonly")
			if i < 0 || i+1 >= len(cmd) || cmd[i+1] != "" || j < 0 || j+1 >= len(cmd) || cmd[j+1] != "no" {
				t.Errorf(`redis command %q, want --save "" --appendonly no`, cmd)
			}
		}},
		{"asynqmon is an opt-in tool matching go.mod", func(t *testing.T) {
			a, ok := c.Services["asynqmon"]
			if !ok {
				t.Skip("no standalone asynqmon")
			}
			if !slices.Contains(a.Profiles, "tools") {
				t.Error(`asynqmon is not behind the "tools" profile`)
			}
			want := "hibiken/asynqmon:" + strings.TrimPrefix(goModLine(t, "github.com/hibiken/asynqmon")[1], "v")
			if a.Image != want {
				t.Errorf("asynqmon image %q, want %q (the version go.mod uses)", a.Image, want)
			}
		}},
		{"build files exist", func(t *testing.T) {
			for name, s := range c.Services {
				if df := s.dockerfile(); df != "" {
					if _, err := os.Stat(df); err != nil {
						t.Errorf("service %s: %v", name, err)
					}
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.check)
	}
}
