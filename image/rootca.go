package image

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"

	"github.com/fbcat/opm/internal/fserr"
)

// TransportWithRootCA is DefaultTransport trusting the certificates of
// the PEM file too (a private registry's CA).
func TransportWithRootCA(insecure bool, pemFile string) (http.RoundTripper, error) {
	data, err := os.ReadFile(pemFile)
	if err != nil {
		return nil, fmt.Errorf("root CA: %w", fserr.WithPath(err))
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("root CA %s holds no PEM certificate", pemFile)
	}
	t := DefaultTransport(insecure).(*http.Transport)
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	t.TLSClientConfig.RootCAs = pool
	return t, nil
}
