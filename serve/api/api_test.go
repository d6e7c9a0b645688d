package api

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// The tables below are the wire contract with OLM's operator-registry
// (reference §10.5). A failure here means clients would no longer
// understand opm serve: fix registry.proto, not the table.

func TestServices(t *testing.T) {
	const stream = true
	methods := []struct {
		service, method, in, out string
		serverStreaming          bool
	}{
		{"api.Registry", "ListPackages", "api.ListPackageRequest", "api.PackageName", stream},
		{"api.Registry", "GetPackage", "api.GetPackageRequest", "api.Package", !stream},
		{"api.Registry", "GetBundle", "api.GetBundleRequest", "api.Bundle", !stream},
		{"api.Registry", "GetBundleForChannel", "api.GetBundleInChannelRequest", "api.Bundle", !stream},
		{"api.Registry", "GetChannelEntriesThatReplace", "api.GetAllReplacementsRequest", "api.ChannelEntry", stream},
		{"api.Registry", "GetBundleThatReplaces", "api.GetReplacementRequest", "api.Bundle", !stream},
		{"api.Registry", "GetChannelEntriesThatProvide", "api.GetAllProvidersRequest", "api.ChannelEntry", stream},
		{"api.Registry", "GetLatestChannelEntriesThatProvide", "api.GetLatestProvidersRequest", "api.ChannelEntry", stream},
		{"api.Registry", "GetDefaultBundleThatProvides", "api.GetDefaultProviderRequest", "api.Bundle", !stream},
		{"api.Registry", "ListBundles", "api.ListBundlesRequest", "api.Bundle", stream},
		{"api.ExperimentalRegistry", "ExperimentalListPackageCustomSchemas", "api.ExperimentalListPackageCustomSchemasRequest", "google.protobuf.Struct", stream},
	}

	fd := File_registry_proto
	if fd.Package() != "api" {
		t.Fatalf("proto package = %q, want api", fd.Package())
	}
	if n := fd.Services().Len(); n != 2 {
		t.Errorf("file has %d services, want 2", n)
	}
	perService := map[string]int{}
	for _, m := range methods {
		perService[m.service]++
		svc := fd.Services().ByName(protoreflect.FullName(m.service).Name())
		if svc == nil || svc.FullName() != protoreflect.FullName(m.service) {
			t.Errorf("service %s missing", m.service)
			continue
		}
		md := svc.Methods().ByName(protoreflect.Name(m.method))
		if md == nil {
			t.Errorf("%s/%s missing", m.service, m.method)
			continue
		}
		if got := md.Input().FullName(); got != protoreflect.FullName(m.in) {
			t.Errorf("%s/%s input = %s, want %s", m.service, m.method, got, m.in)
		}
		if got := md.Output().FullName(); got != protoreflect.FullName(m.out) {
			t.Errorf("%s/%s output = %s, want %s", m.service, m.method, got, m.out)
		}
		if md.IsStreamingClient() || md.IsStreamingServer() != m.serverStreaming {
			t.Errorf("%s/%s streaming (client %v, server %v), want (false, %v)",
				m.service, m.method, md.IsStreamingClient(), md.IsStreamingServer(), m.serverStreaming)
		}
		wantDeprecated := m.method == "GetBundleForChannel"
		if got := md.Options().(*descriptorpb.MethodOptions).GetDeprecated(); got != wantDeprecated {
			t.Errorf("%s/%s deprecated = %v, want %v", m.service, m.method, got, wantDeprecated)
		}
	}
	for name, n := range perService {
		svc := fd.Services().ByName(protoreflect.FullName(name).Name())
		if svc != nil && svc.Methods().Len() != n {
			t.Errorf("%s has %d methods, want %d", name, svc.Methods().Len(), n)
		}
	}
	// The names the generated Go code registers with gRPC.
	if Registry_ServiceDesc.ServiceName != "api.Registry" || ExperimentalRegistry_ServiceDesc.ServiceName != "api.ExperimentalRegistry" {
		t.Errorf("service descriptors named %q and %q", Registry_ServiceDesc.ServiceName, ExperimentalRegistry_ServiceDesc.ServiceName)
	}
}

// wireField is one field of a message of registry.proto.
type wireField struct {
	message, field string
	number         protoreflect.FieldNumber
	typ            string // "string", a message name, or either prefixed by "[]" when repeated
}

// wireFields lists every field of every message of registry.proto.
var wireFields = []wireField{
	{"Channel", "name", 1, "string"},
	{"Channel", "csvName", 2, "string"},
	{"Channel", "deprecation", 3, "api.Deprecation"},
	{"PackageName", "name", 1, "string"},
	{"Package", "name", 1, "string"},
	{"Package", "channels", 2, "[]api.Channel"},
	{"Package", "defaultChannelName", 3, "string"},
	{"Package", "deprecation", 4, "api.Deprecation"},
	{"GroupVersionKind", "group", 1, "string"},
	{"GroupVersionKind", "version", 2, "string"},
	{"GroupVersionKind", "kind", 3, "string"},
	{"GroupVersionKind", "plural", 4, "string"},
	{"Dependency", "type", 1, "string"},
	{"Dependency", "value", 2, "string"},
	{"Property", "type", 1, "string"},
	{"Property", "value", 2, "string"},
	{"Bundle", "csvName", 1, "string"},
	{"Bundle", "packageName", 2, "string"},
	{"Bundle", "channelName", 3, "string"},
	{"Bundle", "csvJson", 4, "string"},
	{"Bundle", "object", 5, "[]string"},
	{"Bundle", "bundlePath", 6, "string"},
	{"Bundle", "providedApis", 7, "[]api.GroupVersionKind"},
	{"Bundle", "requiredApis", 8, "[]api.GroupVersionKind"},
	{"Bundle", "version", 9, "string"},
	{"Bundle", "skipRange", 10, "string"},
	{"Bundle", "dependencies", 11, "[]api.Dependency"},
	{"Bundle", "properties", 12, "[]api.Property"},
	{"Bundle", "replaces", 13, "string"},
	{"Bundle", "skips", 14, "[]string"},
	{"Bundle", "deprecation", 15, "api.Deprecation"},
	{"ChannelEntry", "packageName", 1, "string"},
	{"ChannelEntry", "channelName", 2, "string"},
	{"ChannelEntry", "bundleName", 3, "string"},
	{"ChannelEntry", "replaces", 4, "string"},
	{"GetPackageRequest", "name", 1, "string"},
	{"GetBundleRequest", "pkgName", 1, "string"},
	{"GetBundleRequest", "channelName", 2, "string"},
	{"GetBundleRequest", "csvName", 3, "string"},
	{"GetBundleInChannelRequest", "pkgName", 1, "string"},
	{"GetBundleInChannelRequest", "channelName", 2, "string"},
	{"GetAllReplacementsRequest", "csvName", 1, "string"},
	{"GetReplacementRequest", "csvName", 1, "string"},
	{"GetReplacementRequest", "pkgName", 2, "string"},
	{"GetReplacementRequest", "channelName", 3, "string"},
	{"GetAllProvidersRequest", "group", 1, "string"},
	{"GetAllProvidersRequest", "version", 2, "string"},
	{"GetAllProvidersRequest", "kind", 3, "string"},
	{"GetAllProvidersRequest", "plural", 4, "string"},
	{"GetLatestProvidersRequest", "group", 1, "string"},
	{"GetLatestProvidersRequest", "version", 2, "string"},
	{"GetLatestProvidersRequest", "kind", 3, "string"},
	{"GetLatestProvidersRequest", "plural", 4, "string"},
	{"GetDefaultProviderRequest", "group", 1, "string"},
	{"GetDefaultProviderRequest", "version", 2, "string"},
	{"GetDefaultProviderRequest", "kind", 3, "string"},
	{"GetDefaultProviderRequest", "plural", 4, "string"},
	{"Deprecation", "message", 1, "string"},
	{"ExperimentalListPackageCustomSchemasRequest", "schema", 1, "string"},
	{"ExperimentalListPackageCustomSchemasRequest", "packageName", 2, "string"},
}

// TestMessages checks the messages of registry.proto against wireFields.
func TestMessages(t *testing.T) {
	// Every message of the file, with its number of fields (the two
	// request messages without parameters have none).
	count := map[string]int{"ListPackageRequest": 0, "ListBundlesRequest": 0}
	for _, f := range wireFields {
		count[f.message]++
	}

	msgs := File_registry_proto.Messages()
	if msgs.Len() != len(count) {
		t.Errorf("file has %d messages, want %d", msgs.Len(), len(count))
	}
	for name, n := range count {
		md := msgs.ByName(protoreflect.Name(name))
		if md == nil {
			t.Errorf("message %s missing", name)
		} else if md.Fields().Len() != n {
			t.Errorf("message %s has %d fields, want %d", name, md.Fields().Len(), n)
		}
	}
	for _, f := range wireFields {
		if md := msgs.ByName(protoreflect.Name(f.message)); md != nil {
			checkWireField(t, md, f)
		}
	}
}

// checkWireField checks the field f of the message md: its number, its
// JSON name and its type.
func checkWireField(t *testing.T, md protoreflect.MessageDescriptor, f wireField) {
	t.Helper()
	fd := md.Fields().ByName(protoreflect.Name(f.field))
	if fd == nil {
		t.Errorf("%s.%s missing", f.message, f.field)
		return
	}
	if fd.Number() != f.number {
		t.Errorf("%s.%s = %d, want %d", f.message, f.field, fd.Number(), f.number)
	}
	// grpcurl and protojson show the JSON name; it must be the field name.
	if fd.JSONName() != f.field {
		t.Errorf("%s.%s has JSON name %q", f.message, f.field, fd.JSONName())
	}
	typ := fd.Kind().String()
	if fd.Message() != nil {
		typ = string(fd.Message().FullName())
	}
	if fd.HasOptionalKeyword() {
		typ = "optional " + typ
	}
	if fd.IsList() {
		typ = "[]" + typ
	}
	if typ != f.typ {
		t.Errorf("%s.%s has type %s, want %s", f.message, f.field, typ, f.typ)
	}
}

// TestWireBytes pins the encoding itself, independently of the descriptors.
func TestWireBytes(t *testing.T) {
	cases := []struct {
		name string
		msg  proto.Message
		want []byte
	}{{
		name: "Bundle",
		msg: &Bundle{
			CsvName:      "a",
			CsvJson:      "{}",
			Object:       []string{"o"},
			ProvidedApis: []*GroupVersionKind{{Kind: "K"}},
			Skips:        []string{"s"},
			Deprecation:  &Deprecation{Message: "m"},
		},
		want: []byte{
			0x0a, 1, 'a', // 1 csvName
			0x22, 2, '{', '}', // 4 csvJson
			0x2a, 1, 'o', // 5 object
			0x3a, 3, 0x1a, 1, 'K', // 7 providedApis{3 kind}
			0x72, 1, 's', // 14 skips
			0x7a, 3, 0x0a, 1, 'm', // 15 deprecation{1 message}
		},
	}, {
		name: "Package",
		msg: &Package{
			Name:               "p",
			Channels:           []*Channel{{Name: "c", CsvName: "b"}},
			DefaultChannelName: "c",
		},
		want: []byte{
			0x0a, 1, 'p', // 1 name
			0x12, 6, 0x0a, 1, 'c', 0x12, 1, 'b', // 2 channels{1 name, 2 csvName}
			0x1a, 1, 'c', // 3 defaultChannelName
		},
	}, {
		name: "ExperimentalListPackageCustomSchemasRequest",
		msg:  &ExperimentalListPackageCustomSchemasRequest{Schema: "s", PackageName: "p"},
		want: []byte{0x0a, 1, 's', 0x12, 1, 'p'},
	}}
	for _, c := range cases {
		got, err := proto.MarshalOptions{Deterministic: true}.Marshal(c.msg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s encodes as % x, want % x", c.name, got, c.want)
		}
	}
}
