package residency

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// ReleaseExecutable gives back the resident pages of the running
// executable's code and reports how many bytes of mappings it asked the
// kernel to drop. The pages stay in the page cache: those the process
// runs again fault back in from it.
func ReleaseExecutable() (int, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0, err
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	total := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		start, end, ok := codeMapping(sc.Bytes(), exe)
		if !ok {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED); errno != 0 {
			return total, errno
		}
		total += int(end - start)
	}
	return total, sc.Err()
}

// codeMapping parses a line of /proc/self/maps and reports the address
// range of a private, executable, never written mapping of the file exe
// (r-xp): the program's code. Read-only data is left alone: a dynamically
// linked build has relocated data there (RELRO) that the file does not
// hold.
func codeMapping(line []byte, exe string) (start, end uintptr, ok bool) {
	fields := bytes.Fields(line)
	if len(fields) < 6 || string(fields[1]) != "r-xp" || string(bytes.Join(fields[5:], []byte(" "))) != exe {
		return 0, 0, false
	}
	addr := bytes.SplitN(fields[0], []byte("-"), 2)
	if len(addr) != 2 {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(string(addr[0]), 16, 64)
	e, err2 := strconv.ParseUint(string(addr[1]), 16, 64)
	if err1 != nil || err2 != nil || e <= s {
		return 0, 0, false
	}
	return uintptr(s), uintptr(e), true
}
