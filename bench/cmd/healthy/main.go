// Command healthy measures how long a gRPC server takes to become healthy:
// it starts the command given, checks grpc.health.v1 on ADDR every 5 ms
// until the answer is SERVING, sends SIGTERM, and prints the time to
// healthy, the server's exit status and its peak RSS.
//
//	healthy ADDR COMMAND [ARG...]
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: healthy ADDR COMMAND [ARG...]")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "healthy:", err)
		os.Exit(1)
	}
}

func run(addr string, args []string) error {
	// Retry connecting every 5 ms: the default backoff (1 s and growing)
	// would be measured instead of the server.
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 5 * time.Millisecond, Multiplier: 1, MaxDelay: 5 * time.Millisecond},
			MinConnectTimeout: time.Second,
		}))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("server exited before it was healthy: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			break
		}
	}
	healthy := time.Since(start)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	err = <-exited
	rss := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss / 1024
	}
	fmt.Printf("healthy after %.2f s, peak RSS %d MB, exit after SIGTERM: %v\n", healthy.Seconds(), rss, exitStatus(err))
	return nil
}

func exitStatus(err error) string {
	if err == nil {
		return "0"
	}
	return err.Error()
}
