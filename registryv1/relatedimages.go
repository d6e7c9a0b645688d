// The related images of a bundle's olm.bundle blob.

package registryv1

import (
	"encoding/json"
	"fmt"

	"github.com/fbcat/opm/declcfg"
	"github.com/fbcat/opm/encoding/value"
	"github.com/fbcat/opm/position"
)

// install is the part of a CSV's install strategy operator images come from.
type install struct {
	Strategy string `json:"strategy"`
	Spec     struct {
		Deployments []struct {
			Spec struct {
				Template struct {
					Spec struct {
						Containers     []struct{ Image string } `json:"containers"`
						InitContainers []struct{ Image string } `json:"initContainers"`
					} `json:"spec"`
				} `json:"template"`
			} `json:"spec"`
		} `json:"deployments"`
	} `json:"spec"`
}

// relatedImages lists the CSV's related images, then the bundle image and
// the images of the install deployments' containers that are not already
// listed, as upstream does (the caller sorts them).
func (b *Bundle) relatedImages(image string) ([]declcfg.RelatedImage, error) {
	var related []declcfg.RelatedImage
	if v := b.CSV.At("spec", "relatedImages"); v != nil && v.Kind != value.Null {
		var ris []struct {
			Name  string `json:"name"`
			Image string `json:"image"`
		}
		if err := json.Unmarshal(value.AppendKubernetesJSON(nil, v), &ris); err != nil {
			return nil, &position.Error{Err: fmt.Errorf("reading ClusterServiceVersion spec.relatedImages: %w", err)}
		}
		for _, ri := range ris {
			related = append(related, declcfg.RelatedImage{Name: ri.Name, Image: ri.Image})
		}
	}
	seen := map[string]bool{}
	for _, ri := range related {
		seen[ri.Image] = true
	}
	if image != "" && !seen[image] {
		related = append(related, declcfg.RelatedImage{Image: image})
	}
	if v := b.CSV.At("spec", "install"); v != nil && v.Kind != value.Null {
		var in install
		if err := json.Unmarshal(value.AppendKubernetesJSON(nil, v), &in); err != nil {
			return nil, &position.Error{Err: fmt.Errorf("reading ClusterServiceVersion spec.install: %w", err)}
		}
		if in.Strategy == "deployment" {
			for _, d := range in.Spec.Deployments {
				pod := d.Spec.Template.Spec
				for _, c := range append(pod.Containers, pod.InitContainers...) {
					if !seen[c.Image] {
						seen[c.Image] = true
						related = append(related, declcfg.RelatedImage{Image: c.Image})
					}
				}
			}
		}
	}
	return related, nil
}
