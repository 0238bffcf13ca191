package deploy_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// k8sObject is the part of a Kubernetes (or KEDA) object these tests read.
type k8sObject struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name      string `yaml:"name"`
		Namespace string `yaml:"namespace"`
	} `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
	StringData map[string]string `yaml:"stringData"`
	Spec       struct {
		// Deployment and Job.
		Replicas                *int `yaml:"replicas"`
		BackoffLimit            *int `yaml:"backoffLimit"`
		TTLSecondsAfterFinished *int `yaml:"ttlSecondsAfterFinished"`
		Template                struct {
			Metadata struct {
				Labels      map[string]string `yaml:"labels"`
				Annotations map[string]string `yaml:"annotations"`
			} `yaml:"metadata"`
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
		// Service (a Deployment's selector is a nested object).
		Selector any `yaml:"selector"`
		Ports    []struct {
			Port       int `yaml:"port"`
			TargetPort any `yaml:"targetPort"`
		} `yaml:"ports"`
		// KEDA ScaledObject.
		ScaleTargetRef struct {
			Kind string `yaml:"kind"`
			Name string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		// HorizontalPodAutoscaler (autoscaling/v2).
		MinReplicas *int `yaml:"minReplicas"`
		MaxReplicas int  `yaml:"maxReplicas"`
		Metrics     []struct {
			Type     string `yaml:"type"`
			Resource struct {
				Name   string `yaml:"name"`
				Target struct {
					Type               string `yaml:"type"`
					AverageUtilization int    `yaml:"averageUtilization"`
				} `yaml:"target"`
			} `yaml:"resource"`
		} `yaml:"metrics"`
		MinReplicaCount *int          `yaml:"minReplicaCount"`
		MaxReplicaCount *int          `yaml:"maxReplicaCount"`
		Triggers        []kedaTrigger `yaml:"triggers"`
		// KEDA TriggerAuthentication.
		SecretTargetRef []struct {
			Parameter string `yaml:"parameter"`
			Name      string `yaml:"name"`
			Key       string `yaml:"key"`
		} `yaml:"secretTargetRef"`
	} `yaml:"spec"`

	file string
}

type podSpec struct {
	RestartPolicy                 string `yaml:"restartPolicy"`
	TerminationGracePeriodSeconds *int   `yaml:"terminationGracePeriodSeconds"`
	SecurityContext               struct {
		RunAsNonRoot *bool `yaml:"runAsNonRoot"`
		RunAsUser    *int  `yaml:"runAsUser"`
	} `yaml:"securityContext"`
	InitContainers []container `yaml:"initContainers"`
	Containers     []container `yaml:"containers"`
}

type container struct {
	Name    string   `yaml:"name"`
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Ports   []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	Env []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	EnvFrom []struct {
		ConfigMapRef *struct {
			Name string `yaml:"name"`
		} `yaml:"configMapRef"`
		SecretRef *struct {
			Name string `yaml:"name"`
		} `yaml:"secretRef"`
	} `yaml:"envFrom"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
	StartupProbe   *probe `yaml:"startupProbe"`
	Lifecycle      struct {
		PreStop *struct {
			Exec *struct {
				Command []string `yaml:"command"`
			} `yaml:"exec"`
			Sleep *struct {
				Seconds int `yaml:"seconds"`
			} `yaml:"sleep"`
		} `yaml:"preStop"`
	} `yaml:"lifecycle"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	SecurityContext struct {
		RunAsNonRoot             *bool `yaml:"runAsNonRoot"`
		RunAsUser                *int  `yaml:"runAsUser"`
		ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
		AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
	} `yaml:"securityContext"`
}

type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"` // a number or a container port's name
	} `yaml:"httpGet"`
}

type kedaTrigger struct {
	Type              string            `yaml:"type"`
	Metadata          map[string]string `yaml:"metadata"`
	AuthenticationRef struct {
		Name string `yaml:"name"`
	} `yaml:"authenticationRef"`
}

// argv is the container's full command line; without a command the image's
// ENTRYPOINT ["selah"] runs.
func (c container) argv() []string {
	if len(c.Command) > 0 {
		return append(slices.Clone(c.Command), c.Args...)
	}
	return append([]string{"selah"}, c.Args...)
}

func (c container) env(name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}

// port resolves a probe's port, by number or by name, to a declared
// container port.
func (c container) port(p any) (int, error) {
	for _, cp := range c.Ports {
		switch v := p.(type) {
		case int:
			if cp.ContainerPort == v {
				return v, nil
			}
		case string:
			if cp.Name == v || strconv.Itoa(cp.ContainerPort) == v {
				return cp.ContainerPort, nil
			}
		}
	}
	return 0, fmt.Errorf("port %v is not one of the container's ports", p)
}

// manifests are the objects kustomization.yaml applies, plus the example
// Secret they refer to.
type manifests struct {
	all    []k8sObject
	secret k8sObject
}

func loadManifests(t *testing.T) manifests {
	t.Helper()
	kust := loadKustomization(t)
	var m manifests
	for _, r := range kust.Resources {
		for _, o := range decodeAll[k8sObject](t, filepath.Join("k8s", r)) {
			o.file = r
			m.all = append(m.all, o)
		}
	}
	secrets := decodeAll[k8sObject](t, "k8s/secret.example.yaml")
	if len(secrets) != 1 || secrets[0].Kind != "Secret" {
		t.Fatal("secret.example.yaml must hold exactly one Secret")
	}
	m.secret = secrets[0]
	return m
}

func (m manifests) find(kind, name string) (k8sObject, bool) {
	for _, o := range m.all {
		if o.Kind == kind && o.Metadata.Name == name {
			return o, true
		}
	}
	return k8sObject{}, false
}

func (m manifests) ofKind(kind string) []k8sObject {
	var out []k8sObject
	for _, o := range m.all {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// containers are all containers of all Deployments and Jobs, named
// "Kind/name/container".
func (m manifests) containers() map[string]container {
	out := map[string]container{}
	for _, o := range m.all {
		if o.Kind != "Deployment" && o.Kind != "Job" {
			continue
		}
		spec := o.Spec.Template.Spec
		for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
			out[o.Kind+"/"+o.Metadata.Name+"/"+c.Name] = c
		}
	}
	return out
}

// kustomization is the part of kustomization.yaml these tests read.
type kustomization struct {
	Namespace string   `yaml:"namespace"`
	Resources []string `yaml:"resources"`
}

func loadKustomization(t *testing.T) kustomization {
	t.Helper()
	docs := decodeAll[kustomization](t, "k8s/kustomization.yaml")
	if len(docs) != 1 {
		t.Fatalf("kustomization.yaml: %d documents, want 1", len(docs))
	}
	return docs[0]
}

// workload is what one selah Deployment or Job must look like.
type workload struct {
	kind, name string
	argv       []string
	// Probes: the port /livez and /readyz are served on; 0 for none.
	probePort int
	// The listen address the container must set.
	listenEnv, listenAddr string
	// metricsPort is where METRICS_ADDR serves /metrics, which the
	// Prometheus annotations must name; 0: none.
	metricsPort int
	// minGrace is the least terminationGracePeriodSeconds that lets the
	// process drain (0: no minimum).
	minGrace int
	// preStop: the pod sits behind a Service and must sleep before SIGTERM
	// so its endpoint is gone before it stops accepting.
	preStop bool
}

// workloads are the selah Deployments and Jobs the manifests must hold.
var workloads = []workload{
	{"Deployment", "selah-web", []string{"selah", "web"}, 8080, "ADDR", "0.0.0.0:8080", 9090, 35, true},
	{"Deployment", "selah-worker", []string{"selah", "worker"}, 9090, "METRICS_ADDR", "0.0.0.0:9090", 9090, 30, false},
	{"Job", "selah-migrate", []string{"/bin/sh", "-c", migrateScript}, 0, "", "", 0, 0, false},
}

func TestKustomizationListsManifests(t *testing.T) {
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	kust := loadKustomization(t)
	if kust.Namespace != "" {
		t.Errorf("kustomization.yaml sets namespace %q; the base must stay namespace-agnostic", kust.Namespace)
	}
	for _, f := range files {
		name := filepath.Base(f)
		listed := slices.Contains(kust.Resources, name)
		switch name {
		case "kustomization.yaml":
		case "secret.example.yaml":
			if listed {
				t.Error("secret.example.yaml is listed: apply -k would overwrite the real Secret with placeholders")
			}
		default:
			if !listed {
				t.Errorf("%s is not listed in kustomization.yaml", name)
			}
		}
	}
	for _, r := range kust.Resources {
		if !slices.Contains(files, filepath.Join("k8s", r)) {
			t.Errorf("kustomization.yaml lists %s, which does not exist", r)
		}
	}
}

func TestManifestsWellFormed(t *testing.T) {
	m := loadManifests(t)
	for _, o := range append(m.all, m.secret) {
		t.Run(o.Kind+"/"+o.Metadata.Name, func(t *testing.T) {
			if o.APIVersion == "" || o.Kind == "" || o.Metadata.Name == "" {
				t.Errorf("%s: apiVersion, kind and metadata.name are required", o.file)
			}
			if o.Metadata.Namespace != "" {
				t.Errorf("%s: sets namespace %q; manifests must be namespace-agnostic", o.file, o.Metadata.Namespace)
			}
		})
	}
	// Every Deployment and Job must be one the table below knows, so a new
	// workload gets its probes and commands checked.
	for _, kind := range []string{"Deployment", "Job"} {
		for _, o := range m.ofKind(kind) {
			if !slices.ContainsFunc(workloads, func(w workload) bool {
				return w.kind == kind && w.name == o.Metadata.Name
			}) {
				t.Errorf("%s %s has no entry in workloads", kind, o.Metadata.Name)
			}
		}
	}
}

func TestContainers(t *testing.T) {
	m := loadManifests(t)
	uid := imageUID(t)
	for name, c := range m.containers() {
		t.Run(name, func(t *testing.T) {
			if err := checkArgv(c.argv()); err != nil {
				t.Errorf("command: %v", err)
			}
			if c.Image != "selah" && !strings.HasPrefix(c.Image, "selah:") {
				t.Errorf("image %q: want the selah image (kustomization.yaml's images: retargets it)", c.Image)
			}
			for _, r := range []string{"cpu", "memory"} {
				if c.Resources.Requests[r] == "" {
					t.Errorf("resources.requests.%s is not set", r)
				}
			}
			if c.Resources.Limits["memory"] == "" {
				t.Error("resources.limits.memory is not set")
			}
			if p := c.SecurityContext.ReadOnlyRootFilesystem; p == nil || !*p {
				t.Error("securityContext.readOnlyRootFilesystem is not true")
			}
			if p := c.SecurityContext.AllowPrivilegeEscalation; p == nil || *p {
				t.Error("securityContext.allowPrivilegeEscalation is not false")
			}
			if u := c.SecurityContext.RunAsUser; u != nil && *u != uid {
				t.Errorf("runAsUser %d, but the image's user is %d", *u, uid)
			}
			for _, ef := range c.EnvFrom {
				if ef.ConfigMapRef != nil && ef.ConfigMapRef.Name != "selah-config" {
					t.Errorf("envFrom configMapRef %q: want selah-config", ef.ConfigMapRef.Name)
				}
				if ef.SecretRef != nil && ef.SecretRef.Name != m.secret.Metadata.Name {
					t.Errorf("envFrom secretRef %q: want %s", ef.SecretRef.Name, m.secret.Metadata.Name)
				}
			}
			for _, e := range c.Env {
				if ref := e.ValueFrom.SecretKeyRef; ref != nil {
					if ref.Name != m.secret.Metadata.Name {
						t.Errorf("env %s: secret %q: want %s", e.Name, ref.Name, m.secret.Metadata.Name)
					}
					if _, ok := m.secret.StringData[ref.Key]; !ok {
						t.Errorf("env %s: key %q is not in secret.example.yaml", e.Name, ref.Key)
					}
				}
			}
		})
	}
}

func TestWorkloads(t *testing.T) {
	m := loadManifests(t)
	uid := imageUID(t)
	for _, w := range workloads {
		t.Run(w.name, func(t *testing.T) {
			o, ok := m.find(w.kind, w.name)
			if !ok {
				t.Fatalf("no %s %s in the manifests", w.kind, w.name)
			}
			spec := o.Spec.Template.Spec
			if len(spec.Containers) != 1 {
				t.Fatalf("%d containers, want 1", len(spec.Containers))
			}
			c := spec.Containers[0]
			if got := c.argv(); !slices.Equal(got, w.argv) {
				t.Errorf("command line %q, want %q", got, w.argv)
			}
			if w.listenEnv != "" {
				if v, _ := c.env(w.listenEnv); v != w.listenAddr {
					t.Errorf("env %s = %q, want %q", w.listenEnv, v, w.listenAddr)
				}
			}
			checkProbes(t, c, w.probePort)
			checkScrape(t, c, o.Spec.Template.Metadata.Annotations, w.metricsPort)
			if g := spec.TerminationGracePeriodSeconds; w.minGrace > 0 && (g == nil || *g < w.minGrace) {
				t.Errorf("terminationGracePeriodSeconds %v, want at least %d", deref(g), w.minGrace)
			}
			if pre := c.Lifecycle.PreStop; w.preStop && (pre == nil || (pre.Sleep == nil && (pre.Exec == nil || len(pre.Exec.Command) == 0 || pre.Exec.Command[0] != "sleep"))) {
				t.Error("no preStop sleep: the Service would keep routing to a pod that is shutting down")
			}
			nonRoot := spec.SecurityContext.RunAsNonRoot
			if nonRoot == nil {
				nonRoot = c.SecurityContext.RunAsNonRoot
			}
			if nonRoot == nil || !*nonRoot {
				t.Error("runAsNonRoot is not true")
			}
			if u := spec.SecurityContext.RunAsUser; u != nil && *u != uid {
				t.Errorf("runAsUser %d, but the image's user is %d", *u, uid)
			}
			switch w.kind {
			case "Job":
				if p := spec.RestartPolicy; p != "Never" && p != "OnFailure" {
					t.Errorf("restartPolicy %q, want Never or OnFailure", p)
				}
				if o.Spec.BackoffLimit == nil {
					t.Error("backoffLimit is not set")
				}
				if o.Spec.TTLSecondsAfterFinished == nil {
					t.Error("ttlSecondsAfterFinished is not set")
				}
			case "Deployment":
				if p := spec.RestartPolicy; p != "" && p != "Always" {
					t.Errorf("restartPolicy %q in a Deployment", p)
				}
			}
		})
	}
}

// checkProbes checks liveness on /livez, readiness on /readyz and any
// startup probe on either, all on port; port 0 means no probes at all.
func checkProbes(t *testing.T, c container, port int) {
	t.Helper()
	probes := []struct {
		kind  string
		p     *probe
		paths []string
	}{
		{"livenessProbe", c.LivenessProbe, []string{"/livez"}},
		{"readinessProbe", c.ReadinessProbe, []string{"/readyz"}},
		{"startupProbe", c.StartupProbe, []string{"/livez", "/readyz"}},
	}
	for _, pr := range probes {
		if port == 0 {
			if pr.p != nil {
				t.Errorf("%s on a container that serves no HTTP", pr.kind)
			}
			continue
		}
		if pr.p == nil {
			if pr.kind != "startupProbe" {
				t.Errorf("no %s", pr.kind)
			}
			continue
		}
		if pr.p.HTTPGet == nil {
			t.Errorf("%s is not an httpGet probe", pr.kind)
			continue
		}
		if !slices.Contains(pr.paths, pr.p.HTTPGet.Path) {
			t.Errorf("%s path %q, want one of %q", pr.kind, pr.p.HTTPGet.Path, pr.paths)
		}
		got, err := c.port(pr.p.HTTPGet.Port)
		if err != nil {
			t.Errorf("%s: %v", pr.kind, err)
		} else if got != port {
			t.Errorf("%s on port %d, want %d", pr.kind, got, port)
		}
	}
}

// checkScrape checks that the container serves METRICS_ADDR on all
// interfaces at port, a declared container port, and that the pod's
// Prometheus annotations scrape /metrics there (issue 14, defect 16: web's
// metrics left its public port); port 0 means no metrics at all.
func checkScrape(t *testing.T, c container, annotations map[string]string, port int) {
	t.Helper()
	if port == 0 {
		if annotations["prometheus.io/scrape"] == "true" {
			t.Error("scraped, but serves no metrics")
		}
		return
	}
	if v, _ := c.env("METRICS_ADDR"); v != "0.0.0.0:"+strconv.Itoa(port) {
		t.Errorf("env METRICS_ADDR = %q, want 0.0.0.0:%d", v, port)
	}
	if _, err := c.port(port); err != nil {
		t.Errorf("metrics: %v", err)
	}
	want := map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": strconv.Itoa(port), "prometheus.io/path": "/metrics"}
	for k, v := range want {
		if annotations[k] != v {
			t.Errorf("annotation %s = %q, want %q", k, annotations[k], v)
		}
	}
}

func TestWebService(t *testing.T) {
	m := loadManifests(t)
	web, ok := m.find("Deployment", "selah-web")
	if !ok {
		t.Fatal("no selah-web Deployment")
	}
	svc, ok := m.find("Service", "selah-web")
	if !ok {
		t.Fatal("no selah-web Service")
	}
	sel, ok := svc.Spec.Selector.(map[string]any)
	if !ok || len(sel) == 0 {
		t.Fatal("Service has no selector")
	}
	for k, v := range sel {
		if web.Spec.Template.Metadata.Labels[k] != v {
			t.Errorf("Service selector %s=%v does not match the web pods' labels", k, v)
		}
	}
	for _, p := range svc.Spec.Ports {
		got, err := web.Spec.Template.Spec.Containers[0].port(p.TargetPort)
		if err != nil {
			t.Errorf("Service port %d: %v", p.Port, err)
		} else if got != 8080 {
			t.Errorf("Service port %d targets %d, want 8080", p.Port, got)
		}
	}
}

func TestKEDAScalesWorkersOnPendingLists(t *testing.T) {
	m := loadManifests(t)
	sos := m.ofKind("ScaledObject")
	if len(sos) != 1 {
		t.Fatalf("%d ScaledObjects, want 1", len(sos))
	}
	so := sos[0]
	if k := so.Spec.ScaleTargetRef.Kind; k != "" && k != "Deployment" {
		t.Errorf("scaleTargetRef.kind %q, want Deployment", k)
	}
	target, ok := m.find("Deployment", so.Spec.ScaleTargetRef.Name)
	if !ok {
		t.Fatalf("scaleTargetRef names %q, which is not a Deployment here", so.Spec.ScaleTargetRef.Name)
	}
	if argv := target.Spec.Template.Spec.Containers[0].argv(); !slices.Equal(argv, []string{"selah", "worker"}) {
		t.Errorf("the scaled Deployment runs %q, not the worker", argv)
	}
	if target.Spec.Replicas != nil {
		t.Error("the scaled Deployment sets spec.replicas: every apply would undo the autoscaler")
	}
	if min := so.Spec.MinReplicaCount; min == nil || *min < 1 {
		t.Errorf("minReplicaCount %v, want at least 1 (web's /readyz needs a live worker)", deref(min))
	}
	if min, max := so.Spec.MinReplicaCount, so.Spec.MaxReplicaCount; max == nil || min != nil && *max < *min {
		t.Errorf("maxReplicaCount %v: want one at least minReplicaCount", deref(max))
	}

	byList := map[string]kedaTrigger{}
	for _, tr := range so.Spec.Triggers {
		byList[tr.Metadata["listName"]] = tr
	}
	for _, q := range queues {
		t.Run(q, func(t *testing.T) {
			tr, ok := byList[pendingKey(q)]
			if !ok {
				t.Fatalf("no trigger on %s", pendingKey(q))
			}
			if tr.Type != "redis" {
				t.Errorf("trigger type %q, want redis", tr.Type)
			}
			if n, err := strconv.Atoi(tr.Metadata["listLength"]); err != nil || n < 1 {
				t.Errorf("listLength %q, want a positive integer", tr.Metadata["listLength"])
			}
			if tr.Metadata["address"] != "" {
				t.Error("the Redis address must come from the TriggerAuthentication, not be written in the trigger")
			}
			auth, ok := m.find("TriggerAuthentication", tr.AuthenticationRef.Name)
			if !ok {
				t.Fatalf("authenticationRef %q is not a TriggerAuthentication here", tr.AuthenticationRef.Name)
			}
			params := map[string]bool{}
			for _, ref := range auth.Spec.SecretTargetRef {
				params[ref.Parameter] = true
				if ref.Name != m.secret.Metadata.Name {
					t.Errorf("TriggerAuthentication reads secret %q, want %s", ref.Name, m.secret.Metadata.Name)
				}
				if _, ok := m.secret.StringData[ref.Key]; !ok {
					t.Errorf("TriggerAuthentication reads key %q, which secret.example.yaml lacks", ref.Key)
				}
			}
			if !params["address"] && !(params["host"] && params["port"]) {
				t.Error("TriggerAuthentication gives KEDA no Redis address")
			}
		})
	}
	if len(so.Spec.Triggers) != len(queues) {
		t.Errorf("%d triggers, want one per queue (%q)", len(so.Spec.Triggers), queues)
	}
}

// TestHPAScalesWebOnCPU: the web Deployment is scaled by an HPA on CPU
// utilization, which needs a CPU request to measure against, keeps at
// least two pods, and owns the replica count.
func TestHPAScalesWebOnCPU(t *testing.T) {
	m := loadManifests(t)
	hpas := m.ofKind("HorizontalPodAutoscaler")
	if len(hpas) != 1 {
		t.Fatalf("%d HorizontalPodAutoscalers, want 1", len(hpas))
	}
	h := hpas[0]
	if h.APIVersion != "autoscaling/v2" {
		t.Errorf("apiVersion %q, want autoscaling/v2", h.APIVersion)
	}
	target, ok := m.find("Deployment", h.Spec.ScaleTargetRef.Name)
	if !ok || h.Spec.ScaleTargetRef.Kind != "Deployment" {
		t.Fatalf("scaleTargetRef %+v is not a Deployment here", h.Spec.ScaleTargetRef)
	}
	c := target.Spec.Template.Spec.Containers[0]
	if argv := c.argv(); !slices.Equal(argv, []string{"selah", "web"}) {
		t.Errorf("the scaled Deployment runs %q, not web", argv)
	}
	if target.Spec.Replicas != nil {
		t.Error("the scaled Deployment sets spec.replicas: every apply would undo the autoscaler")
	}
	if c.Resources.Requests["cpu"] == "" {
		t.Error("no CPU request: CPU utilization has nothing to be measured against")
	}
	if min := h.Spec.MinReplicas; min == nil || *min < 2 || h.Spec.MaxReplicas < *min {
		t.Errorf("minReplicas %v, maxReplicas %d: want at least 2, and max at least min", deref(min), h.Spec.MaxReplicas)
	}
	cpu := false
	for _, mt := range h.Spec.Metrics {
		r := mt.Resource
		if mt.Type == "Resource" && r.Name == "cpu" && r.Target.Type == "Utilization" && r.Target.AverageUtilization > 0 && r.Target.AverageUtilization <= 100 {
			cpu = true
		}
	}
	if !cpu {
		t.Error("no CPU utilization metric")
	}
}

func TestConfigAndSecretExample(t *testing.T) {
	m := loadManifests(t)
	cms := m.ofKind("ConfigMap")
	if len(cms) != 1 || cms[0].Metadata.Name != "selah-config" {
		t.Fatal("want exactly one ConfigMap, selah-config")
	}
	// SMTP_URL holds the mail server's password; production needs it
	// (issue 14, defect 6).
	secretKeys := []string{"DATABASE_URL", "REDIS_URL", "OPENAI_API_KEY", "SMTP_URL"}
	for _, k := range secretKeys {
		if _, ok := cms[0].Data[k]; ok {
			t.Errorf("ConfigMap holds %s, a secret", k)
		}
		if _, ok := m.secret.StringData[k]; !ok {
			t.Errorf("secret.example.yaml lacks %s", k)
		}
	}
	for k, v := range m.secret.StringData {
		if v != "" && !strings.Contains(v, "CHANGE-ME") && !strings.Contains(v, ".example.") {
			t.Errorf("secret.example.yaml %s = %q does not look like a placeholder", k, v)
		}
	}
}

// TestKustomizeBuild renders the kustomization with kubectl when it is
// installed; the checks above do not need it.
func TestKustomizeBuild(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, kubectl, "kustomize", "k8s").CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl kustomize k8s: %v\n%s", err, out)
	}
	for _, o := range loadManifests(t).all {
		if !strings.Contains(string(out), "name: "+o.Metadata.Name+"\n") {
			t.Errorf("rendered output lacks %s %s", o.Kind, o.Metadata.Name)
		}
	}
}

// deref formats an optional number for a message.
func deref(p *int) any {
	if p == nil {
		return "unset"
	}
	return *p
}
