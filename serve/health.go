package serve

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// health implements grpc.health.v1.Health for the whole server: SERVING
// for any service name while the server runs (as upstream answers), and
// NOT_SERVING once it is shutting down, so that probes fail while calls
// drain. Watch streams end at shutdown so that they do not hold it up.
type health struct {
	healthpb.UnimplementedHealthServer
	mu       sync.Mutex
	stopping bool
	stopped  chan struct{}
}

func newHealth() *health { return &health{stopped: make(chan struct{})} }

func (h *health) status() healthpb.HealthCheckResponse_ServingStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopping {
		return healthpb.HealthCheckResponse_NOT_SERVING
	}
	return healthpb.HealthCheckResponse_SERVING
}

// shutdown reports NOT_SERVING from now on.
func (h *health) shutdown() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.stopping {
		h.stopping = true
		close(h.stopped)
	}
}

func (h *health) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	return &healthpb.HealthCheckResponse{Status: h.status()}, nil
}

func (h *health) List(context.Context, *healthpb.HealthListRequest) (*healthpb.HealthListResponse, error) {
	out := &healthpb.HealthListResponse{Statuses: map[string]*healthpb.HealthCheckResponse{}}
	for _, name := range []string{"", "api.Registry", "api.ExperimentalRegistry"} {
		out.Statuses[name] = &healthpb.HealthCheckResponse{Status: h.status()}
	}
	return out, nil
}

func (h *health) Watch(_ *healthpb.HealthCheckRequest, stream grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	if err := stream.Send(&healthpb.HealthCheckResponse{Status: h.status()}); err != nil {
		return err
	}
	select {
	case <-stream.Context().Done():
		return nil
	case <-h.stopped:
		return stream.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING})
	}
}
