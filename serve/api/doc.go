// Package api holds the wire API of `opm serve`: the gRPC services
// api.Registry and api.ExperimentalRegistry and their messages, as OLM's
// operator-registry defines them. Catalog clients (OLM, grpcurl, the
// console) rely on every service, method, message and field name and every
// field number, so registry.proto must stay wire-compatible with upstream's
// pkg/api/registry.proto; api_test.go pins those facts.
//
// registry.proto is the source; registry.pb.go and registry_grpc.pb.go are
// generated from it and committed. After editing the .proto, regenerate with
//
//	make generate
//
// which runs hack/generate.sh: Debian's protoc 3.21.12 with protoc-gen-go
// v1.36.12 and protoc-gen-go-grpc v1.6.2 (installed into bin/tools). `make
// check-generated` fails when the committed code is stale.
//
// The package holds no server; it only describes the wire.
package api
