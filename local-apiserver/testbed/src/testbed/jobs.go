package main

// The Job controller of the pod runner (--run-pods): a Job's pods run as podman containers and
// its status follows them as kube's Job controller writes it, within what validateJobStatus
// (batch.go) accepts. Up to parallelism pods run at once until completions of them succeeded
// (SuccessCriteriaMet, then Complete with completionTime) or more than backoffLimit failed
// (FailureTarget, then Failed with reason BackoffLimitExceeded; the running pods are deleted).
// A suspended Job runs no pods. Not done: indexed completion, pod failure and success policies,
// activeDeadlineSeconds, ttlSecondsAfterFinished, pod replacement policies.

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

func (r *podRunner) syncJob(ctx context.Context, j *batchv1.Job, pods []*corev1.Pod) {
	if jobFinished(j.Status) || j.DeletionTimestamp != nil {
		return
	}
	completions, parallelism := ptr.Deref(j.Spec.Completions, 1), ptr.Deref(j.Spec.Parallelism, 1)
	var active []*corev1.Pod
	var succeeded, failed, ready int32
	for _, p := range pods {
		switch {
		case p.Status.Phase == corev1.PodSucceeded:
			succeeded++
		case p.Status.Phase == corev1.PodFailed:
			failed++
		case p.DeletionTimestamp == nil:
			active = append(active, p)
			r.mu.Lock()
			if rp := r.pods[p.Namespace+"/"+p.Name]; rp != nil && rp.ready {
				ready++
			}
			r.mu.Unlock()
		}
	}
	status := j.Status.DeepCopy()
	now := metav1.Now()
	suspended := ptr.Deref(j.Spec.Suspend, false)
	if status.StartTime == nil && !suspended {
		status.StartTime = &now
	}
	status.Succeeded, status.Failed = succeeded, failed
	status.UncountedTerminatedPods = &batchv1.UncountedTerminatedPods{}
	switch {
	case succeeded >= completions:
		r.deletePods(ctx, active)
		active, ready = nil, 0
		setJobCondition(status, batchv1.JobSuccessCriteriaMet, "CompletionsReached", "Reached expected number of succeeded pods", now)
		setJobCondition(status, batchv1.JobComplete, "CompletionsReached", "Reached expected number of succeeded pods", now)
		status.CompletionTime = &now
	case failed > ptr.Deref(j.Spec.BackoffLimit, 6):
		r.deletePods(ctx, active)
		active, ready = nil, 0
		setJobCondition(status, batchv1.JobFailureTarget, "BackoffLimitExceeded", "Job has reached the specified backoff limit", now)
		setJobCondition(status, batchv1.JobFailed, "BackoffLimitExceeded", "Job has reached the specified backoff limit", now)
	case suspended:
		r.deletePods(ctx, active)
		active, ready = nil, 0
	default:
		want := parallelism
		if left := completions - succeeded; left < want {
			want = left
		}
		for i := int32(len(active)); i < want; i++ {
			r.createJobPod(ctx, j)
		}
	}
	status.Active, status.Ready = int32(len(active)), &ready
	if equality.Semantic.DeepEqual(&j.Status, status) {
		return
	}
	copy := j.DeepCopy()
	copy.Status = *status
	if _, err := r.client.BatchV1().Jobs(j.Namespace).UpdateStatus(ctx, copy, metav1.UpdateOptions{}); err != nil {
		klog.Infof("pods: status of job %s/%s: %v", j.Namespace, j.Name, err)
	}
}

func setJobCondition(s *batchv1.JobStatus, t batchv1.JobConditionType, reason, message string, now metav1.Time) {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			if s.Conditions[i].Status != corev1.ConditionTrue {
				s.Conditions[i].Status, s.Conditions[i].LastTransitionTime = corev1.ConditionTrue, now
			}
			s.Conditions[i].Reason, s.Conditions[i].Message, s.Conditions[i].LastProbeTime = reason, message, now
			return
		}
	}
	s.Conditions = append(s.Conditions, batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue, Reason: reason, Message: message,
		LastProbeTime: now, LastTransitionTime: now})
}

func (r *podRunner) deletePods(ctx context.Context, pods []*corev1.Pod) {
	for _, p := range pods {
		_ = r.client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
	}
}

func (r *podRunner) createJobPod(ctx context.Context, j *batchv1.Job) {
	owner := metav1.OwnerReference{APIVersion: "batch/v1", Kind: "Job", Name: j.Name, UID: j.UID}
	if _, err := r.client.CoreV1().Pods(j.Namespace).Create(ctx, runnerPod(&j.Spec.Template, j.Namespace, j.Name+"-", owner, nil),
		metav1.CreateOptions{}); err != nil {
		klog.Infof("pods: create a pod of job %s/%s: %v", j.Namespace, j.Name, err)
	}
}
