package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/webtest"
)

// TestInspectorCLI drives the real `selah mcp` binary with the official MCP
// Inspector's CLI, as an MCP client application would start it: over
// stdio, against a live deployment on loopback. It needs npx and, the first
// time, the npm registry.
func TestInspectorCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MCP Inspector through npx; skipped with -short")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("npx is not on PATH; install Node.js to run the MCP Inspector")
	}
	env := webtest.Start(t, nil)
	key, _ := env.Key(t, store.PlanInternal, true)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "selah")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/selah")
	build.Dir = ".." // the module root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// No database or Redis for `selah mcp`: point both at nothing, so a
	// command that needed them would fail.
	inspect := func(args ...string) string {
		t.Helper()
		// SELAH_API_KEY reaches the server as an MCP client's "env" setting
		// would pass it, for resources and apiKey "env".
		argv := append([]string{"--yes", "@modelcontextprotocol/inspector", "--cli", "-e", "SELAH_API_KEY=" + key,
			bin, "mcp", "--api-url=" + env.URL}, args...)
		cmd := exec.CommandContext(ctx, npx, argv...)
		cmd.Env = append(os.Environ(), "DATABASE_URL=postgres://127.0.0.1:1/none", "REDIS_URL=redis://127.0.0.1:1/0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return string(out)
	}

	list := inspect("--method", "tools/list")
	for _, tool := range []string{"lookup_passage", "search_scripture", "ask_bible", "list_topics", "get_topic"} {
		if !strings.Contains(list, `"name": "`+tool+`"`) {
			t.Errorf("tools/list lacks %s:\n%s", tool, list)
		}
	}
	call := inspect("--method", "tools/call", "--tool-name", "lookup_passage",
		"--tool-arg", "apiKey="+key, "--tool-arg", "reference=John 3:16")
	if !strings.Contains(call, "For God so loved the world") {
		t.Errorf("tools/call lookup_passage:\n%s", call)
	}
	verify := inspect("--method", "tools/call", "--tool-name", "verify_citation",
		"--tool-arg", "apiKey=env", "--tool-arg", "quote=For God so loved the world", "--tool-arg", "reference=John 3:17")
	if !strings.Contains(verify, "John 3:16") || !strings.Contains(verify, "does NOT hold it") {
		t.Errorf("tools/call verify_citation:\n%s", verify)
	}
	templates := inspect("--method", "resources/templates/list")
	for _, tmpl := range []string{"kjv://{book}/{chapter}", "kjv://{book}/{chapter}/{verse}", "kjv://topics/{slug}"} {
		if !strings.Contains(templates, tmpl) {
			t.Errorf("resources/templates/list lacks %s:\n%s", tmpl, templates)
		}
	}
	read := inspect("--method", "resources/read", "--uri", "kjv://john/3/16")
	if !strings.Contains(read, "For God so loved the world") {
		t.Errorf("resources/read kjv://john/3/16:\n%s", read)
	}
	prompts := inspect("--method", "prompts/list")
	for _, p := range []string{"word_study", "topical_study", "what_does_the_text_say"} {
		if !strings.Contains(prompts, p) {
			t.Errorf("prompts/list lacks %s:\n%s", p, prompts)
		}
	}
	for _, out := range []string{verify, read} {
		if strings.Contains(out, key) {
			t.Error("the API key appears in the inspector's output")
		}
	}
	if strings.Contains(call, key) || strings.Contains(list, key) {
		t.Error("the API key appears in the inspector's output")
	}
}
