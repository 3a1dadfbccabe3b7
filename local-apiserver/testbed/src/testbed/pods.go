package main

// A stand-in Deployment and Job controller and kubelet for one machine (--run-pods): the pods of
// every Deployment and Job run as podman containers on the host's network, so that an operator's
// own Deployment rolls out for real and the Jobs it creates run. What it does, as the real ones do:
//   - Deployment: replicas pods, each a Pod object owned by the Deployment (labels of the
//     template plus pod-template-hash); a changed template replaces them (Recreate); the status
//     (replicas, updated, ready, available, observedGeneration, Available/Progressing) written.
//   - Job (jobs.go): pods up to parallelism until completions succeeded or backoffLimit failed;
//     the status (startTime, active, ready, succeeded, failed, the terminal conditions and
//     completionTime) written as the Job controller writes it.
//   - Pod: the container's image (never pulled), command, args and env (values and the downward
//     API's metadata.name/namespace, spec.serviceAccountName, spec.nodeName, status.podIP); the
//     ServiceAccount token at /var/run/secrets/kubernetes.io/serviceaccount (token, ca.crt,
//     namespace; the token appended to the token file); Secret and ConfigMap volumes read from
//     the API server (a missing one keeps the pod waiting, unless optional); emptyDirs as tmpfs;
//     securityContext (runAsUser, runAsNonRoot checked against the image's user,
//     readOnlyRootFilesystem, dropped capabilities, allowPrivilegeEscalation); the memory limit;
//     the startup, liveness and readiness probes (httpGet) with their periods, timeouts and
//     thresholds; restarts after failed probes or an exit; Events for each.
//   - Host network: every named container port gets a free host port, passed to the container
//     as <NAME>_PORT (Liberty's images read HTTP_PORT and HTTPS_PORT); probes and service
//     references (webhooks) reach the pod through them. Logs at pods/<name>/log (podLogs).
// Not done: other volume kinds, exec/tcp probes, init containers, resource requests, scheduling.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
)

const (
	runnerLabel = "testbed.mooring.dev/runner"
	hashLabel   = "pod-template-hash"
	saMount     = "/var/run/secrets/kubernetes.io/serviceaccount"
)

type podRunner struct {
	podman    string
	dir       string
	tokenFile string
	caFile    string
	apiPort   int
	client    kubernetes.Interface
	tokenMu   sync.Mutex
	mu        sync.Mutex
	pods      map[string]*runPod // namespace/name of the Pod objects it runs
}

// runPod is one pod's container and probe state; its fields are guarded by podRunner.mu.
type runPod struct {
	namespace, name string
	container       string
	ports           map[string]int // container port name, and number as text, to host port
	labels          map[string]string
	started, ready  bool
	restarts        int32
	running         bool
	restartPolicy   corev1.RestartPolicy
	terminated      bool  // the container exited and is not restarted (Never, or OnFailure with exit 0)
	exitCode        int32 // of the last exit
	exitedItself    bool  // the container's last end was its own exit (not a failed probe)
	waiting         string // reason while not running
	message         string
	lastProbe       string
	cancel          context.CancelFunc
}

func newPodRunner(podman, dir, tokenFile, caFile string, apiPort int) *podRunner {
	return &podRunner{podman: podman, dir: dir, tokenFile: tokenFile, caFile: caFile, apiPort: apiPort, pods: map[string]*runPod{}}
}

// run syncs Deployments and pods every second until ctx ends, then removes every container.
func (r *podRunner) run(ctx context.Context, cfg *rest.Config) error {
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	r.client = c
	must(os.MkdirAll(r.dir, 0o755))
	r.podmanRun("rm", "-f", "-t", "0", "--filter", "label=testbed.mooring.dev/dir="+r.dir) // a previous run's
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				r.mu.Lock()
				for _, p := range r.pods {
					p.cancel()
				}
				r.mu.Unlock()
				r.podmanRun("rm", "-f", "-t", "2", "--filter", "label=testbed.mooring.dev/dir="+r.dir)
				return
			case <-t.C:
				r.sync(ctx)
			}
		}
	}()
	return nil
}

func (r *podRunner) sync(ctx context.Context) {
	deployments, err := r.client.AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
	if err != nil {
		klog.V(2).Infof("pods: list deployments: %v", err)
		return
	}
	pods, err := r.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{LabelSelector: runnerLabel})
	if err != nil {
		klog.V(2).Infof("pods: list pods: %v", err)
		return
	}
	jobs, err := r.client.BatchV1().Jobs("").List(ctx, metav1.ListOptions{})
	if err != nil {
		klog.V(2).Infof("pods: list jobs: %v", err)
		return
	}
	owned := map[string][]*corev1.Pod{}
	for i := range pods.Items {
		p := &pods.Items[i]
		for _, o := range p.OwnerReferences {
			if o.Kind == "Deployment" || o.Kind == "Job" {
				owned[string(o.UID)] = append(owned[string(o.UID)], p)
			}
		}
	}
	for i := range deployments.Items {
		r.syncDeployment(ctx, &deployments.Items[i], owned[string(deployments.Items[i].UID)])
	}
	for i := range jobs.Items {
		r.syncJob(ctx, &jobs.Items[i], owned[string(jobs.Items[i].UID)])
	}
	seen := map[string]bool{}
	for i := range pods.Items {
		p := &pods.Items[i]
		key := p.Namespace + "/" + p.Name
		seen[key] = true
		r.mu.Lock()
		running := r.pods[key]
		r.mu.Unlock()
		finished := p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
		if running == nil && p.DeletionTimestamp == nil && !finished {
			r.start(ctx, p.DeepCopy())
		}
	}
	r.mu.Lock()
	var gone []*runPod
	for key, p := range r.pods {
		if !seen[key] {
			gone = append(gone, p)
			delete(r.pods, key)
		}
	}
	r.mu.Unlock()
	for _, p := range gone {
		p.cancel()
		go r.podmanRun("rm", "-f", "-t", "5", p.container)
	}
}

func templateHash(t *corev1.PodTemplateSpec) string {
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:10]
}

func (r *podRunner) syncDeployment(ctx context.Context, d *appsv1.Deployment, pods []*corev1.Pod) {
	hash := templateHash(&d.Spec.Template)
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	var current, old []*corev1.Pod
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if p.Labels[hashLabel] == hash {
			current = append(current, p)
		} else {
			old = append(old, p)
		}
	}
	for _, p := range old { // Recreate: the old template's pods go first
		_ = r.client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
	}
	for int32(len(current)) > want {
		last := current[len(current)-1]
		_ = r.client.CoreV1().Pods(last.Namespace).Delete(ctx, last.Name, metav1.DeleteOptions{})
		current = current[:len(current)-1]
	}
	if len(old) == 0 && d.DeletionTimestamp == nil {
		for i := int32(len(current)); i < want; i++ {
			r.createPod(ctx, d, hash)
		}
	}
	var ready int32
	for _, p := range current {
		r.mu.Lock()
		rp := r.pods[p.Namespace+"/"+p.Name]
		if rp != nil && rp.ready {
			ready++
		}
		r.mu.Unlock()
	}
	status := d.Status.DeepCopy()
	status.ObservedGeneration = d.Generation
	status.Replicas = int32(len(pods))
	status.UpdatedReplicas = int32(len(current))
	status.ReadyReplicas = ready
	status.AvailableReplicas = ready
	status.UnavailableReplicas = want - ready
	if status.UnavailableReplicas < 0 {
		status.UnavailableReplicas = 0
	}
	available := corev1.ConditionFalse
	if ready >= want {
		available = corev1.ConditionTrue
	}
	setDeploymentCondition(status, appsv1.DeploymentAvailable, available, "MinimumReplicasAvailable",
		fmt.Sprintf("%d of %d replicas ready", ready, want))
	setDeploymentCondition(status, appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable", "pods of template "+hash)
	if !deploymentStatusEqual(&d.Status, status) {
		copy := d.DeepCopy()
		copy.Status = *status
		if _, err := r.client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, copy, metav1.UpdateOptions{}); err != nil {
			klog.V(2).Infof("pods: status of deployment %s/%s: %v", d.Namespace, d.Name, err)
		}
	}
}

func setDeploymentCondition(s *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, message string) {
	now := metav1.Now()
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			if s.Conditions[i].Status != status {
				s.Conditions[i].LastTransitionTime = now
			}
			if s.Conditions[i].Status != status || s.Conditions[i].Message != message {
				s.Conditions[i].LastUpdateTime = now
			}
			s.Conditions[i].Status, s.Conditions[i].Reason, s.Conditions[i].Message = status, reason, message
			return
		}
	}
	s.Conditions = append(s.Conditions, appsv1.DeploymentCondition{Type: t, Status: status, Reason: reason, Message: message,
		LastUpdateTime: now, LastTransitionTime: now})
}

func deploymentStatusEqual(a, b *appsv1.DeploymentStatus) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Replicas != b.Replicas || a.UpdatedReplicas != b.UpdatedReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas || a.UnavailableReplicas != b.UnavailableReplicas ||
		len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := a.Conditions[i], b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Message != y.Message {
			return false
		}
	}
	return true
}

func (r *podRunner) createPod(ctx context.Context, d *appsv1.Deployment, hash string) {
	owner := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID}
	if _, err := r.client.CoreV1().Pods(d.Namespace).Create(ctx, runnerPod(&d.Spec.Template, d.Namespace, d.Name+"-"+hash+"-", owner,
		map[string]string{hashLabel: hash}), metav1.CreateOptions{}); err != nil {
		klog.Infof("pods: create a pod of %s/%s: %v", d.Namespace, d.Name, err)
	}
}

// runnerPod is a pod of template t, controlled by owner, for the runner to run (runnerLabel).
func runnerPod(t *corev1.PodTemplateSpec, namespace, generateName string, owner metav1.OwnerReference, extra map[string]string) *corev1.Pod {
	l := map[string]string{}
	for k, v := range t.Labels {
		l[k] = v
	}
	for k, v := range extra {
		l[k] = v
	}
	l[runnerLabel] = "podman"
	yes := true
	owner.Controller, owner.BlockOwnerDeletion = &yes, &yes
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{GenerateName: generateName, Namespace: namespace, Labels: l, Annotations: t.Annotations,
			OwnerReferences: []metav1.OwnerReference{owner}},
		Spec: *t.Spec.DeepCopy(),
	}
	p.Spec.NodeName = "testbed"
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = "default"
	}
	return p
}

// containerName is the podman name of pod p's container: unique to this testbed (its pods
// folder), so that two testbeds on one machine whose pods have the same namespace and name never
// remove or run each other's container.
func (r *podRunner) containerName(p *corev1.Pod) string {
	sum := sha256.Sum256([]byte(r.dir))
	return "tb-" + hex.EncodeToString(sum[:])[:8] + "-" + p.Namespace + "-" + p.Name
}

// start runs the pod's first container and its probes until the pod is deleted.
func (r *podRunner) start(parent context.Context, p *corev1.Pod) {
	ctx, cancel := context.WithCancel(parent)
	rp := &runPod{namespace: p.Namespace, name: p.Name, container: r.containerName(p), ports: map[string]int{},
		labels: p.Labels, cancel: cancel, waiting: "ContainerCreating", restartPolicy: p.Spec.RestartPolicy}
	r.mu.Lock()
	r.pods[p.Namespace+"/"+p.Name] = rp
	r.mu.Unlock()
	go r.live(ctx, p, rp)
}

func (r *podRunner) live(ctx context.Context, p *corev1.Pod, rp *runPod) {
	var args []string
	for {
		var err error
		args, err = r.prepare(ctx, p, rp)
		if err == nil {
			break
		}
		r.setWaiting(ctx, p, rp, "ContainerCreating", err.Error())
		r.event(ctx, p, "Warning", "FailedMount", err.Error())
		if !sleep(ctx, 2*time.Second) {
			return
		}
	}
	backoff := 2 * time.Second
	for ctx.Err() == nil {
		r.podmanRun("rm", "-f", "-t", "0", rp.container)
		if out, err := r.podmanRun(args...); err != nil {
			msg := strings.TrimSpace(out)
			r.setWaiting(ctx, p, rp, "CreateContainerError", msg)
			r.event(ctx, p, "Warning", "Failed", "podman run failed: "+msg)
		} else {
			r.event(ctx, p, "Normal", "Started", "Started container "+p.Spec.Containers[0].Name)
			r.mu.Lock()
			rp.running, rp.waiting, rp.message, rp.started, rp.ready, rp.exitedItself = true, "", "", false, false, false
			r.mu.Unlock()
			r.writeStatus(ctx, p, rp)
			reason := r.probe(ctx, p, rp)
			if ctx.Err() != nil {
				return
			}
			r.mu.Lock()
			// a Job's pod: an exit with 0 (or any exit under Never) ends it, Succeeded or Failed
			done := rp.exitedItself && rp.restartPolicy != corev1.RestartPolicyAlways && rp.restartPolicy != "" &&
				(rp.exitCode == 0 || rp.restartPolicy == corev1.RestartPolicyNever)
			if done {
				rp.running, rp.ready, rp.terminated = false, false, true
			} else {
				rp.running, rp.ready, rp.restarts = false, false, rp.restarts+1
				rp.waiting, rp.message = "CrashLoopBackOff", reason
			}
			r.mu.Unlock()
			r.writeStatus(ctx, p, rp)
			if done {
				r.event(ctx, p, "Normal", "Completed", fmt.Sprintf("Container %s exited with %d", p.Spec.Containers[0].Name, rp.exitCode))
				return
			}
			if reason == "" {
				backoff = 2 * time.Second
			}
		}
		if !sleep(ctx, backoff) {
			return
		}
		if backoff < 30*time.Second {
			backoff *= 2
		}
	}
}

// probe runs the probes while the container lives; it answers why the container is restarted.
func (r *podRunner) probe(ctx context.Context, p *corev1.Pod, rp *runPod) string {
	c := p.Spec.Containers[0]
	type state struct {
		probe    *corev1.Probe
		kind     string
		next     time.Time
		failures int32
	}
	startedAt := time.Now()
	var probes []*state
	for _, x := range []struct {
		p    *corev1.Probe
		kind string
	}{{c.StartupProbe, "Startup"}, {c.LivenessProbe, "Liveness"}, {c.ReadinessProbe, "Readiness"}} {
		if x.p != nil {
			probes = append(probes, &state{probe: x.p, kind: x.kind, next: startedAt.Add(time.Duration(x.p.InitialDelaySeconds) * time.Second)})
		}
	}
	r.mu.Lock()
	rp.started = c.StartupProbe == nil
	rp.ready = c.ReadinessProbe == nil && rp.started
	r.mu.Unlock()
	r.writeStatus(ctx, p, rp)
	for {
		if !sleep(ctx, 250*time.Millisecond) {
			return ""
		}
		if state, _ := r.podmanRun("inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", rp.container); !strings.HasPrefix(state, "running") {
			fields := strings.Fields(state)
			code := int32(-1)
			if len(fields) == 2 {
				if n, err := strconv.Atoi(fields[1]); err == nil {
					code = int32(n)
				}
			}
			r.mu.Lock()
			rp.exitCode, rp.exitedItself = code, true
			r.mu.Unlock()
			why := "the container exited (" + strings.TrimSpace(state) + "); last log lines: " + r.tail(rp.container, 10)
			if rp.restartPolicy == corev1.RestartPolicyAlways || rp.restartPolicy == "" || (code != 0 && rp.restartPolicy == corev1.RestartPolicyOnFailure) {
				r.event(ctx, p, "Warning", "BackOff", why)
			}
			return why
		}
		r.mu.Lock()
		started := rp.started
		r.mu.Unlock()
		changed := false
		for _, s := range probes {
			if time.Now().Before(s.next) || (s.kind != "Startup" && !started) || (s.kind == "Startup" && started) {
				continue
			}
			period := time.Duration(max32(s.probe.PeriodSeconds, 1)) * time.Second
			s.next = time.Now().Add(period)
			ok, answer := r.httpProbe(rp, s.probe)
			r.mu.Lock()
			rp.lastProbe = s.kind + " probe: " + answer
			r.mu.Unlock()
			threshold := max32(s.probe.FailureThreshold, 1)
			if ok {
				s.failures = 0
				r.mu.Lock()
				switch s.kind {
				case "Startup":
					changed, rp.started = !rp.started, true
					if c.ReadinessProbe == nil {
						rp.ready = true
					}
				case "Readiness":
					changed, rp.ready = changed || !rp.ready, true
				}
				r.mu.Unlock()
				continue
			}
			s.failures++
			r.event(ctx, p, "Warning", "Unhealthy", s.kind+" probe failed: "+answer)
			if s.failures < threshold {
				continue
			}
			switch s.kind {
			case "Readiness":
				r.mu.Lock()
				changed, rp.ready = changed || rp.ready, false
				r.mu.Unlock()
			default:
				why := fmt.Sprintf("%s probe failed %d times: %s; last log lines: %s", s.kind, s.failures, answer, r.tail(rp.container, 10))
				r.event(ctx, p, "Normal", "Killing", "Container "+c.Name+" failed its "+strings.ToLower(s.kind)+" probe, will be restarted")
				return why
			}
		}
		if changed {
			r.writeStatus(ctx, p, rp)
		}
	}
}

func max32(v, least int32) int32 {
	if v < least {
		return least
	}
	return v
}

func (r *podRunner) httpProbe(rp *runPod, probe *corev1.Probe) (bool, string) {
	if probe.HTTPGet == nil {
		return false, "only httpGet probes are run here"
	}
	port, ok := r.hostPort(rp, probe.HTTPGet.Port)
	if !ok {
		return false, "no container port " + probe.HTTPGet.Port.String()
	}
	scheme := "http"
	if probe.HTTPGet.Scheme == corev1.URISchemeHTTPS {
		scheme = "https"
	}
	timeout := time.Duration(max32(probe.TimeoutSeconds, 1)) * time.Second
	client := &http.Client{Timeout: timeout}
	url := fmt.Sprintf("%s://127.0.0.1:%d%s", scheme, port, probe.HTTPGet.Path)
	resp, err := client.Get(url)
	if err != nil {
		return false, "GET " + probe.HTTPGet.Path + ": " + err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 400))
	answer := fmt.Sprintf("GET %s: HTTP %d %s", probe.HTTPGet.Path, resp.StatusCode, strings.Join(strings.Fields(string(body)), " "))
	return resp.StatusCode >= 200 && resp.StatusCode < 400, answer
}

func (r *podRunner) hostPort(rp *runPod, port intstr.IntOrString) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := rp.ports[port.String()]
	return p, ok
}

// prepare writes the pod's files and returns the arguments of podman run.
func (r *podRunner) prepare(ctx context.Context, p *corev1.Pod, rp *runPod) ([]string, error) {
	c := p.Spec.Containers[0]
	dir := filepath.Join(r.dir, p.Namespace+"_"+p.Name)
	args := []string{"run", "-d", "--name", rp.container, "--runtime", "runc", "--cgroup-manager=cgroupfs",
		"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024", "--network", "host", "--pull", "never",
		"--label", "testbed.mooring.dev/dir=" + r.dir, "--label", "testbed.mooring.dev/pod=" + p.Namespace + "/" + p.Name}
	if p.Spec.AutomountServiceAccountToken == nil || *p.Spec.AutomountServiceAccountToken {
		token, err := r.token(p.Namespace, p.Spec.ServiceAccountName)
		if err != nil {
			return nil, err
		}
		ca, err := os.ReadFile(r.caFile)
		if err != nil {
			return nil, err
		}
		sa := filepath.Join(dir, "serviceaccount")
		if err := writeFiles(sa, map[string][]byte{"token": []byte(token), "ca.crt": ca, "namespace": []byte(p.Namespace)}); err != nil {
			return nil, err
		}
		args = append(args, "-v", sa+":"+saMount+":ro")
	}
	volumes := map[string]corev1.Volume{}
	for _, v := range p.Spec.Volumes {
		volumes[v.Name] = v
	}
	for _, m := range c.VolumeMounts {
		v, ok := volumes[m.Name]
		if !ok {
			return nil, fmt.Errorf("volume mount %s names no volume", m.Name)
		}
		switch {
		case v.EmptyDir != nil:
			args = append(args, "--mount", "type=tmpfs,destination="+m.MountPath+",tmpfs-mode=1777")
		case v.Secret != nil || v.ConfigMap != nil:
			files, err := r.volumeFiles(ctx, p.Namespace, v)
			if err != nil {
				return nil, err
			}
			path := filepath.Join(dir, "volumes", v.Name)
			if err := writeFiles(path, files); err != nil {
				return nil, err
			}
			args = append(args, "-v", path+":"+m.MountPath+":ro")
		default:
			return nil, fmt.Errorf("volume %s: only emptyDir, secret and configMap volumes are run here", v.Name)
		}
	}
	env := []string{"KUBERNETES_SERVICE_HOST=127.0.0.1", "KUBERNETES_SERVICE_PORT=" + strconv.Itoa(r.apiPort)}
	for _, port := range c.Ports {
		free, err := freePort()
		if err != nil {
			return nil, err
		}
		r.mu.Lock()
		rp.ports[strconv.Itoa(int(port.ContainerPort))] = free
		if port.Name != "" {
			rp.ports[port.Name] = free
		}
		r.mu.Unlock()
		if port.Name != "" {
			env = append(env, strings.ToUpper(strings.ReplaceAll(port.Name, "-", "_"))+"_PORT="+strconv.Itoa(free))
		}
	}
	for _, e := range c.Env {
		value := e.Value
		if e.ValueFrom != nil {
			if e.ValueFrom.FieldRef == nil {
				return nil, fmt.Errorf("env %s: only values and fieldRefs are run here", e.Name)
			}
			switch e.ValueFrom.FieldRef.FieldPath {
			case "metadata.name":
				value = p.Name
			case "metadata.namespace":
				value = p.Namespace
			case "spec.serviceAccountName":
				value = p.Spec.ServiceAccountName
			case "spec.nodeName":
				value = p.Spec.NodeName
			case "status.podIP", "status.hostIP":
				value = "127.0.0.1"
			default:
				return nil, fmt.Errorf("env %s: the field %s is not resolved here", e.Name, e.ValueFrom.FieldRef.FieldPath)
			}
		}
		env = append(env, e.Name+"="+value)
	}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	sc := c.SecurityContext
	psc := p.Spec.SecurityContext
	var user *int64
	nonRoot := false
	if psc != nil {
		user = psc.RunAsUser
		nonRoot = psc.RunAsNonRoot != nil && *psc.RunAsNonRoot
	}
	if sc != nil {
		if sc.RunAsUser != nil {
			user = sc.RunAsUser
		}
		if sc.RunAsNonRoot != nil {
			nonRoot = *sc.RunAsNonRoot
		}
		if sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem {
			args = append(args, "--read-only")
		}
		if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
			args = append(args, "--security-opt", "no-new-privileges")
		}
		if sc.Capabilities != nil {
			for _, cap := range sc.Capabilities.Drop {
				args = append(args, "--cap-drop", string(cap))
			}
		}
	}
	if user != nil {
		args = append(args, "--user", strconv.FormatInt(*user, 10))
	} else if nonRoot {
		imageUser, _ := r.podmanRun("image", "inspect", "-f", "{{.Config.User}}", c.Image)
		u := strings.TrimSpace(imageUser)
		if u == "" || u == "0" || u == "root" || strings.HasPrefix(u, "0:") || strings.HasPrefix(u, "root:") {
			return nil, fmt.Errorf("container has runAsNonRoot and image %s will run as root (user %q)", c.Image, u)
		}
	}
	if limit, ok := c.Resources.Limits[corev1.ResourceMemory]; ok {
		args = append(args, "--memory", strconv.FormatInt(limit.Value(), 10))
	}
	if len(c.Command) > 0 {
		args = append(args, "--entrypoint", c.Command[0])
	}
	args = append(args, c.Image)
	if len(c.Command) > 1 {
		args = append(args, c.Command[1:]...)
	}
	return append(args, c.Args...), nil
}

func (r *podRunner) volumeFiles(ctx context.Context, namespace string, v corev1.Volume) (map[string][]byte, error) {
	files := map[string][]byte{}
	if v.Secret != nil {
		s, err := r.client.CoreV1().Secrets(namespace).Get(ctx, v.Secret.SecretName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) && v.Secret.Optional != nil && *v.Secret.Optional {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("MountVolume.SetUp failed for volume %q: secret %q: %v", v.Name, v.Secret.SecretName, err)
		}
		for k, b := range s.Data {
			files[k] = b
		}
		return files, nil
	}
	m, err := r.client.CoreV1().ConfigMaps(namespace).Get(ctx, v.ConfigMap.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) && v.ConfigMap.Optional != nil && *v.ConfigMap.Optional {
		return files, nil
	}
	if err != nil {
		return nil, fmt.Errorf("MountVolume.SetUp failed for volume %q: configmap %q: %v", v.Name, v.ConfigMap.Name, err)
	}
	for k, s := range m.Data {
		files[k] = []byte(s)
	}
	for k, b := range m.BinaryData {
		files[k] = b
	}
	return files, nil
}

// token answers the ServiceAccount's token, appended to the token file on first use (as run.sh token does).
func (r *podRunner) token(namespace, account string) (string, error) {
	r.tokenMu.Lock()
	defer r.tokenMu.Unlock()
	user := "system:serviceaccount:" + namespace + ":" + account
	content, err := os.ReadFile(r.tokenFile)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(content), "\n") {
		fields := strings.Split(line, ",")
		if len(fields) > 1 && fields[1] == user {
			return fields[0], nil
		}
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b)
	f, err := os.OpenFile(r.tokenFile, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%s,%s,%s,\"system:serviceaccounts,system:serviceaccounts:%s,system:authenticated\"\n", token, user, user, namespace)
	return token, err
}

func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, content := range files {
		if strings.Contains(name, "/") || name == ".." {
			return fmt.Errorf("key %q is not a file name", name)
		}
		// readable by the container's user, whoever it is (the kubelet's defaultMode is 0644)
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

func (r *podRunner) podmanRun(args ...string) (string, error) {
	out, err := exec.Command(r.podman, args...).CombinedOutput()
	return string(out), err
}

func (r *podRunner) tail(container string, lines int) string {
	out, _ := r.podmanRun("logs", "--tail", strconv.Itoa(lines), container)
	return strings.Join(strings.Fields(out), " ")
}

func (r *podRunner) setWaiting(ctx context.Context, p *corev1.Pod, rp *runPod, reason, message string) {
	r.mu.Lock()
	rp.waiting, rp.message, rp.running = reason, message, false
	r.mu.Unlock()
	r.writeStatus(ctx, p, rp)
}

func (r *podRunner) writeStatus(ctx context.Context, p *corev1.Pod, rp *runPod) {
	r.mu.Lock()
	cs := corev1.ContainerStatus{Name: p.Spec.Containers[0].Name, Image: p.Spec.Containers[0].Image, Ready: rp.ready,
		RestartCount: rp.restarts, Started: &rp.started}
	if rp.terminated {
		reason := "Completed"
		if rp.exitCode != 0 {
			reason = "Error"
		}
		cs.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: rp.exitCode, Reason: reason, FinishedAt: metav1.Now()}
	} else if rp.running {
		cs.State.Running = &corev1.ContainerStateRunning{StartedAt: metav1.Now()}
	} else {
		cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: rp.waiting, Message: rp.message}
	}
	ready := corev1.ConditionFalse
	if rp.ready {
		ready = corev1.ConditionTrue
	}
	phase := corev1.PodPending
	switch {
	case rp.terminated && rp.exitCode == 0:
		phase = corev1.PodSucceeded
	case rp.terminated:
		phase = corev1.PodFailed
	case rp.running || rp.restarts > 0:
		phase = corev1.PodRunning
	}
	status := corev1.PodStatus{Phase: phase, PodIP: "127.0.0.1", HostIP: "127.0.0.1", ContainerStatuses: []corev1.ContainerStatus{cs},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready, Message: rp.lastProbe},
			{Type: corev1.ContainersReady, Status: ready}}}
	r.mu.Unlock()
	for attempt := 0; attempt < 3; attempt++ {
		current, err := r.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			return
		}
		current.Status = status
		if _, err = r.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, current, metav1.UpdateOptions{}); err == nil || !apierrors.IsConflict(err) {
			return
		}
	}
}

func (r *podRunner) event(ctx context.Context, p *corev1.Pod, kind, reason, message string) {
	now := metav1.Now()
	if len(message) > 1000 {
		message = message[:1000]
	}
	_, err := r.client.CoreV1().Events(p.Namespace).Create(ctx, &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{GenerateName: p.Name + "-", Namespace: p.Namespace},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID, APIVersion: "v1"},
		Reason:         reason, Message: message, Type: kind, FirstTimestamp: now, LastTimestamp: now, Count: 1,
		Source: corev1.EventSource{Component: "testbed-pods", Host: "testbed"},
	}, metav1.CreateOptions{})
	if err != nil {
		klog.Infof("pods: event for %s/%s: %v", p.Namespace, p.Name, err)
	}
}

// endpoint answers the host port behind a Service port: of a ready pod the runner runs that the
// Service selects, at the Service port's targetPort; false when there is none.
func (r *podRunner) endpoint(svc *corev1.Service, port int32) (int, bool) {
	var target intstr.IntOrString
	found := false
	for _, p := range svc.Spec.Ports {
		if p.Port == port {
			target, found = p.TargetPort, true
			if target.Type == intstr.Int && target.IntVal == 0 {
				target = intstr.FromInt32(p.Port)
			}
		}
	}
	if !found || len(svc.Spec.Selector) == 0 {
		return 0, false
	}
	selector := labels.SelectorFromSet(svc.Spec.Selector)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rp := range r.pods {
		if rp.namespace == svc.Namespace && rp.ready && selector.Matches(labels.Set(rp.labels)) {
			if hostPort, ok := rp.ports[target.String()]; ok {
				return hostPort, true
			}
		}
	}
	return 0, false
}

// podLogs serves GET /api/v1/namespaces/NS/pods/NAME/log[?tailLines=N] for the pods the runner
// runs (inside the handler chain: authenticated and authorized as pods/log); the rest passes on.
func podLogs(next http.Handler, r *podRunner) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
		if r == nil || req.Method != http.MethodGet || len(parts) != 7 || parts[0] != "api" || parts[1] != "v1" ||
			parts[2] != "namespaces" || parts[4] != "pods" || parts[6] != "log" {
			next.ServeHTTP(w, req)
			return
		}
		r.mu.Lock()
		rp := r.pods[parts[3]+"/"+parts[5]]
		r.mu.Unlock()
		if rp == nil {
			next.ServeHTTP(w, req)
			return
		}
		args := []string{"logs"}
		if n := req.URL.Query().Get("tailLines"); n != "" {
			if _, err := strconv.Atoi(n); err != nil {
				http.Error(w, "tailLines must be a number", http.StatusBadRequest)
				return
			}
			args = append(args, "--tail", n)
		}
		out, _ := r.podmanRun(append(args, rp.container)...)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, out)
	})
}
