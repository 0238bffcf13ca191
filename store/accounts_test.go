package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := selah.ErrorCode(err); got != code {
		t.Fatalf("error = %v (code %q), want code %q", err, got, code)
	}
}

func newAccount(t *testing.T, st *store.Store, email, plan string) store.Account {
	t.Helper()
	a, err := st.CreateAccount(context.Background(), email, "", plan, false)
	if err != nil {
		t.Fatalf("CreateAccount(%s): %v", email, err)
	}
	return a
}

func sameAccount(a, b store.Account) bool {
	return a.ID == b.ID && a.Email == b.Email && a.Plan == b.Plan && a.Status == b.Status &&
		a.IsAdmin == b.IsAdmin && a.CreatedAt.Equal(b.CreatedAt)
}

func TestPlansSeeded(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ps, err := st.Plans(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Plan{
		{"free", 5, 1, 10, 100, 5},
		{"developer", 60, 4, 200, 3000, 10},
		{"builder", 300, 10, 1000, 20000, 25},
		{"pro", 1200, 25, 5000, 100000, 50},
		{"internal", 100000, 1000, 1000000, 10000000, 100},
	}
	if len(ps) != len(want) {
		t.Fatalf("Plans = %+v", ps)
	}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("plan %d = %+v, want %+v", i, ps[i], want[i])
		}
	}
}

func TestCreateAccount(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	newAccount(t, st, "taken@example.com", "")

	cases := []struct {
		name      string
		email     string
		plan      string
		admin     bool
		code      string // "" = success
		wantEmail string
		wantPlan  string
	}{
		{"default plan is free", "a@example.com", "", false, "", "a@example.com", "free"},
		{"email normalised", "  Mixed.Case@Example.COM ", "pro", true, "", "mixed.case@example.com", "pro"},
		{"duplicate", "taken@example.com", "", false, selah.ECONFLICT, "", ""},
		{"duplicate other case", "TAKEN@example.com", "", false, selah.ECONFLICT, "", ""},
		{"no at", "nobody", "", false, selah.EINVALID, "", ""},
		{"empty", " ", "", false, selah.EINVALID, "", ""},
		{"space inside", "a b@example.com", "", false, selah.EINVALID, "", ""},
		{"two ats", "a@b@example.com", "", false, selah.EINVALID, "", ""},
		{"unknown plan", "c@example.com", "platinum", false, selah.EINVALID, "", ""},
		// Issue 14 (13): net/mail syntax and a dotted domain.
		{"dotless domain", "a@b", "", false, selah.EINVALID, "", ""},
		{"empty domain label", "a@example..com", "", false, selah.EINVALID, "", ""},
		{"trailing dot", "a@example.com.", "", false, selah.EINVALID, "", ""},
		{"display name", "Ann <ann@example.com>", "", false, selah.EINVALID, "", ""},
		{"unbalanced quote", `"a@example.com`, "", false, selah.EINVALID, "", ""},
		{"leading dot local", ".a@example.com", "", false, selah.EINVALID, "", ""},
		{"plus and subdomain", "a+tag@mail.example.co.uk", "", false, "", "a+tag@mail.example.co.uk", "free"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := st.CreateAccount(ctx, tc.email, "", tc.plan, tc.admin)
			if tc.code != "" {
				wantCode(t, err, tc.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.ID == 0 || a.Email != tc.wantEmail || a.Plan.Name != tc.wantPlan || a.IsAdmin != tc.admin ||
				a.Status != store.AccountActive || a.CreatedAt.IsZero() || a.Plan.MaxActiveKeys == 0 {
				t.Fatalf("account = %+v", a)
			}
		})
	}
}

func TestAccountLookups(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a, err := st.CreateAccount(ctx, "look@example.com", "$argon2id$fake", "builder", false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.AccountByEmail(ctx, "LOOK@example.com")
	if err != nil || !sameAccount(a, b) {
		t.Fatalf("AccountByEmail = %+v, %v; want %+v", b, err, a)
	}
	b, err = st.AccountByID(ctx, a.ID)
	if err != nil || !sameAccount(a, b) {
		t.Fatalf("AccountByID = %+v, %v", b, err)
	}
	if b.Plan.RequestsPerMinute != 300 {
		t.Fatalf("plan not joined: %+v", b.Plan)
	}
	c, hash, err := st.AccountForLogin(ctx, "look@example.com")
	if err != nil || !sameAccount(a, c) || hash != "$argon2id$fake" {
		t.Fatalf("AccountForLogin = %+v, %q, %v", c, hash, err)
	}
	newAccount(t, st, "nopass@example.com", "")
	if _, hash, err := st.AccountForLogin(ctx, "nopass@example.com"); err != nil || hash != "" {
		t.Fatalf("AccountForLogin without password = %q, %v", hash, err)
	}
	if _, err := st.AccountByEmail(ctx, "missing@example.com"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("AccountByEmail(missing) = %v", err)
	}
	if _, err := st.AccountByID(ctx, 999999); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("AccountByID(missing) = %v", err)
	}
	if _, _, err := st.AccountForLogin(ctx, "missing@example.com"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("AccountForLogin(missing) = %v", err)
	}
}

func TestSetPlanAndDisable(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "up@example.com", "")

	if err := st.SetPlan(ctx, "UP@example.com", "pro"); err != nil {
		t.Fatal(err)
	}
	got, _ := st.AccountByID(ctx, a.ID)
	if got.Plan.Name != "pro" || got.Plan.RequestsPerMinute != 1200 {
		t.Fatalf("after SetPlan: %+v", got.Plan)
	}
	wantCode(t, st.SetPlan(ctx, "up@example.com", "gold"), selah.EINVALID)
	if err := st.SetPlan(ctx, "missing@example.com", "pro"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("SetPlan(missing) = %v", err)
	}

	for range 2 { // disabling twice is fine
		if err := st.DisableAccount(ctx, "up@example.com"); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = st.AccountByID(ctx, a.ID)
	if got.Status != store.AccountDisabled {
		t.Fatalf("status = %q", got.Status)
	}
	if err := st.DisableAccount(ctx, "missing@example.com"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("DisableAccount(missing) = %v", err)
	}
	_, _, err := st.CreateKey(ctx, a.ID, "x", false, nil)
	wantCode(t, err, selah.EACCOUNTDISABLED)
}

func TestUpdatePlanLimits(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "dev@example.com", "developer")

	want := store.Plan{Name: "developer", RequestsPerMinute: 90, ConcurrentRequests: 6, AsksPerDay: 250, AsksPerMonth: 4000, MaxActiveKeys: 12}
	if err := st.UpdatePlanLimits(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, _ := st.AccountByID(ctx, a.ID)
	if got.Plan != want {
		t.Fatalf("plan = %+v, want %+v", got.Plan, want)
	}
	for _, tc := range []struct {
		name string
		p    store.Plan
		code string
	}{
		{"zero rate", store.Plan{Name: "free", RequestsPerMinute: 0, ConcurrentRequests: 1}, selah.EINVALID},
		{"negative asks", store.Plan{Name: "free", RequestsPerMinute: 1, ConcurrentRequests: 1, AsksPerDay: -1}, selah.EINVALID},
		{"unknown plan", store.Plan{Name: "gold", RequestsPerMinute: 1, ConcurrentRequests: 1}, selah.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) { wantCode(t, st.UpdatePlanLimits(ctx, tc.p), tc.code) })
	}
}
