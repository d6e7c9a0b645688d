package osdk

import (
	apivalidation "github.com/operator-framework/api/pkg/validation"
	interfaces "github.com/operator-framework/api/pkg/validation/interfaces"

	"github.com/fbcat/opm/lint/osdk/suites"
)

// validators are the validators each suite selects, in operator-sdk's order.
var validators = [2][]interfaces.Validator{
	//lint:ignore SA1019 name=operatorhub selects the deprecated validator, as the pipeline does
	suites.OperatorHub: {apivalidation.OperatorHubValidator},
	suites.OperatorFramework: {
		apivalidation.OperatorHubV2Validator,
		apivalidation.StandardCapabilitiesValidator,
		apivalidation.StandardCategoriesValidator,
		apivalidation.AlphaDeprecatedAPIsValidator,
		apivalidation.GoodPracticesValidator,
	},
}

// Validate runs what operator-sdk bundle validate runs on the bundle b
// with each suite, loading it once; c (nil for none) keeps the costly
// verdicts by file content across bundles.
func Validate(b *suites.Bundle, c *Cache) *suites.Result {
	l, err := load(b, c)
	if err != nil {
		return &suites.Result{Stopped: err}
	}
	res := &suites.Result{Default: l.defaultOutputs(b)}
	if err := l.csvConverts(); err != nil {
		return &suites.Result{Stopped: err}
	}
	objs := append(l.bundle.ObjectsToValidate(), map[string]string{k8sVersionKey: b.KubernetesVersion})
	for s, vs := range validators {
		for _, v := range vs {
			res.Optional[s] = append(res.Optional[s], l.outputs(v.Validate(objs...))...)
		}
	}
	return res
}

// k8sVersionKey is the optional value the suites read the Kubernetes
// version from.
const k8sVersionKey = "k8s-version"
