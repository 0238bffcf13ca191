// Package deploy holds how selah is shipped: the container images
// (Dockerfile, postgres.Dockerfile), a Compose file for one host, Kubernetes
// manifests with KEDA worker autoscaling (k8s/), and deploy/setup.sh for a
// bare Debian machine. It has no Go code; its tests check that these files
// agree with each other and with the selah binary's command-line contract,
// since Docker and a cluster are not available where the tests run.
package deploy
