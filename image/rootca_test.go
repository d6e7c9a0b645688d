package image_test

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/fbcat/opm/image"
	"github.com/fbcat/opm/image/imagetest"
	"github.com/fbcat/opm/internal/labels"
	"github.com/fbcat/opm/option"
)

// TestTransportWithRootCA: a registry whose certificate a private CA
// signed is trusted once that CA is given, and not before. The registry
// listens on loopback; the transports dial it for registry.test.
func TestTransportWithRootCA(t *testing.T) {
	imagetest.IsolateAuth(t)
	srv := httptest.NewUnstartedServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
	srv.StartTLS()
	defer srv.Close()
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	// httptest's certificate is for example.com (and 127.0.0.1).
	ref := "example.com/ca:1"
	trusted := srv.Client().Transport.(*http.Transport).Clone()
	trusted.DialContext = dial
	imagetest.Push(t, ref, imagetest.Image(t, map[string]string{labels.Package: "p"}, nil), remote.WithTransport(trusted))

	dir := t.TempDir()
	pemFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := image.TransportWithRootCA(false, pemFile)
	if err != nil {
		t.Fatal(err)
	}
	tr.(*http.Transport).DialContext = dial
	img, err := image.Pull(context.Background(), ref, image.Options{Transport: tr})
	if err != nil || img.Labels[labels.Package] != "p" {
		t.Fatalf("pull with the CA: %v", err)
	}

	plain := image.DefaultTransport(false).(*http.Transport)
	plain.DialContext = dial
	_, err = image.Pull(context.Background(), ref, image.Options{Transport: plain})
	var oe *option.Error
	if !errors.As(err, &oe) || !slices.Contains(oe.Names(), image.OptionInsecure) {
		t.Errorf("pull without the CA: %v, want an option.Error naming Insecure", err)
	}

	insecure, err := image.TransportWithRootCA(true, pemFile)
	if err != nil || !insecure.(*http.Transport).TLSClientConfig.InsecureSkipVerify {
		t.Errorf("insecure transport with a CA: %v", err)
	}
}

func TestTransportWithRootCAErrors(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.txt")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	for file, want := range map[string]string{
		missing: "root CA: " + missing + ": ",
		notPEM:  "root CA " + notPEM + " holds no PEM certificate",
	} {
		if _, err := image.TransportWithRootCA(false, file); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", file, err, want)
		}
	}
}
