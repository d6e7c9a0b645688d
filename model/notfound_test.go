package model

import (
	"errors"
	"testing"
)

func TestNotFoundIsARefusal(t *testing.T) {
	err := NotFound("no package %q in the catalog", "foo")
	var r interface{ Refused() bool }
	if err.Error() != `no package "foo" in the catalog` || !errors.As(err, &r) || !r.Refused() {
		t.Fatalf("got %v", err)
	}
}
