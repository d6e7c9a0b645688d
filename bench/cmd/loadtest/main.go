// Command loadtest puts a running opm serve under concurrent load: N
// clients, each on its own connection, alternate GetBundleForChannel (of a
// random channel) and ListBundles (reading the whole stream) for a fixed
// time. The channels and their heads come from ListPackages and GetPackage
// at start; every answer is checked against them (the head bundle, the
// number of bundles listed), so a wrong answer counts as an error. It
// prints the calls, errors and p50/p99/max latency of each RPC and exits 1
// if there was any error.
//
//	loadtest [-c clients] [-d duration] ADDR
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fbcat/opm/serve/api"
)

// maxMsg bounds a received message: bundles without an image carry their
// manifests, which can exceed gRPC's default of 4 MB.
const maxMsg = 64 << 20

// callTimeout fails a call that hangs, rather than the whole run.
const callTimeout = 30 * time.Second

type channel struct{ pkg, name, head string }

// result is what one client saw of one RPC.
type result struct {
	latencies []time.Duration
	errors    int
	firstErr  error
}

func (r *result) record(start time.Time, err error) {
	r.latencies = append(r.latencies, time.Since(start))
	if err != nil {
		r.errors++
		if r.firstErr == nil {
			r.firstErr = err
		}
	}
}

func main() {
	clients := flag.Int("c", 50, "concurrent clients, each with its own connection")
	duration := flag.Duration("d", 20*time.Second, "how long to keep calling")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: loadtest [-c clients] [-d duration] ADDR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *clients < 1 {
		flag.Usage()
		os.Exit(2)
	}
	ok, err := run(flag.Arg(0), *clients, *duration)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func dial(addr string) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMsg)))
}

func run(addr string, clients int, duration time.Duration) (bool, error) {
	conn, err := dial(addr)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	ctx := context.Background()
	channels, err := listChannels(ctx, api.NewRegistryClient(conn))
	if err != nil {
		return false, err
	}
	if len(channels) == 0 {
		return false, errors.New("the catalog has no channels")
	}
	bundles, err := listBundles(ctx, api.NewRegistryClient(conn))
	if err != nil {
		return false, fmt.Errorf("ListBundles: %w", err)
	}
	fmt.Printf("loadtest: %d clients for %s against %s (%d channels, %d bundles listed)\n",
		clients, duration, addr, len(channels), bundles)

	heads, lists := make([]result, clients), make([]result, clients)
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	for i := range clients {
		c, err := dial(addr)
		if err != nil {
			return false, err
		}
		defer c.Close()
		client := api.NewRegistryClient(c)
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		wg.Go(func() {
			for n := 0; time.Now().Before(deadline); n++ {
				call, cancel := context.WithTimeout(ctx, callTimeout)
				start := time.Now()
				if (n+i)%2 == 0 {
					ch := channels[rng.IntN(len(channels))]
					heads[i].record(start, getHead(call, client, ch))
				} else {
					got, err := listBundles(call, client)
					if err == nil && got != bundles {
						err = fmt.Errorf("ListBundles streamed %d bundles, %d at start", got, bundles)
					}
					lists[i].record(start, err)
				}
				cancel()
			}
		})
	}
	wg.Wait()
	ok := report("GetBundleForChannel", heads)
	return report("ListBundles", lists) && ok, nil
}

// listChannels asks for every package, then every package's channels.
func listChannels(ctx context.Context, client api.RegistryClient) ([]channel, error) {
	stream, err := client.ListPackages(ctx, &api.ListPackageRequest{})
	if err != nil {
		return nil, fmt.Errorf("ListPackages: %w", err)
	}
	var names []string
	for {
		p, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("ListPackages: %w", err)
		}
		names = append(names, p.GetName())
	}
	var channels []channel
	for _, name := range names {
		p, err := client.GetPackage(ctx, &api.GetPackageRequest{Name: name})
		if err != nil {
			return nil, fmt.Errorf("GetPackage %s: %w", name, err)
		}
		for _, ch := range p.GetChannels() {
			channels = append(channels, channel{pkg: name, name: ch.GetName(), head: ch.GetCsvName()})
		}
	}
	return channels, nil
}

func getHead(ctx context.Context, client api.RegistryClient, ch channel) error {
	//lint:ignore SA1019 deprecated in the API, but OLM still calls it
	b, err := client.GetBundleForChannel(ctx, &api.GetBundleInChannelRequest{PkgName: ch.pkg, ChannelName: ch.name})
	if err != nil {
		return fmt.Errorf("GetBundleForChannel %s/%s: %w", ch.pkg, ch.name, err)
	}
	if b.GetCsvName() != ch.head || b.GetPackageName() != ch.pkg || b.GetChannelName() != ch.name {
		return fmt.Errorf("GetBundleForChannel %s/%s: got %s/%s/%s, want head %s",
			ch.pkg, ch.name, b.GetPackageName(), b.GetChannelName(), b.GetCsvName(), ch.head)
	}
	return nil
}

// listBundles reads a whole ListBundles stream and counts the bundles.
func listBundles(ctx context.Context, client api.RegistryClient) (int, error) {
	stream, err := client.ListBundles(ctx, &api.ListBundlesRequest{})
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		_, err := stream.Recv()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// report prints one RPC's line and the first error; it is false if any
// call failed.
func report(rpc string, results []result) bool {
	var all []time.Duration
	errs := 0
	var first error
	for _, r := range results {
		all = append(all, r.latencies...)
		errs += r.errors
		if first == nil {
			first = r.firstErr
		}
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(p*float64(len(all))))]
	}
	fmt.Printf("%-20s calls %7d  errors %d  p50 %8s  p99 %8s  max %8s\n", rpc, len(all), errs,
		ms(pct(0.50)), ms(pct(0.99)), ms(pct(1)))
	if first != nil {
		fmt.Printf("%-20s first error: %v\n", rpc, first)
	}
	return errs == 0
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}
