package main

import (
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/fbcat/opm/serve"
)

func newServeCmd(reg *registryFlags) *cobra.Command {
	var o serve.RunOptions
	var terminationLog string
	var debug bool
	var platform platformFlag
	cmd := &cobra.Command{
		Use:               "serve <source_path | catalog image>",
		Short:             "Serve a file-based catalog over gRPC (and HTTP)",
		Args:              exactArgs(1),
		ValidArgsFunction: completeDirs,
		// SIGINT and SIGTERM stop serving: calls in flight finish, exit 0.
		Annotations: map[string]string{stopGracefully: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := check(o); err != nil {
				return err
			}
			level := slog.LevelInfo
			if debug {
				level = slog.LevelDebug
			}
			o.Source, o.Images = args[0], reg.imageOptions(cmd, platform)
			o.Log = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
			err := serve.Run(cmd.Context(), o)
			if err != nil {
				serve.WriteTerminationLog(terminationLog, cmd.Flags().Changed("termination-log"), sayOptions(err))
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.Addr, "port", "p", "50051", "port number to serve on (HOST:PORT also accepted, e.g. 127.0.0.1:50051)")
	fl.StringVar(&o.HTTPAddr, "http-addr", "", "also serve the catalog over the OLM v1 HTTP API (/api/v1/all, /api/v1/metas) on this HOST:PORT (off when empty)")
	fl.StringVarP(&terminationLog, "termination-log", "t", "/dev/termination-log", "path to a container termination log file, which receives the error that stops the server")
	fl.StringVar(&o.PprofAddr, "pprof-addr", "", "address of a profiling endpoint (addr:port format); off when empty")
	fl.BoolVar(&o.PprofCapture, "pprof-capture-profiles", false, "capture a CPU profile of startup, served at /debug/pprof/startup/cpu on --pprof-addr")
	fl.StringVar(&o.CacheDir, "cache-dir", "", "accepted for compatibility: no cache is needed; with --cache-only the directory is created")
	fl.BoolVar(&o.CacheOnly, "cache-only", false, "load and validate the catalog as serve would, then exit without serving")
	fl.BoolVar(&o.CacheIntegrity, "cache-enforce-integrity", false, "accepted for compatibility: the catalog is always loaded from the source directory, so there is no cache to check")
	fl.BoolVar(&debug, "debug", false, "enable debug logging (every call)")
	addPlatformFlag(fl, &platform)
	return cmd
}
