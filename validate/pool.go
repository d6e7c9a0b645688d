package validate

import "sync"

// SchemaPool keeps the schemas a validation compiled for the next ones.
// Compiling the CUE schemas takes longer than checking a small catalog,
// and each validation compiles them once per file it checks at once: a
// command validating many catalogs, such as the catalog verbs (each
// catalog of a package as committed and as rendered), compiles them once
// per worker with a pool instead. A pool keeps the schemas of one
// Options.Schemas, the first validation's: validations with others
// compile their own. Safe for concurrent use; nil is no pool.
type SchemaPool struct {
	mu   sync.Mutex
	user *UserSchemas
	used bool // user is set
	free []*schemas
}

// holds reports whether the pool is for user's schemas, making it so if
// it is for none yet; p.mu is held.
func (p *SchemaPool) holds(user *UserSchemas) bool {
	if !p.used {
		p.user, p.used = user, true
	}
	return p.user == user
}

// NewSchemaPool returns an empty pool.
func NewSchemaPool() *SchemaPool { return &SchemaPool{} }

// take returns schemas from the pool, or newly compiled ones.
func (p *SchemaPool) take(user *UserSchemas) (*schemas, error) {
	if p != nil {
		p.mu.Lock()
		if n := len(p.free); n > 0 && p.holds(user) {
			s := p.free[n-1]
			p.free = p.free[:n-1]
			p.mu.Unlock()
			return s, nil
		}
		p.mu.Unlock()
	}
	return compile(user)
}

// give puts schemas of user's that no goroutine uses any more back into
// the pool.
func (p *SchemaPool) give(user *UserSchemas, ss []*schemas) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.holds(user) {
		p.free = append(p.free, ss...)
	}
	p.mu.Unlock()
}
