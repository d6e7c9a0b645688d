package residency

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// rssFile is the process's resident file-backed memory in kB.
func rssFile(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// TestReleaseExecutable: the code start-up made resident is given back
// (the test binary's code, most of it run once by its initialisers), and
// the process goes on running it.
func TestReleaseExecutable(t *testing.T) {
	before := rssFile(t)
	n, err := ReleaseExecutable()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFile(t)
	if n == 0 || after >= before {
		t.Errorf("released %d bytes of mappings; resident file-backed memory %d kB before, %d kB after", n, before, after)
	}
}

func TestCodeMapping(t *testing.T) {
	const exe = "/usr/local/bin/opm"
	for _, c := range []struct {
		line       string
		start, end uintptr
		ok         bool
	}{
		{"00400000-01d5a000 r-xp 00000000 fd:01 1234 /usr/local/bin/opm", 0x400000, 0x1d5a000, true},
		{"01d5a000-0401e000 r--p 0195a000 fd:01 1234 /usr/local/bin/opm", 0, 0, false},       // read-only data: left alone
		{"0401e000-0409c000 rw-p 03c1e000 fd:01 1234 /usr/local/bin/opm", 0, 0, false},       // written data
		{"7f0000000000-7f0000021000 r-xp 00000000 fd:01 99 /usr/lib/libc.so.6", 0, 0, false}, // another file
		{"7ffd5b1e4000-7ffd5b1e6000 r-xp 00000000 00:00 0 [vdso]", 0, 0, false},
		{"c000000000-c004000000 rw-p 00000000 00:00 0", 0, 0, false},
		{"00400000-01d5a000 r-xp 00000000 fd:01 1234 /opt/my opm", 0, 0, false},
		{"zz-01d5a000 r-xp 00000000 fd:01 1234 /usr/local/bin/opm", 0, 0, false},
	} {
		start, end, ok := codeMapping([]byte(c.line), exe)
		if start != c.start || end != c.end || ok != c.ok {
			t.Errorf("%q: %#x-%#x %v, want %#x-%#x %v", c.line, start, end, ok, c.start, c.end, c.ok)
		}
	}
	if _, _, ok := codeMapping([]byte("00400000-01d5a000 r-xp 00000000 fd:01 1234 /opt/my opm"), "/opt/my opm"); !ok {
		t.Error("a path with a space is not matched")
	}
}
