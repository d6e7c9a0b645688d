package serve

import (
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// encoded is a message already in its wire form, such as a bundle's
// ListBundles answer, encoded once and sent to every caller.
type encoded []byte

// codec is gRPC's protobuf codec, except that it sends encoded messages
// as they are.
type codec struct{ encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(encoded); ok {
		return mem.BufferSlice{mem.SliceBuffer(e)}, nil
	}
	return c.CodecV2.Marshal(v)
}
