module github.com/fbcat/opm

go 1.26.0

require (
	github.com/go-git/go-git/v5 v5.19.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.10
	go.yaml.in/yaml/v2 v2.4.5
	golang.org/x/text v0.43.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/go-git/gcfg v1.5.1-0.20230307220236-3a3c6141e376 // indirect
	github.com/go-git/go-billy/v5 v5.9.2 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jbenet/go-context v0.0.0-20150711004518-d14ea06fba99 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/net v0.57.0 // indirect
	gopkg.in/warnings.v0 v0.1.2 // indirect
)
