package serve

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/fbcat/opm/option"
)

// The addresses of RunOptions, as errors name them.
const (
	optionAddr     option.Name = "serve.RunOptions.Addr"
	optionHTTPAddr option.Name = "serve.RunOptions.HTTPAddr"
)

// listen listens on the gRPC address and, if set, the HTTP address.
func (o RunOptions) listen() (grpcL, httpL net.Listener, err error) {
	next := nextPort(listenAddr(o.Addr))
	if next != "" && !strings.Contains(o.Addr, ":") {
		next = next[strings.LastIndexByte(next, ':')+1:] // as given: a bare port
	}
	grpcL, err = listenOn(listenAddr(o.Addr), "", optionAddr, next)
	if err != nil {
		return nil, nil, err
	}
	if o.HTTPAddr != "" {
		if httpL, err = listenOn(o.HTTPAddr, " for the HTTP API", optionHTTPAddr, nextPort(o.HTTPAddr)); err != nil {
			grpcL.Close()
			return nil, nil, err
		}
	}
	return grpcL, httpL, nil
}

func closeAll(ls ...net.Listener) {
	for _, l := range ls {
		if l != nil {
			l.Close()
		}
	}
}

// listenOn listens on addr, which the option name sets; its error names
// the address and the option that chooses another (next, if not "", as
// an example when the address is in use).
func listenOn(addr, what string, name option.Name, next string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err == nil {
		return l, nil
	}
	cause := err
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		cause = oe.Err
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return nil, option.Errorf(option.Invalid, "failed to listen%s on %s: %w; choose another address with %s", what, addr, cause, name)
	}
	const busy = "failed to listen%s on %s: %w; another process (a second opm serve?) is using it: stop it or choose another address with %s"
	if next == "" {
		return nil, option.Errorf(option.Invalid, busy, what, addr, cause, name)
	}
	return nil, option.Errorf(option.Invalid, busy+", e.g. %s", what, addr, cause, name, next)
}

// nextPort is addr with the port after its own, or "" if it has none.
func nextPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n <= 0 || n >= 65535 {
		return ""
	}
	return net.JoinHostPort(host, strconv.Itoa(n+1))
}

// listenAddr turns a gRPC address into a listen address: a bare port
// listens on every interface, as upstream does.
func listenAddr(port string) string {
	if strings.Contains(port, ":") {
		return port
	}
	return ":" + port
}
