package declcfgtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var words = strings.Fields(`operator cluster manages deploys scales upgrades backups restores monitors
configures database cache queue stream storage network security policy certificate gateway mesh
observability metrics logging tracing pipeline workflow serverless function event broker registry
kubernetes openshift namespace resource custom controller reconcile status spec condition replica
high availability failover snapshot volume encryption authentication authorization tenant quota
endpoint secret credential template selector affinity toleration priority interval timeout retry`)

func word(r *rand.Rand) string { return words[r.IntN(len(words))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// camel is a field name of two words, as Kubernetes APIs name them.
func camel(r *rand.Rand) string { return word(r) + title(word(r)) }

func sentence(r *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = word(r)
	}
	return title(strings.Join(out, " ")) + "."
}

func paragraph(r *rand.Rand, sentences int) string {
	out := make([]string, sentences)
	for i := range out {
		out[i] = sentence(r, 6+r.IntN(14))
	}
	return strings.Join(out, " ")
}

// markdown is a description as operator authors write them: headings,
// paragraphs, bullet lists and a YAML example, so that it holds line
// breaks (written as YAML block scalars) and markup.
func markdown(r *rand.Rand, name string, sections int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## About %s\n\n%s\n", name, paragraph(r, 3+r.IntN(4)))
	for s := 0; s < sections; s++ {
		fmt.Fprintf(&b, "\n### %s\n\n", title(word(r))+" "+word(r))
		switch r.IntN(3) {
		case 0:
			for i := 0; i < 3+r.IntN(5); i++ {
				fmt.Fprintf(&b, "* **%s**: %s\n", title(word(r)), sentence(r, 8+r.IntN(12)))
			}
		case 1:
			fmt.Fprintf(&b, "```yaml\napiVersion: example.com/v1\nkind: %s\nmetadata:\n  name: %s\nspec:\n  replicas: %d\n  %s: %q\n```\n",
				title(word(r)), word(r), 1+r.IntN(5), camel(r), word(r))
		default:
			fmt.Fprintf(&b, "%s\n\n%s\n", paragraph(r, 2+r.IntN(4)), paragraph(r, 1+r.IntN(3)))
		}
	}
	fmt.Fprintf(&b, "\nFor more information, see the [documentation](https://docs.example.com/%s).", name)
	return b.String()
}

// randomBytes are incompressible bytes, like a PNG icon's.
func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		v := r.Uint64()
		for k := 0; k < 8; k++ {
			b[i+k] = byte(v >> (8 * k))
		}
	}
	return b
}
