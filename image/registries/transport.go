package registries

import (
	"crypto/tls"
	"net/http"
)

// SkipVerify is t with TLS verification off, for a registry or mirror
// that the configuration marks insecure. Only an *http.Transport can be
// changed; its copy is kept with the configuration, so that connections
// are reused from pull to pull. Other transports, and any transport of a
// nil configuration, are returned as they are.
func (c *Config) SkipVerify(t http.RoundTripper) http.RoundTripper {
	ht, ok := t.(*http.Transport)
	if !ok || c == nil {
		return t
	}
	if cl, ok := c.insecureTransports.Load(ht); ok {
		return cl.(*http.Transport)
	}
	cl := ht.Clone()
	if cl.TLSClientConfig == nil {
		cl.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	cl.TLSClientConfig.InsecureSkipVerify = true //nolint:gosec // registries.conf asks for it
	actual, _ := c.insecureTransports.LoadOrStore(ht, cl)
	return actual.(*http.Transport)
}
