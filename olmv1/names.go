// How operator-controller names the objects it generates.

package olmv1

import (
	"crypto/sha256"
	"encoding/json"
	"math/big"
	"strings"
)

// maxNameLength is the length operator-controller fits generated names in.
const maxNameLength = 63

// nameWithSuffix joins base and suffix with "-", cutting base so that the
// whole fits in 63 characters, as operator-controller's
// ObjectNameForBaseAndSuffix does (a base and suffix of exactly 63
// characters together are not cut: the name is 64 long).
func nameWithSuffix(base, suffix string) string {
	if len(base)+len(suffix) > maxNameLength {
		base = base[:maxNameLength-len(suffix)-1]
	}
	return base + "-" + suffix
}

// deepHash is operator-controller's DeepHashObject: the SHA-224 of the
// object's encoding/json encoding (HTML escaped, with the encoder's final
// newline), written in base 36.
func deepHash(obj any) string {
	h := sha256.New224()
	if err := json.NewEncoder(h).Encode(obj); err != nil {
		panic("olmv1: hashing an object that cannot be encoded: " + err.Error())
	}
	var i big.Int
	i.SetBytes(h.Sum(nil))
	return i.Text(36)
}

// uniqueName is operator-controller's default unique name generator: the
// base and the hash of the object it names.
func uniqueName(base string, obj any) string {
	return nameWithSuffix(base, deepHash(obj))
}

// certNames are the names operator-controller gives the objects that
// serve a deployment's webhooks: the Service, and the certificate (and its
// secret). They keep OLM v0's names.
type certNames struct {
	service, cert string
}

// certNamesFor names the webhook objects of a deployment.
func certNamesFor(deployment string) certNames {
	service := nameWithSuffix(strings.ReplaceAll(deployment, ".", "-"), "service")
	return certNames{service: service, cert: nameWithSuffix(service, "cert")}
}

// issuer names the self-signed cert-manager Issuer of a certificate.
func (c certNames) issuer() string { return nameWithSuffix(c.cert, "selfsigned-issuer") }
