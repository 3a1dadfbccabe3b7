package main

// Unit tests of the pod runner (pods.go): a fake podman (a shell script that records its arguments
// and answers inspect from a file) and client-go's fake clientset, no API server, no container.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// fakePodman is a podman stand-in: every call is appended to calls; inspect answers the content of
// state ("running 0" when absent), image inspect the content of user, logs one line.
type fakePodman struct {
	dir string
}

func newFakePodman(t *testing.T) fakePodman {
	dir := t.TempDir()
	script := "#!/bin/sh\n" +
		"echo \"$*\" >> '" + dir + "/calls'\n" +
		"case \"$1\" in\n" +
		"  inspect) if [ -f '" + dir + "/state' ]; then cat '" + dir + "/state'; else echo 'running 0'; fi ;;\n" +
		"  image) cat '" + dir + "/user' 2>/dev/null ;;\n" +
		"  logs) echo 'the last line' ;;\n" +
		"esac\n"
	if err := os.WriteFile(filepath.Join(dir, "podman"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return fakePodman{dir: dir}
}

func (f fakePodman) path() string { return filepath.Join(f.dir, "podman") }

func (f fakePodman) answer(t *testing.T, file, content string) {
	if err := os.WriteFile(filepath.Join(f.dir, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f fakePodman) calls() string {
	b, _ := os.ReadFile(filepath.Join(f.dir, "calls"))
	return string(b)
}

// newTestRunner is a runner over the fake podman and a fake clientset holding objects; the fake
// clientset names created objects from their generateName, as the API server does.
func newTestRunner(t *testing.T, objects ...runtime.Object) (*podRunner, *fake.Clientset, fakePodman) {
	podman := newFakePodman(t)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.csv")
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(tokens, []byte("admin-token,admin,admin,\"system:masters\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ca, []byte("the CA"), 0o644); err != nil {
		t.Fatal(err)
	}
	client := fake.NewSimpleClientset(objects...)
	var generated int32
	client.PrependReactor("create", "*", func(action k8stesting.Action) (bool, runtime.Object, error) {
		object := action.(k8stesting.CreateAction).GetObject().(metav1.Object)
		if object.GetName() == "" && object.GetGenerateName() != "" {
			object.SetName(object.GetGenerateName() + strconv.Itoa(int(atomic.AddInt32(&generated, 1))))
		}
		return false, nil, nil
	})
	r := newPodRunner(podman.path(), filepath.Join(dir, "pods"), tokens, ca, 6443)
	r.client = client
	return r, client, podman
}

func replicas(n int32) *int32 { return &n }

func deployment(name string, n int32, image string) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: name, UID: "uid-" + "web", Generation: 3},
		Spec: appsv1.DeploymentSpec{Replicas: replicas(n), Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image}}},
		}},
	}
}

func pods(t *testing.T, client *fake.Clientset) []corev1.Pod {
	list, err := client.CoreV1().Pods("ops").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return list.Items
}

func podPointers(items []corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for i := range items {
		out = append(out, &items[i])
	}
	return out
}

func condition(status appsv1.DeploymentStatus, kind appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == kind {
			return &status.Conditions[i]
		}
	}
	return nil
}

func TestADeploymentGetsItsReplicasAsPodsOfItsTemplateAndItsStatusFollowsTheirReadiness(t *testing.T) {
	d := deployment("web", 2, "web:1")
	r, client, _ := newTestRunner(t, d)
	ctx := context.Background()

	r.syncDeployment(ctx, d, nil)
	created := pods(t, client)
	if len(created) != 2 {
		t.Fatalf("want 2 pods, got %d", len(created))
	}
	hash := templateHash(&d.Spec.Template)
	for _, p := range created {
		if p.Labels["app"] != "web" || p.Labels[hashLabel] != hash || p.Labels[runnerLabel] != "podman" {
			t.Errorf("labels of %s: %v", p.Name, p.Labels)
		}
		if !strings.HasPrefix(p.Name, "web-"+hash+"-") {
			t.Errorf("name %s: want the prefix web-%s-", p.Name, hash)
		}
		owner := p.OwnerReferences
		if len(owner) != 1 || owner[0].Kind != "Deployment" || owner[0].UID != d.UID || owner[0].Controller == nil || !*owner[0].Controller {
			t.Errorf("owner of %s: %+v", p.Name, owner)
		}
		if p.Spec.NodeName != "testbed" || p.Spec.ServiceAccountName != "default" {
			t.Errorf("node %q and service account %q of %s", p.Spec.NodeName, p.Spec.ServiceAccountName, p.Name)
		}
	}

	stored, _ := client.AppsV1().Deployments("ops").Get(ctx, "web", metav1.GetOptions{})
	r.syncDeployment(ctx, stored, podPointers(created))
	stored, _ = client.AppsV1().Deployments("ops").Get(ctx, "web", metav1.GetOptions{})
	if len(pods(t, client)) != 2 {
		t.Fatalf("a second pass created more pods: %d", len(pods(t, client)))
	}
	s := stored.Status
	if s.ObservedGeneration != 3 || s.Replicas != 2 || s.UpdatedReplicas != 2 || s.ReadyReplicas != 0 || s.UnavailableReplicas != 2 {
		t.Errorf("status with no pod ready: %+v", s)
	}
	if c := condition(s, appsv1.DeploymentAvailable); c == nil || c.Status != corev1.ConditionFalse || c.Message != "0 of 2 replicas ready" {
		t.Errorf("Available with no pod ready: %+v", c)
	}

	for _, p := range created {
		r.pods[p.Namespace+"/"+p.Name] = &runPod{namespace: p.Namespace, name: p.Name, ready: true}
	}
	r.syncDeployment(ctx, stored, podPointers(created))
	stored, _ = client.AppsV1().Deployments("ops").Get(ctx, "web", metav1.GetOptions{})
	if c := condition(stored.Status, appsv1.DeploymentAvailable); c == nil || c.Status != corev1.ConditionTrue || c.Message != "2 of 2 replicas ready" {
		t.Errorf("Available with both pods ready: %+v", c)
	}
	if stored.Status.AvailableReplicas != 2 || stored.Status.UnavailableReplicas != 0 {
		t.Errorf("status with both pods ready: %+v", stored.Status)
	}
}

func TestAChangedTemplateReplacesThePodsOldOnesFirst(t *testing.T) {
	d := deployment("web", 1, "web:1")
	r, client, _ := newTestRunner(t, d)
	ctx := context.Background()
	r.syncDeployment(ctx, d, nil)
	old := pods(t, client)

	changed := d.DeepCopy()
	changed.Spec.Template.Spec.Containers[0].Image = "web:2"
	r.syncDeployment(ctx, changed, podPointers(old))
	if left := pods(t, client); len(left) != 0 {
		t.Fatalf("the old template's pod is deleted before a new one is made (Recreate); left: %d", len(left))
	}
	r.syncDeployment(ctx, changed, nil)
	created := pods(t, client)
	if len(created) != 1 || created[0].Labels[hashLabel] != templateHash(&changed.Spec.Template) {
		t.Fatalf("one pod of the new template: %+v", created)
	}
}

func TestAScaledDownDeploymentLosesItsExtraPods(t *testing.T) {
	d := deployment("web", 3, "web:1")
	r, client, _ := newTestRunner(t, d)
	ctx := context.Background()
	r.syncDeployment(ctx, d, nil)
	d.Spec.Replicas = replicas(1)
	r.syncDeployment(ctx, d, podPointers(pods(t, client)))
	if left := pods(t, client); len(left) != 1 {
		t.Fatalf("want 1 pod after scaling down, got %d", len(left))
	}
}

// a pod with what prepare maps: command and args, env values and fieldRefs, a named port, an
// emptyDir, a ConfigMap volume, a missing optional Secret, the security context, a memory limit
func mappedPod() *corev1.Pod {
	yes, no := true, false
	user := int64(1001)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "web-1", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			ServiceAccountName: "operator", NodeName: "testbed",
			Volumes: []corev1.Volume{
				{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}}}},
				{Name: "certs", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "absent", Optional: &yes}}},
			},
			Containers: []corev1.Container{{
				Name: "main", Image: "web:1", Command: []string{"/bin/server", "run"}, Args: []string{"--verbose"},
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 9080}, {ContainerPort: 9443}},
				Env: []corev1.EnvVar{
					{Name: "MODE", Value: "fast"},
					{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
					{Name: "NS", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
					{Name: "IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}},
				},
				VolumeMounts: []corev1.VolumeMount{{Name: "scratch", MountPath: "/tmp"}, {Name: "config", MountPath: "/config"},
					{Name: "certs", MountPath: "/certs"}},
				SecurityContext: &corev1.SecurityContext{RunAsUser: &user, ReadOnlyRootFilesystem: &yes, AllowPrivilegeEscalation: &no,
					Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
				Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")}},
			}},
		},
	}
}

func contains(args []string, sequence ...string) bool {
	for i := 0; i+len(sequence) <= len(args); i++ {
		match := true
		for j, s := range sequence {
			if args[i+j] != s {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func TestPrepareMapsThePodToThePodmanRunArguments(t *testing.T) {
	settings := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "settings"}, Data: map[string]string{"app.yaml": "level: 3"}}
	r, _, _ := newTestRunner(t, settings)
	p := mappedPod()
	rp := &runPod{namespace: "ops", name: "web-1", container: r.containerName(p), ports: map[string]int{}}
	args, err := r.prepare(context.Background(), p, rp)
	if err != nil {
		t.Fatal(err)
	}
	http, ok := rp.ports["http"]
	if !ok || rp.ports["9080"] != http || rp.ports["9443"] == 0 {
		t.Fatalf("host ports by name and number: %v", rp.ports)
	}
	podDir := filepath.Join(r.dir, "ops_web-1")
	for _, want := range [][]string{
		{"run", "-d", "--name", rp.container},
		{"--network", "host"},
		{"--pull", "never"},
		{"-v", filepath.Join(podDir, "serviceaccount") + ":" + saMount + ":ro"},
		{"--mount", "type=tmpfs,destination=/tmp,tmpfs-mode=1777"},
		{"-v", filepath.Join(podDir, "volumes", "config") + ":/config:ro"},
		{"-v", filepath.Join(podDir, "volumes", "certs") + ":/certs:ro"},
		{"-e", "KUBERNETES_SERVICE_HOST=127.0.0.1"},
		{"-e", "KUBERNETES_SERVICE_PORT=6443"},
		{"-e", "HTTP_PORT=" + strconv.Itoa(http)},
		{"-e", "MODE=fast"},
		{"-e", "POD=web-1"},
		{"-e", "NS=ops"},
		{"-e", "IP=127.0.0.1"},
		{"--read-only"},
		{"--security-opt", "no-new-privileges"},
		{"--cap-drop", "ALL"},
		{"--user", "1001"},
		{"--memory", "536870912"},
		{"--entrypoint", "/bin/server", "web:1", "run", "--verbose"},
	} {
		if !contains(args, want...) {
			t.Errorf("podman run lacks %v: %v", want, args)
		}
	}
	if args[len(args)-1] != "--verbose" {
		t.Errorf("the container's args come last: %v", args)
	}
	if b, _ := os.ReadFile(filepath.Join(podDir, "volumes", "config", "app.yaml")); string(b) != "level: 3" {
		t.Errorf("the ConfigMap's key as a file: %q", b)
	}
	token, _ := os.ReadFile(filepath.Join(podDir, "serviceaccount", "token"))
	tokens, _ := os.ReadFile(r.tokenFile)
	if len(token) == 0 || !strings.Contains(string(tokens), string(token)+",system:serviceaccount:ops:operator,") {
		t.Errorf("the ServiceAccount's token %q is in the token file: %s", token, tokens)
	}
	if ns, _ := os.ReadFile(filepath.Join(podDir, "serviceaccount", "namespace")); string(ns) != "ops" {
		t.Errorf("the namespace file: %q", ns)
	}
}

func TestAPodWhoseVolumeIsMissingWaitsNamingIt(t *testing.T) {
	r, _, _ := newTestRunner(t)
	p := mappedPod()
	p.Spec.Volumes[1].ConfigMap.Optional = nil
	_, err := r.prepare(context.Background(), p, &runPod{ports: map[string]int{}})
	if err == nil || !strings.Contains(err.Error(), `MountVolume.SetUp failed for volume "config": configmap "settings"`) {
		t.Fatalf("a missing ConfigMap is named: %v", err)
	}
}

func TestRunAsNonRootIsCheckedAgainstTheImagesUser(t *testing.T) {
	r, _, podman := newTestRunner(t)
	p := mappedPod()
	p.Spec.Volumes, p.Spec.Containers[0].VolumeMounts = nil, nil
	yes := true
	p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{RunAsNonRoot: &yes}
	podman.answer(t, "user", "root\n")
	_, err := r.prepare(context.Background(), p, &runPod{ports: map[string]int{}})
	if err == nil || !strings.Contains(err.Error(), "container has runAsNonRoot and image web:1 will run as root") {
		t.Fatalf("an image of root is refused: %v", err)
	}
	podman.answer(t, "user", "1001\n")
	if _, err := r.prepare(context.Background(), p, &runPod{ports: map[string]int{}}); err != nil {
		t.Fatalf("an image of user 1001 runs: %v", err)
	}
	if !strings.Contains(podman.calls(), "image inspect -f {{.Config.User}} web:1") {
		t.Errorf("the image's user is asked of podman: %s", podman.calls())
	}
}

// probed is a container whose port 8080 is served by handler (the host port of an httptest server).
func probed(t *testing.T, handler http.HandlerFunc, container corev1.Container) (*podRunner, *fake.Clientset, fakePodman, *corev1.Pod, *runPod) {
	server := httptest.NewServer(handler)
	t.Cleanup(server.Close)
	address, _ := url.Parse(server.URL)
	port, _ := strconv.Atoi(address.Port())
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "web-1", UID: "uid-web-1"},
		Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, Containers: []corev1.Container{container}}}
	r, client, podman := newTestRunner(t, p.DeepCopy())
	rp := &runPod{namespace: "ops", name: "web-1", container: "c", ports: map[string]int{"8080": port}, running: true,
		restartPolicy: corev1.RestartPolicyAlways}
	r.pods["ops/web-1"] = rp
	return r, client, podman, p, rp
}

func httpProbe(path string, period, threshold int32) *corev1.Probe {
	return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt32(8080)}},
		PeriodSeconds: period, FailureThreshold: threshold}
}

func events(t *testing.T, client *fake.Clientset) string {
	list, err := client.CoreV1().Events("ops").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Type+" "+e.Reason+": "+e.Message)
	}
	return strings.Join(out, "\n")
}

func TestALivenessProbeFailingItsThresholdRestartsTheContainer(t *testing.T) {
	r, client, _, p, rp := probed(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, "not well")
	}, corev1.Container{Name: "main", Image: "web:1", LivenessProbe: httpProbe("/health", 1, 2)})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	why := r.probe(ctx, p, rp)
	if !strings.HasPrefix(why, "Liveness probe failed 2 times: GET /health: HTTP 500 not well; last log lines: the last line") {
		t.Fatalf("why the container is restarted: %q", why)
	}
	got := events(t, client)
	if !strings.Contains(got, "Warning Unhealthy: Liveness probe failed: GET /health: HTTP 500 not well") ||
		!strings.Contains(got, "Normal Killing: Container main failed its liveness probe, will be restarted") {
		t.Errorf("the Events of a failed liveness probe:\n%s", got)
	}
}

func TestAReadinessProbeMakesThePodReadyAndItsFailuresMakeItUnready(t *testing.T) {
	var healthy atomic.Bool
	healthy.Store(true)
	r, client, _, p, rp := probed(t, func(w http.ResponseWriter, _ *http.Request) {
		if !healthy.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}, corev1.Container{Name: "main", Image: "web:1", ReadinessProbe: httpProbe("/ready", 1, 1)})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan string, 1)
	go func() { done <- r.probe(ctx, p, rp) }()
	ready := func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return rp.ready
	}
	await(t, ctx, "ready", ready)
	stored, _ := client.CoreV1().Pods("ops").Get(ctx, "web-1", metav1.GetOptions{})
	if len(stored.Status.Conditions) == 0 || stored.Status.Conditions[0].Type != corev1.PodReady ||
		stored.Status.Conditions[0].Status != corev1.ConditionTrue || stored.Status.Phase != corev1.PodRunning {
		t.Errorf("the pod's status once ready: %+v", stored.Status)
	}
	healthy.Store(false)
	await(t, ctx, "unready", func() bool { return !ready() })
	cancel()
	if why := <-done; why != "" {
		t.Errorf("a readiness failure restarts nothing: %q", why)
	}
}

func TestAnExitedContainerIsReportedWithItsCodeAndBacksOff(t *testing.T) {
	r, client, podman, p, rp := probed(t, func(http.ResponseWriter, *http.Request) {},
		corev1.Container{Name: "main", Image: "web:1"})
	podman.answer(t, "state", "exited 3\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	why := r.probe(ctx, p, rp)
	if !strings.HasPrefix(why, "the container exited (exited 3); last log lines: the last line") || rp.exitCode != 3 || !rp.exitedItself {
		t.Fatalf("the exit, its code (%d) and why: %q", rp.exitCode, why)
	}
	if !strings.Contains(events(t, client), "Warning BackOff: the container exited (exited 3)") {
		t.Errorf("a BackOff Event: %s", events(t, client))
	}
}

func TestThePodStatusFollowsTheContainer(t *testing.T) {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "job-1"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "job:1"}}}}
	r, client, _ := newTestRunner(t, p.DeepCopy())
	ctx := context.Background()
	for _, c := range []struct {
		rp     runPod
		phase  corev1.PodPhase
		reason string
	}{
		{runPod{waiting: "ContainerCreating", message: "pulling"}, corev1.PodPending, "ContainerCreating"},
		{runPod{running: true, ready: true}, corev1.PodRunning, ""},
		{runPod{waiting: "CrashLoopBackOff", restarts: 2}, corev1.PodRunning, "CrashLoopBackOff"},
		{runPod{terminated: true, exitCode: 0}, corev1.PodSucceeded, "Completed"},
		{runPod{terminated: true, exitCode: 1}, corev1.PodFailed, "Error"},
	} {
		rp := c.rp
		r.writeStatus(ctx, p, &rp)
		stored, _ := client.CoreV1().Pods("ops").Get(ctx, "job-1", metav1.GetOptions{})
		cs := stored.Status.ContainerStatuses[0]
		reason := ""
		switch {
		case cs.State.Waiting != nil:
			reason = cs.State.Waiting.Reason
		case cs.State.Terminated != nil:
			reason = cs.State.Terminated.Reason
		}
		if stored.Status.Phase != c.phase || reason != c.reason || cs.RestartCount != rp.restarts || cs.Ready != rp.ready {
			t.Errorf("%+v: phase %s, reason %q, restarts %d, ready %v", c.rp, stored.Status.Phase, reason, cs.RestartCount, cs.Ready)
		}
	}
}

func TestAServicePortLeadsToTheHostPortOfAReadySelectedPod(t *testing.T) {
	r, _, _ := newTestRunner(t)
	r.pods["ops/web-1"] = &runPod{namespace: "ops", name: "web-1", labels: map[string]string{"app": "web"}, ready: true,
		ports: map[string]int{"https": 40443, "9443": 40443}}
	r.pods["ops/other"] = &runPod{namespace: "ops", name: "other", labels: map[string]string{"app": "other"}, ready: true,
		ports: map[string]int{"https": 50443}}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "web"}, Spec: corev1.ServiceSpec{
		Selector: map[string]string{"app": "web"},
		Ports:    []corev1.ServicePort{{Port: 443, TargetPort: intstr.FromString("https")}, {Port: 9443}}}}
	if port, ok := r.endpoint(svc, 443); !ok || port != 40443 {
		t.Errorf("port 443 by the target's name: %d %v", port, ok)
	}
	if port, ok := r.endpoint(svc, 9443); !ok || port != 40443 {
		t.Errorf("port 9443, no targetPort: the same number: %d %v", port, ok)
	}
	if _, ok := r.endpoint(svc, 80); ok {
		t.Error("a port the Service does not have leads nowhere")
	}
	r.pods["ops/web-1"].ready = false
	if _, ok := r.endpoint(svc, 443); ok {
		t.Error("an unready pod is no endpoint")
	}
}

func await(t *testing.T, ctx context.Context, what string, condition func() bool) {
	t.Helper()
	for !condition() {
		select {
		case <-ctx.Done():
			t.Fatalf("never %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
