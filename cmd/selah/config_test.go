package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestWebRefusesUnsafeSettings (issue 14, defects 2 and 10): a malformed
// TRUSTED_PROXIES, or production without PUBLIC_URL (canonical links
// would follow request headers), stops `selah web` at start with a message
// naming the variable, before it touches any database.
func TestWebRefusesUnsafeSettings(t *testing.T) {
	t.Parallel()
	bin := selahBinary(t)
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"TRUSTED_PROXIES=10.0.0.0/8,not-a-cidr"}, "TRUSTED_PROXIES"},
		{[]string{"TRUSTED_PROXIES=10.0.0.0/33"}, "TRUSTED_PROXIES"},
		{[]string{"SELAH_ENV=production", "PUBLIC_URL="}, "PUBLIC_URL"},
	} {
		cmd := exec.Command(bin, "web")
		cmd.Env = append(tc.env, "DATABASE_URL=postgres://127.0.0.1:1/none", "REDIS_URL=redis://127.0.0.1:1/0", "ADDR="+freeAddr(t))
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Fatalf("%v: err %v, output %s; want a failure naming %s", tc.env, err, out, tc.want)
		}
	}
}
