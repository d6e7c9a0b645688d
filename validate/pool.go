package validate

import (
	"cmp"
	"sync"

	"github.com/fbcat/opm/declcfg"
)

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

// lent are the schemas of one validation's workers: the first worker
// gets those compiled (or taken from the pool) to see that they compile,
// each later one its own. All go back to the pool when the catalog is
// loaded, when no worker checks anything any more.
type lent struct {
	pool  *SchemaPool
	user  *UserSchemas
	mu    sync.Mutex
	spare *schemas   // not yet given to a worker
	used  []*schemas // every one taken
	err   error      // the first that failed to compile
}

// lend takes the schemas of a validation's first worker.
func lend(pool *SchemaPool, user *UserSchemas) (*lent, error) {
	s, err := pool.take(user)
	if err != nil {
		return nil, err
	}
	return &lent{pool: pool, user: user, spare: s, used: []*schemas{s}}, nil
}

// checks gives a worker its schemas' checks (declcfg.WithQuickObjectCheck);
// a failure to compile is kept in l.err and the worker checks nothing.
func (l *lent) checks() (declcfg.ObjectCheck, declcfg.QuickCheck) {
	l.mu.Lock()
	s := l.spare
	l.spare = nil
	l.mu.Unlock()
	if s != nil {
		return s.check, s.quick
	}
	s, err := l.pool.take(l.user)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.err = cmp.Or(l.err, err)
		return func(*declcfg.Object) []*declcfg.Error { return nil }, nil
	}
	l.used = append(l.used, s)
	return s.check, s.quick
}

// giveBack puts the schemas into the pool once the workers are done.
func (l *lent) giveBack() { l.pool.give(l.user, l.used) }
