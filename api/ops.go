package api

import (
	"encoding/json"
	"net/http"
)

// WriteJSON writes v as the JSON body of an operator endpoint (/livez,
// /readyz), which web and worker serve with net/http on a listener of
// their own; the API itself is served by Fiber.
func WriteJSON(rw http.ResponseWriter, status int, v any) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	// The status line is out: a failed write has no one left to tell.
	_ = json.NewEncoder(rw).Encode(v)
}
