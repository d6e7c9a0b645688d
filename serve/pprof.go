package serve

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	runtimepprof "runtime/pprof"
	"sync"
	"time"
)

// StartPprof serves the runtime profiles on addr; stop ends it.
func StartPprof(addr string, profile *StartupProfile, log *slog.Logger) (stop func(), err error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("could not start pprof endpoint: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/startup/cpu", profile.serveHTTP)
	srv := &http.Server{Handler: mux, ReadTimeout: 10 * time.Second, WriteTimeout: time.Minute}
	go func() { _ = srv.Serve(l) }()
	log.Info("starting pprof endpoint", "addr", l.Addr().String())
	return func() { _ = srv.Close() }, nil
}

// StartupProfile is a CPU profile of startup, from process start until
// the server listens.
type StartupProfile struct {
	once sync.Once
	mu   sync.Mutex
	buf  bytes.Buffer
	done bool
}

// StartProfile starts profiling the CPU until Stop.
func StartProfile() *StartupProfile {
	p := &StartupProfile{}
	if err := runtimepprof.StartCPUProfile(&p.buf); err != nil {
		p.done = true
	}
	return p
}

// Stop ends the profile (at most once; a nil profile does nothing).
func (p *StartupProfile) Stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		runtimepprof.StopCPUProfile()
		p.mu.Lock()
		p.done = true
		p.mu.Unlock()
	})
}

func (p *StartupProfile) serveHTTP(w http.ResponseWriter, _ *http.Request) {
	if p == nil {
		http.Error(w, "startup profiling is off (use --pprof-capture-profiles)", http.StatusNotFound)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		http.Error(w, "cpu profile cache is not yet ready", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(p.buf.Bytes())
}
