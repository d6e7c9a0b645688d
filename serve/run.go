package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/option"
	"github.com/fbcat/opm/render"
)

// RunOptions say what Run serves and how.
type RunOptions struct {
	// Source is a file-based catalog directory or a catalog image.
	Source string
	// Addr is where the gRPC API listens: a port (on every interface,
	// as upstream) or HOST:PORT. HTTPAddr, if set, is where the HTTP API
	// listens.
	Addr, HTTPAddr string
	// PprofAddr, if set, serves the runtime profiles; PprofCapture
	// profiles startup too (served at /debug/pprof/startup/cpu).
	PprofAddr    string
	PprofCapture bool
	// CacheOnly loads and checks the catalog, then returns: what a
	// catalog image's build runs. CacheDir, if set, is then created, for
	// Dockerfiles that copy it; no cache is needed. CacheIntegrity is
	// accepted for compatibility and needs CacheDir, as upstream's does.
	CacheOnly      bool
	CacheDir       string
	CacheIntegrity bool
	// Images pulls a catalog image.
	Images image.Options
	// Log receives what the server does (nil: nothing).
	Log *slog.Logger
}

// Validate checks the options before anything is read.
func (o RunOptions) Validate() error {
	if o.CacheIntegrity && o.CacheDir == "" {
		return option.Errorf(option.Conflict, "%s must be specified with %s", option.Name("serve.RunOptions.CacheDir"), option.Name("serve.RunOptions.CacheIntegrity"))
	}
	return nil
}

// drainTimeout bounds how long a stopping server waits for calls in
// flight (Kubernetes allows 30 s between SIGTERM and SIGKILL by default).
const drainTimeout = 20 * time.Second

// Run loads the catalog of o.Source and serves it until ctx ends: calls
// in flight finish, and Run returns nil. A busy address fails at once,
// before the catalog loads (which may take a while); it is let go again,
// so that the port opens only once the catalog is served, as upstream's
// does: an open port means a ready server.
func Run(ctx context.Context, o RunOptions) error {
	if err := o.Validate(); err != nil {
		return err
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	var profile *StartupProfile
	if o.PprofCapture {
		profile = StartProfile()
		defer profile.Stop()
	}
	if o.PprofAddr != "" {
		stop, err := StartPprof(o.PprofAddr, profile, o.Log)
		if err != nil {
			return err
		}
		defer stop()
	}
	what := render.Classify(o.Source)
	if err := checkSource(what); err != nil {
		return err
	}
	if !o.CacheOnly {
		grpcL, httpL, err := o.listen()
		if err != nil {
			return err
		}
		closeAll(grpcL, httpL)
	}
	if what.Kind != render.RefImage {
		return o.loadAndServe(ctx, os.DirFS(o.Source), o.Source, profile)
	}
	r := render.Renderer{Allowed: render.CatalogImage, Images: o.Images}
	err := r.OpenCatalog(ctx, o.Source, func(fsys fs.FS, name string) error {
		return o.loadAndServe(ctx, fsys, name, profile)
	})
	if errors.Is(err, render.ErrNotAllowed) {
		return fmt.Errorf("%s is a bundle image: serve takes a file-based catalog directory or a catalog image", o.Source)
	}
	return err
}

// checkSource refuses a reference serve cannot take: it must be a
// catalog directory or a catalog image.
func checkSource(what render.Ref) error {
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

// loadAndServe loads the catalog in fsys (name is how positions in it
// start) and serves it until ctx ends; with CacheOnly it stops after the
// load.
func (o RunOptions) loadAndServe(ctx context.Context, fsys fs.FS, name string, profile *StartupProfile) error {
	start := time.Now()
	cat, err := Load(ctx, fsys, LoadOptions{Name: name, Blobs: o.HTTPAddr != ""})
	if err != nil {
		if ctx.Err() != nil {
			o.Log.Info("stopped before serving")
			return nil
		}
		return err
	}
	defer cat.Close()
	o.Log.Info("catalog loaded", "configs", name, "packages", cat.Packages(), "bundles", cat.Bundles(), "duration", time.Since(start).Round(time.Millisecond))
	if o.CacheOnly {
		if o.CacheDir != "" {
			// Nothing to write: the directory exists so that Dockerfiles
			// copying it (as generate dockerfile's does) keep working.
			if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
				return fmt.Errorf("cache directory: %w", err)
			}
		}
		return nil
	}
	grpcL, httpL, err := o.listen()
	if err != nil {
		return err
	}
	srv := NewServer(cat, ServerOptions{Log: o.Log})
	errs := make(chan error, 2)
	go func() { errs <- srv.ServeGRPC(grpcL) }()
	attrs := []any{"configs", name, "addr", grpcL.Addr().String()}
	if httpL != nil {
		go func() { errs <- srv.ServeHTTP(httpL) }()
		attrs = append(attrs, "http", httpL.Addr().String())
	}
	profile.Stop()
	o.Log.Info("serving registry", attrs...)
	select {
	case err = <-errs:
		o.Log.Error("server failed", "error", err)
	case <-ctx.Done():
		o.Log.Info("shutting down server")
	}
	drain, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	srv.Shutdown(drain)
	return err
}

// terminationLogLimit is what Kubernetes keeps of a termination message.
const terminationLogLimit = 4096

// WriteTerminationLog writes the error that stops the server where
// Kubernetes shows it as the container's termination message. The file
// is written only if it exists (Kubernetes creates it) unless create,
// so that a failing serve outside a container leaves nothing behind.
func WriteTerminationLog(path string, create bool, err error) {
	if path == "" {
		return
	}
	flags := os.O_WRONLY | os.O_TRUNC
	if create {
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
