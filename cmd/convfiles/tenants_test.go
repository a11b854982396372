package main

import (
	"strings"
	"testing"
)

// TestOverlappingTenantsAreRefused: a key for "acme-corp-" beside one for
// "acme-" (or the other way round) would let the shorter reach the
// longer's conversations, and is refused naming the other key; a tenant
// with nothing before its separator is refused as a usage error; a second
// key of the same tenant, and tenants that only look alike, are fine.
func TestOverlappingTenantsAreRefused(t *testing.T) {
	c := newCLI(t)
	create := func(tenant string) (int, string) {
		code, _, errs := c.run("", "keys", "create", "--name", "k-"+tenant, "--scopes", "read", "--tenant", tenant)
		return code, errs
	}
	if code, errs := create("acme-"); code != 0 {
		t.Fatalf("acme-: exit %d %s", code, errs)
	}
	if code, errs := create("acme-corp-"); code != 1 || !strings.Contains(errs, `overlaps tenant "acme-"`) {
		t.Errorf("acme-corp- beside acme-: exit %d %s", code, errs)
	}
	if code, errs := create("globex-corp-"); code != 0 {
		t.Fatalf("globex-corp-: exit %d %s", code, errs)
	}
	if code, errs := create("globex-"); code != 1 || !strings.Contains(errs, `overlaps tenant "globex-corp-"`) {
		t.Errorf("globex- beside globex-corp-: exit %d %s", code, errs)
	}
	for _, fine := range []string{"acme-", "acmecorp-", "acme_"} {
		if code, errs := create(fine); code != 0 {
			t.Errorf("%s: exit %d %s", fine, code, errs)
		}
	}
	for _, bad := range []string{"_", "-", "__"} {
		if code, errs := create(bad); code != 2 || !strings.Contains(errs, "no letter or digit") {
			t.Errorf("%q: exit %d %s", bad, code, errs)
		}
	}
}
