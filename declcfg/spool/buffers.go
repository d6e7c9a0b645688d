package spool

// Buffers keeps byte buffers for reuse for the life of what holds it.
// A sync.Pool is emptied at every garbage collection, and rendering a
// large catalog collects dozens of times: each new buffer was then grown
// again an append at a time, its pages faulted in afresh (rendering the
// real catalog's 58 MB package spent a third of its time in the kernel,
// most of it faulting in such pages).
type Buffers struct {
	free   chan *[]byte
	size   int // the capacity of a new buffer
	maxCap int // buffers grown larger are dropped, not kept
}

// NewBuffers keeps up to keep buffers, new ones of capacity size, and
// drops those grown past maxCap.
func NewBuffers(keep, size, maxCap int) *Buffers {
	return &Buffers{free: make(chan *[]byte, keep), size: size, maxCap: maxCap}
}

// Get returns a kept buffer, emptied, or a new one.
func (b *Buffers) Get() *[]byte {
	select {
	case buf := <-b.free:
		return buf
	default:
		buf := make([]byte, 0, b.size)
		return &buf
	}
}

// Put keeps buf for a later Get, unless enough are kept or it grew too
// large.
func (b *Buffers) Put(buf *[]byte) {
	if cap(*buf) > b.maxCap {
		return
	}
	*buf = (*buf)[:0]
	select {
	case b.free <- buf:
	default:
	}
}
