package value

import (
	"math"
	"testing"
)

func TestAt(t *testing.T) {
	v, err := ParseJSON([]byte(`{"metadata":{"name":"etcd","labels":{"a":"b"},"n":1},"spec":[1],"kind":"Pod"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.At(); got != &v {
		t.Errorf("At() = %p, want the value itself", got)
	}
	if got := v.At("metadata", "labels", "a"); got == nil || got.Str != "b" {
		t.Errorf(`At("metadata", "labels", "a") = %v`, got)
	}
	for _, path := range [][]string{{"absent"}, {"metadata", "absent"}, {"spec", "1"}, {"spec", "-1"}, {"spec", "01"}, {"spec", "x"}, {"kind", "x"}, {"metadata", "name", "x"}} {
		if got := v.At(path...); got != nil {
			t.Errorf("At(%q) = %v, want nil", path, got)
		}
	}
	if got := v.At("spec", "0"); got == nil || got.Num != 1 {
		t.Errorf(`At("spec", "0") = %v, want the first item`, got)
	}
	if got := v.At("metadata").At("labels").At("a"); got == nil || got.Str != "b" {
		t.Errorf("chained At = %v", got)
	}
	var none *Value
	if none.At("a") != nil || none.At() != nil || none.StringAt() != "" {
		t.Error("a nil value has no members")
	}
	for path, want := range map[string][]string{"etcd": {"metadata", "name"}, "Pod": {"kind"}, "": {"metadata", "n"}} {
		if got := v.StringAt(want...); got != path {
			t.Errorf("StringAt(%q) = %q, want %q", want, got, path)
		}
	}
	if got := v.StringAt("spec"); got != "" {
		t.Errorf(`StringAt("spec") = %q, want ""`, got)
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		v    *Value
		want string
		ok   bool
	}{
		{&Value{Kind: String, Str: "x"}, "x", true},
		{&Value{Kind: String}, "", true},
		{&Value{Kind: Bool, Bool: true}, "true", true},
		{&Value{Kind: Bool}, "false", true},
		{&Value{Kind: Number, Num: 1, Str: "1.0"}, "1.0", true},
		// Without the literal: a 32-bit float's shortest text, as
		// sigs.k8s.io/yaml writes a YAML float into a string field.
		{&Value{Kind: Number, Num: 1.5}, "1.5", true},
		{&Value{Kind: Number, Num: 0.1}, "0.1", true},
		{&Value{Kind: Number, Num: 123456789}, "1.2345679e+08", true},
		{&Value{Kind: Number, Num: 1e21}, "1e+21", true},
		{&Value{Kind: Number, Num: math.Inf(1)}, "+Inf", true},
		{&Value{Kind: Null}, "", false},
		{&Value{Kind: Array}, "", false},
		{&Value{Kind: Object}, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		got, ok := Text(tt.v)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Text(%+v) = %q %v, want %q %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
}
