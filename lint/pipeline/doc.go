// Package pipeline holds the checks of the hosted pipeline that the
// community and certified catalog repositories run on every pull request
// (operator-pipelines' static tests: the common, community and isv
// suites), those that need no network, as lint rules of the same meaning:
// the same trigger, the same severity (the pipeline's Fail is an error,
// its Warn a warning) and a message that says the same thing, at the file
// and line that causes it. Every finding names the pipeline's check it
// stands for (finding.Finding.Check).
//
// The checks read an operator directory as the pipeline does (see
// Operator): its ci.yaml, its bundle directories, the catalogs its
// ci.yaml maps and the repository's config.yaml, which lint reads and
// hands over; the package reads only the configuration files it is
// pointed at (ReadConfig). Its rooms:
//   - operator.go: what a check is given, and the rules (Rules);
//   - config.go: the configuration files, read as PyYAML reads them;
//   - jsonschema.go, schemas/: the pipeline's JSON schemas and a
//     validator of the keywords they use;
//   - a file per check or pair of checks: operatorname.go,
//     releaseconfig.go, cischema.go, bundledir.go, requiredfields.go
//     (with pyvalue.go and isotime.go, how Python reads the values),
//     graph.go, minkube.go, fbccatalogs.go, certified.go.
package pipeline
