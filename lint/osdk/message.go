package osdk

import (
	"reflect"
	"slices"
	"strings"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"
)

// message is the text operator-sdk prints for e, made the same from run
// to run where operator-sdk's is not, so that a baseline finds it again:
//   - a value that is a pointer to a scalar (the CRD validator's bad
//     values) is printed as the scalar, not as an address;
//   - the kinds of a removed-APIs message, which follow a Go map's
//     order, are sorted.
func message(e apierrors.Error) string {
	if v := reflect.ValueOf(e.BadValue); v.Kind() == reflect.Pointer && !v.IsNil() && scalar(v.Elem().Kind()) {
		e.BadValue = v.Elem().Interface()
	}
	return sortRemovedAPIs(e.Error())
}

// removedAPIsMark starts the list of a removed-APIs message: "Migrate
// the API(s) for CRD: (["a" "b"]),PriorityClass: (["c"])".
const removedAPIsMark = "Migrate the API(s) for "

// sortRemovedAPIs sorts the kinds listed in a removed-APIs message.
func sortRemovedAPIs(msg string) string {
	i := strings.Index(msg, removedAPIsMark)
	if i < 0 {
		return msg
	}
	head, list := msg[:i+len(removedAPIsMark)], msg[i+len(removedAPIsMark):]
	kinds := strings.Split(list, "),")
	for k := range kinds[:len(kinds)-1] {
		kinds[k] += ")"
	}
	slices.Sort(kinds)
	return head + strings.Join(kinds, ",")
}

// scalar reports whether values of kind k print as themselves: booleans,
// numbers and strings.
func scalar(k reflect.Kind) bool {
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}
