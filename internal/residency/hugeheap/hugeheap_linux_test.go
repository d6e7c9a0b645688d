package hugeheap

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/fbcat/opm/internal/residency/hugebuf"
)

// sink keeps allocations on the heap.
var sink [][]byte

// TestHeapAdvised: once the package is initialised, memory the program
// allocates lies in a mapping advised for huge pages ("hg" among its
// VmFlags), small objects and large ones.
func TestHeapAdvised(t *testing.T) {
	if hugebuf.Mode() != "madvise" {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	for _, size := range []int{64, 4 << 10, 1 << 20, 16 << 20} {
		b := make([]byte, size)
		sink = append(sink, b)
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if flags := vmFlags(t, addr); !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("a %d-byte allocation at %#x: mapping flags %q, no hg", size, addr, flags)
		}
	}
}

// vmFlags returns the VmFlags of the mapping holding addr.
func vmFlags(t *testing.T, addr uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if span, _, ok := strings.Cut(line, " "); ok && strings.Contains(span, "-") && !strings.HasSuffix(span, ":") {
			lo, hi, _ := strings.Cut(span, "-")
			s, err1 := strconv.ParseUint(lo, 16, 64)
			e, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= s && uint64(addr) < e
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(flags)
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}
