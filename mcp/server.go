// Package mcp is selah's Model Context Protocol server: it gives AI agents
// the HTTP API's passage lookup, search, answers and topic hubs as MCP
// tools, over stdio, by calling a selah deployment with the Go client.
//
// It holds no key of its own. Every tool takes the user's API key as its
// apiKey argument and sends it as the Bearer token of that one call, so
// each user's calls count against their own plan and a revoked key stops
// working here too. The key never appears in a result, an error or a log
// line: results are built from API responses (which never carry it), and a
// middleware scrubs anything key-like from every tool result as a second
// line of defence.
package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config configures the server.
type Config struct {
	// APIURL is the base URL of the selah deployment, e.g.
	// http://127.0.0.1:8080 or https://selah.example.
	APIURL string
	// HTTPClient calls the API (default: 60 s timeout).
	HTTPClient *http.Client
	// Logger receives one line per tool call, never with arguments. With
	// stdio, stdout is the protocol, so this must write elsewhere (stderr).
	// Nil discards.
	Logger *slog.Logger
	// Version is reported to clients.
	Version string
	// EnvAPIKey is the server's SELAH_API_KEY: the key of resource reads,
	// and of tool calls whose apiKey argument is the literal "env". Empty:
	// resources cannot be read and "env" is refused.
	EnvAPIKey string
}

// instructions tell the model how to use the tools as a whole.
const instructions = `selah serves the King James Version (KJV) of the Bible, and only the KJV. ` +
	`Every tool needs the user's own selah API key in the apiKey argument (svc_live_… or svc_test_…): ` +
	`ask the user for it if you do not have it, never invent one, and never repeat it back. ` +
	`If the user has put their key in the server's SELAH_API_KEY, pass the literal "env" as apiKey instead. ` +
	`Use lookup_passage to quote exact text, search_scripture to find verses, ask_bible for a short answer that cites its verses, ` +
	`list_topics/get_topic for curated themes, verify_citation to check a quotation and its reference, find_references to read the ` +
	`references in a text, and usage for the key's limits. Resources kjv://{book}/{chapter}[/{verse}] and kjv://topics/{slug} ` +
	`hold the same text when SELAH_API_KEY is set. Quote the returned KJV text as given and cite its references; ` +
	`do not attribute words to the Bible that no tool returned.`

// NewServer returns the MCP server with selah's tools.
func NewServer(cfg Config) *sdk.Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "selah", Title: "selah: the King James Bible", Version: cfg.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: cfg.Logger, CompletionHandler: complete})
	t := &tools{cfg: cfg, log: cfg.Logger}
	t.register(s)
	t.registerFeatures(s)
	t.registerResources(s)
	t.registerPrompts(s)
	s.AddReceivingMiddleware(redactKeys)
	return s
}

// ServeStdio serves one client over stdin and stdout until it disconnects
// or ctx ends.
func ServeStdio(ctx context.Context, cfg Config) error {
	return NewServer(cfg).Run(ctx, &sdk.StdioTransport{})
}

// keyLike matches anything shaped like a selah API key, whole or cut short.
var keyLike = regexp.MustCompile(`svc_(?:live|test)_[0-9A-Za-z]{4,}`)

const redacted = "[redacted API key]"

// redactKeys scrubs tool results of the caller's apiKey argument and of
// anything key-shaped. Results are built without the key, so this should
// never change a thing; it exists so that a future bug (an error message
// that echoes input, say) cannot leak it to the model's transcript.
func redactKeys(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		call, ok := req.(*sdk.CallToolRequest)
		if !ok || call.Params == nil {
			return res, err
		}
		scrub := scrubber(call.Params.Arguments)
		if r, ok := res.(*sdk.CallToolResult); ok && r != nil {
			for _, c := range r.Content {
				if tc, ok := c.(*sdk.TextContent); ok {
					tc.Text = scrub(tc.Text)
				}
			}
			if r.StructuredContent != nil {
				if b, merr := json.Marshal(r.StructuredContent); merr == nil {
					if s := scrub(string(b)); s != string(b) {
						r.StructuredContent = json.RawMessage(s)
					}
				}
			}
		}
		if err != nil {
			if msg := scrub(err.Error()); msg != err.Error() {
				err = scrubbedError{msg: msg, err: err}
			}
		}
		return res, err
	}
}

// scrubber returns a function that removes the apiKey argument of raw
// (whatever its shape) and key-like strings from text.
func scrubber(raw json.RawMessage) func(string) string {
	var args struct {
		APIKey any `json:"apiKey"`
	}
	json.Unmarshal(raw, &args)
	var secrets []string
	switch v := args.APIKey.(type) {
	case string:
		if v = strings.TrimSpace(v); len(v) >= 8 {
			secrets = append(secrets, v)
		}
	case nil:
	default:
		if b, err := json.Marshal(v); err == nil && len(b) >= 8 {
			secrets = append(secrets, string(b))
		}
	}
	return func(s string) string {
		for _, k := range secrets {
			s = strings.ReplaceAll(s, k, redacted)
		}
		return keyLike.ReplaceAllString(s, redacted)
	}
}

// scrubbedError is an error whose text was scrubbed; errors.Is and As
// still see the original.
type scrubbedError struct {
	msg string
	err error
}

func (e scrubbedError) Error() string { return e.msg }
func (e scrubbedError) Unwrap() error { return e.err }
