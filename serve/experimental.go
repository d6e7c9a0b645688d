package serve

import (
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/fbcat/opm/serve/api"
)

// experimental implements api.ExperimentalRegistry: the blobs of schemas
// OLM does not interpret, by schema and package. A caller must
// acknowledge that the API is experimental with the request metadata
// x-acknowledge-experimental: true; otherwise the answer is empty.
type experimental struct {
	api.UnimplementedExperimentalRegistryServer
	c *Catalog
}

func (x *experimental) ExperimentalListPackageCustomSchemas(req *api.ExperimentalListPackageCustomSchemasRequest, stream grpc.ServerStreamingServer[structpb.Struct]) error {
	md, _ := metadata.FromIncomingContext(stream.Context())
	if v := md.Get("x-acknowledge-experimental"); len(v) == 0 || v[0] != "true" {
		return nil
	}
	schema, pkg := req.GetSchema(), req.GetPackageName()
	switch {
	case schema == "":
		return status.Error(codes.InvalidArgument, "schema is required")
	case !customName.MatchString(schema):
		return status.Errorf(codes.InvalidArgument, "invalid custom schema query: invalid schema %q: must match %s", schema, customName)
	case pkg != "" && !customName.MatchString(pkg):
		return status.Errorf(codes.InvalidArgument, "invalid custom schema query: invalid packageName %q: must match %s", pkg, customName)
	}
	for _, m := range x.c.model.Others[pkg] {
		if m.Schema != schema {
			continue
		}
		var s structpb.Struct
		if err := protojson.Unmarshal(m.Blob, &s); err != nil {
			return fmt.Errorf("%s:%d: %w", m.Pos.File, m.Pos.Line, err)
		}
		if err := stream.Send(&s); err != nil {
			return err
		}
	}
	return nil
}
