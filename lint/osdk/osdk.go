package osdk

import (
	apivalidation "github.com/operator-framework/api/pkg/validation"
	interfaces "github.com/operator-framework/api/pkg/validation/interfaces"
)

// suites are the validators each suite selects, in operator-sdk's order.
var suites = [2][]interfaces.Validator{
	//lint:ignore SA1019 name=operatorhub selects the deprecated validator, as the pipeline does
	OperatorHub: {apivalidation.OperatorHubValidator},
	OperatorFramework: {
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
func Validate(b *Bundle, c *Cache) *Result {
	l, err := load(b, c)
	if err != nil {
		return &Result{Stopped: err}
	}
	res := &Result{Default: l.defaultOutputs(b)}
	if err := l.csvConverts(); err != nil {
		return &Result{Stopped: err}
	}
	objs := append(l.bundle.ObjectsToValidate(), map[string]string{k8sVersionKey: b.KubernetesVersion})
	for s, validators := range suites {
		for _, v := range validators {
			res.Optional[s] = append(res.Optional[s], l.outputs(v.Validate(objs...))...)
		}
	}
	return res
}

// k8sVersionKey is the optional value the suites read the Kubernetes
// version from.
const k8sVersionKey = "k8s-version"
