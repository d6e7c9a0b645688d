package image

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// SourceDateEpoch is the time that reproducible builds date images and
// their files: $SOURCE_DATE_EPOCH, or the Unix epoch.
func SourceDateEpoch() (time.Time, error) {
	s := os.Getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds since 1970", s)
	}
	return time.Unix(n, 0).UTC(), nil
}
