package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/render"
	"github.com/fbcat/opm/serve"
)

type serveFlags struct {
	port           string
	httpAddr       string
	terminationLog string
	pprofAddr      string
	pprofCapture   bool
	cacheDir       string
	cacheOnly      bool
	cacheIntegrity bool
	debug          bool
	reg            *registryFlags
	platform       platformFlag
}

// drainTimeout bounds how long a stopping server waits for calls in
// flight (Kubernetes allows 30 s between SIGTERM and SIGKILL by default).
const drainTimeout = 20 * time.Second

func newServeCmd(reg *registryFlags) *cobra.Command {
	f := serveFlags{reg: reg}
	cmd := &cobra.Command{
		Use:               "serve <source_path | catalog image>",
		Short:             "Serve a file-based catalog over gRPC (and HTTP)",
		Args:              exactArgs(1),
		ValidArgsFunction: completeDirs,
		// SIGINT and SIGTERM stop serving: calls in flight finish, exit 0.
		Annotations: map[string]string{stopGracefully: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.port, "port", "p", "50051", "port number to serve on (HOST:PORT also accepted, e.g. 127.0.0.1:50051)")
	fl.StringVar(&f.httpAddr, "http-addr", "", "also serve the catalog over the OLM v1 HTTP API (/api/v1/all, /api/v1/metas) on this HOST:PORT (off when empty)")
	fl.StringVarP(&f.terminationLog, "termination-log", "t", "/dev/termination-log", "path to a container termination log file, which receives the error that stops the server")
	fl.StringVar(&f.pprofAddr, "pprof-addr", "", "address of a profiling endpoint (addr:port format); off when empty")
	fl.BoolVar(&f.pprofCapture, "pprof-capture-profiles", false, "capture a CPU profile of startup, served at /debug/pprof/startup/cpu on --pprof-addr")
	fl.StringVar(&f.cacheDir, "cache-dir", "", "accepted for compatibility: no cache is needed; with --cache-only the directory is created")
	fl.BoolVar(&f.cacheOnly, "cache-only", false, "load and validate the catalog as serve would, then exit without serving")
	fl.BoolVar(&f.cacheIntegrity, "cache-enforce-integrity", false, "accepted for compatibility: the catalog is always loaded from the source directory, so there is no cache to check")
	fl.BoolVar(&f.debug, "debug", false, "enable debug logging (every call)")
	addPlatformFlag(fl, &f.platform)
	return cmd
}

func runServe(cmd *cobra.Command, dir string, f *serveFlags) error {
	level := slog.LevelInfo
	if f.debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
	err := serveCatalog(cmd, log, dir, f)
	if err != nil {
		writeTerminationLog(f.terminationLog, cmd.Flags().Changed("termination-log"), err)
	}
	return err
}

func serveCatalog(cmd *cobra.Command, log *slog.Logger, src string, f *serveFlags) error {
	ctx := cmd.Context()
	if cmd.Flags().Changed("cache-enforce-integrity") && f.cacheIntegrity && f.cacheDir == "" {
		return usageError{errors.New("--cache-dir must be specified with --cache-enforce-integrity")}
	}
	var profile *serve.StartupProfile
	if f.pprofCapture {
		profile = serve.StartProfile()
		defer profile.Stop()
	}
	if f.pprofAddr != "" {
		stop, err := serve.StartPprof(f.pprofAddr, profile, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	what := render.Classify(src)
	fromImage := what.Kind == render.RefImage
	if err := checkDir(what); err != nil {
		return err
	}
	if !f.cacheOnly {
		// A busy address fails at once, not after the catalog loads
		// (which may take a while). It is let go again, so that the port
		// opens only once the catalog is served, as upstream's does: an
		// open port means a ready server.
		grpcL, httpL, err := listenServe(f)
		if err != nil {
			return err
		}
		closeAll(grpcL, httpL)
	}
	if !fromImage {
		return loadAndServe(ctx, log, os.DirFS(src), src, f, profile)
	}
	r := render.Renderer{Allowed: render.CatalogImage, Images: f.reg.imageOptions(cmd, f.platform)}
	err := r.OpenCatalog(ctx, src, func(fsys fs.FS, name string) error {
		return loadAndServe(ctx, log, fsys, name, f, profile)
	})
	if errors.Is(err, render.ErrNotAllowed) {
		return fmt.Errorf("%s is a bundle image: serve takes a file-based catalog directory or a catalog image", src)
	}
	return err
}

// loadAndServe loads the catalog in fsys (name is how positions in it
// start) and serves it until ctx ends; with --cache-only it stops after
// the load.
func loadAndServe(ctx context.Context, log *slog.Logger, fsys fs.FS, name string, f *serveFlags, profile *serve.StartupProfile) error {
	start := time.Now()
	cat, err := serve.Load(ctx, fsys, serve.LoadOptions{Name: name, Blobs: f.httpAddr != ""})
	if err != nil {
		if ctx.Err() != nil {
			log.Info("stopped before serving")
			return nil
		}
		return err
	}
	defer cat.Close()
	log.Info("catalog loaded", "configs", name, "packages", cat.Packages(), "bundles", cat.Bundles(), "duration", time.Since(start).Round(time.Millisecond))
	if f.cacheOnly {
		if f.cacheDir != "" {
			// Nothing to write: the directory exists so that Dockerfiles
			// copying it (as generate dockerfile's does) keep working.
			if err := os.MkdirAll(f.cacheDir, 0o755); err != nil {
				return fmt.Errorf("cache directory: %w", err)
			}
		}
		return nil
	}

	grpcL, httpL, err := listenServe(f)
	if err != nil {
		return err
	}
	srv := serve.NewServer(cat, serve.ServerOptions{Log: log})
	errs := make(chan error, 2)
	go func() { errs <- srv.ServeGRPC(grpcL) }()
	attrs := []any{"configs", name, "addr", grpcL.Addr().String()}
	if httpL != nil {
		go func() { errs <- srv.ServeHTTP(httpL) }()
		attrs = append(attrs, "http", httpL.Addr().String())
	}
	profile.Stop()
	log.Info("serving registry", attrs...)

	select {
	case err = <-errs:
		log.Error("server failed", "error", err)
	case <-ctx.Done():
		log.Info("shutting down server")
	}
	drain, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	srv.Shutdown(drain)
	return err
}

// listenServe listens on the gRPC address and, if set, the HTTP address.
func listenServe(f *serveFlags) (grpcL, httpL net.Listener, err error) {
	next := nextPort(listenAddr(f.port))
	if next != "" && !strings.Contains(f.port, ":") {
		next = next[strings.LastIndexByte(next, ':')+1:] // as given: a bare port
	}
	grpcL, err = listen(listenAddr(f.port), "", "-p/--port", "-p "+next)
	if err != nil {
		return nil, nil, err
	}
	if f.httpAddr != "" {
		if httpL, err = listen(f.httpAddr, " for the HTTP API", "--http-addr", "--http-addr "+nextPort(f.httpAddr)); err != nil {
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

// listen listens on addr, which flag sets; its error names the address
// and the flag that chooses another (example, if it names one, when the
// address is in use).
func listen(addr, what, flag, example string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err == nil {
		return l, nil
	}
	cause := err
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		cause = oe.Err
	}
	hint := "choose another address with " + flag
	if errors.Is(err, syscall.EADDRINUSE) {
		hint = "another process (a second opm serve?) is using it: stop it or " + hint
		if !strings.HasSuffix(example, " ") {
			hint += ", e.g. " + example
		}
	}
	return nil, fmt.Errorf("failed to listen%s on %s: %w; %s", what, addr, cause, hint)
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

// listenAddr turns --port into a listen address: a bare port listens on
// every interface, as upstream does.
func listenAddr(port string) string {
	if strings.Contains(port, ":") {
		return port
	}
	return ":" + port
}

// checkDir refuses a reference serve cannot take, in serve's words: it
// must be a catalog directory or a catalog image.
func checkDir(what render.Ref) error {
	dir := what.Name
	switch what.Kind {
	case render.RefMissing:
		if errors.Is(what.PathErr, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such catalog directory", declcfg.QuoteFileName(dir))
		}
		return what.PathErr
	case render.RefFile:
		return fmt.Errorf("%s is not a directory: serve takes a file-based catalog directory", declcfg.QuoteFileName(dir))
	case render.RefImage:
		return nil
	}
	return render.NotABundle(dir)
}

// terminationLogLimit is what Kubernetes keeps of a termination message.
const terminationLogLimit = 4096

// writeTerminationLog writes the error that stops the server where
// Kubernetes shows it as the container's termination message. The default
// path is written only if it exists (Kubernetes creates it), so that a
// failing serve outside a container leaves nothing behind.
func writeTerminationLog(path string, explicit bool, err error) {
	if path == "" {
		return
	}
	flags := os.O_WRONLY | os.O_TRUNC
	if explicit {
		flags |= os.O_CREATE
	}
	fh, oerr := os.OpenFile(path, flags, 0o644)
	if oerr != nil {
		return
	}
	defer fh.Close()
	msg := err.Error()
	if len(msg) > terminationLogLimit {
		const more = "\n... (the whole report is in the container log)"
		msg = msg[:terminationLogLimit-len(more)] + more
	}
	_, _ = io.WriteString(fh, msg+"\n")
}
