// The typed parts of a CSV that installing it needs: the deployment
// install strategy (deployments, permissions, cluster permissions) and the
// webhook definitions. The CSV keeps them raw (render only copies them);
// these types decode them on demand.
//
// Field names, tags and omitempty follow operator-framework/api v1alpha1
// and k8s.io/api rbac/v1, because OLM v1 names the roles it generates
// after a hash of the encoding/json form of a StrategyDeploymentPermissions.

package registryv1

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// StrategyDetailsDeployment is the spec of a CSV's "deployment" install
// strategy.
type StrategyDetailsDeployment struct {
	DeploymentSpecs    []StrategyDeploymentSpec        `json:"deployments"`
	Permissions        []StrategyDeploymentPermissions `json:"permissions,omitempty"`
	ClusterPermissions []StrategyDeploymentPermissions `json:"clusterPermissions,omitempty"`
}

// StrategyDeploymentSpec is one deployment the CSV installs: its name, the
// labels of the Deployment object and its spec, kept as written.
type StrategyDeploymentSpec struct {
	Name  string            `json:"name"`
	Spec  json.RawMessage   `json:"spec"`
	Label map[string]string `json:"label,omitempty"`
}

// StrategyDeploymentPermissions are the RBAC rules a service account of
// the operator needs.
type StrategyDeploymentPermissions struct {
	ServiceAccountName string       `json:"serviceAccountName"`
	Rules              []PolicyRule `json:"rules"`
}

// PolicyRule is an RBAC rule, as k8s.io/api rbac/v1 writes it.
type PolicyRule struct {
	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	ResourceNames   []string `json:"resourceNames,omitempty"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// The webhook types of a CSV's webhook definitions.
const (
	ValidatingAdmissionWebhook = "ValidatingAdmissionWebhook"
	MutatingAdmissionWebhook   = "MutatingAdmissionWebhook"
	ConversionWebhook          = "ConversionWebhook"
)

// WebhookDescription is one of a CSV's webhook definitions. The parts OLM
// copies into webhook configurations unread stay raw.
type WebhookDescription struct {
	GenerateName            string               `json:"generateName"`
	Type                    string               `json:"type"`
	DeploymentName          string               `json:"deploymentName,omitempty"`
	ContainerPort           int32                `json:"containerPort,omitempty"`
	TargetPort              json.RawMessage      `json:"targetPort,omitempty"`
	Rules                   []RuleWithOperations `json:"rules,omitempty"`
	FailurePolicy           json.RawMessage      `json:"failurePolicy,omitempty"`
	MatchPolicy             json.RawMessage      `json:"matchPolicy,omitempty"`
	ObjectSelector          json.RawMessage      `json:"objectSelector,omitempty"`
	SideEffects             json.RawMessage      `json:"sideEffects,omitempty"`
	TimeoutSeconds          json.RawMessage      `json:"timeoutSeconds,omitempty"`
	AdmissionReviewVersions []string             `json:"admissionReviewVersions"`
	ReinvocationPolicy      json.RawMessage      `json:"reinvocationPolicy,omitempty"`
	WebhookPath             *string              `json:"webhookPath,omitempty"`
	ConversionCRDs          []string             `json:"conversionCRDs,omitempty"`

	raw json.RawMessage // the definition as written
}

// Raw is the webhook definition as written.
func (w *WebhookDescription) Raw() json.RawMessage { return w.raw }

// RuleWithOperations is an admission webhook rule.
type RuleWithOperations struct {
	Operations  []string `json:"operations,omitempty"`
	APIGroups   []string `json:"apiGroups,omitempty"`
	APIVersions []string `json:"apiVersions,omitempty"`
	Resources   []string `json:"resources,omitempty"`
	Scope       *string  `json:"scope,omitempty"`
}

// DeploymentStrategy decodes the CSV's install strategy spec. A CSV
// without one has no deployments.
func (c *ClusterServiceVersion) DeploymentStrategy() (*StrategyDetailsDeployment, error) {
	var s StrategyDetailsDeployment
	if isNull(c.Spec.Install.Spec) {
		return &s, nil
	}
	if err := json.Unmarshal(c.Spec.Install.Spec, &s); err != nil {
		return nil, fmt.Errorf("reading ClusterServiceVersion spec.install.spec: %w", err)
	}
	return &s, nil
}

// Webhooks decodes the CSV's webhook definitions.
func (c *ClusterServiceVersion) Webhooks() ([]WebhookDescription, error) {
	if isNull(c.Spec.WebhookDefinitions) {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(c.Spec.WebhookDefinitions, &raws); err != nil {
		return nil, fmt.Errorf("reading ClusterServiceVersion spec.webhookdefinitions: %w", err)
	}
	whs := make([]WebhookDescription, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &whs[i]); err != nil {
			return nil, fmt.Errorf("reading ClusterServiceVersion spec.webhookdefinitions[%d]: %w", i, err)
		}
		whs[i].raw = raw
	}
	return whs, nil
}

// isNull reports whether raw JSON is absent or null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}
