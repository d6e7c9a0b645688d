package serve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	"github.com/fbcat/opm/serve/api"
)

// Server serves one catalog over gRPC and, if asked, HTTP.
type Server struct {
	log    *slog.Logger
	grpc   *grpc.Server
	health *health
	http   *http.Server
}

// ServerOptions configures NewServer.
type ServerOptions struct {
	// Log receives a record of every call at debug level (nil: none).
	Log *slog.Logger
}

// NewServer makes a server for c: the Registry and ExperimentalRegistry
// services, gRPC health and server reflection, and the HTTP API.
func NewServer(c *Catalog, opts ServerOptions) *Server {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{log: log, health: newHealth()}
	s.grpc = grpc.NewServer(
		grpc.ForceServerCodecV2(newCodec()),
		grpc.ChainUnaryInterceptor(s.logUnary),
		grpc.ChainStreamInterceptor(s.logStream),
	)
	api.RegisterRegistryServer(s.grpc, &registry{q: &c.queries})
	api.RegisterExperimentalRegistryServer(s.grpc, &experimental{c: c})
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	s.http = &http.Server{
		Handler:           c.HTTPHandler(),
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      5 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return s
}

// ServeGRPC answers gRPC calls on l until Shutdown.
func (s *Server) ServeGRPC(l net.Listener) error {
	return s.grpc.Serve(l)
}

// ServeHTTP answers the HTTP API on l until Shutdown.
func (s *Server) ServeHTTP(l net.Listener) error {
	if err := s.http.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown reports NOT_SERVING to health checks, stops accepting calls and
// waits for those in flight until ctx ends, then cuts them off.
func (s *Server) Shutdown(ctx context.Context) {
	s.health.shutdown()
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	_ = s.http.Shutdown(ctx)
	select {
	case <-done:
	case <-ctx.Done():
		s.grpc.Stop()
		<-done
	}
}

func (s *Server) logUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := handler(ctx, req)
	s.logCall(ctx, info.FullMethod, start, err)
	return resp, err
}

func (s *Server) logStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	start := time.Now()
	err := handler(srv, ss)
	s.logCall(ss.Context(), info.FullMethod, start, err)
	return err
}

func (s *Server) logCall(ctx context.Context, method string, start time.Time, err error) {
	if !s.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []any{"method", method, "code", status.Code(err).String(), "duration", time.Since(start)}
	if err != nil {
		attrs = append(attrs, "error", err)
	}
	s.log.DebugContext(ctx, "call", attrs...)
}
