package main

// batch/v1 Jobs as kube-apiserver stores them, in the part an operator sees: the defaults,
// the generated selector and pod-template labels, and the rules that make a Job's template
// immutable (why an operator creates a Job once and never merges into it); the status
// transitions Kubernetes 1.36 accepts (validateJobStatus); and batch/v1's default deletion,
// which orphans the Job's Pods (registry.go). The pod runner (pods.go, --run-pods) is the Job
// controller; without it a Job's status stays as its owner or a test writes it.

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

func defaultJobSpec(s *batchv1.JobSpec) {
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions, s.Parallelism = i32(1), i32(1)
	}
	if s.Parallelism == nil {
		s.Parallelism = i32(1)
	}
	if s.BackoffLimit == nil {
		s.BackoffLimit = i32(6)
	}
	if s.CompletionMode == nil {
		m := batchv1.NonIndexedCompletion
		s.CompletionMode = &m
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.ManualSelector == nil {
		f := false
		s.ManualSelector = &f
	}
	if s.PodReplacementPolicy == nil {
		p := batchv1.TerminatingOrFailed
		s.PodReplacementPolicy = &p
	}
	defaultJobPodSpec(&s.Template.Spec)
}

// a Job's pods restart never or on failure: no RestartPolicy default (validation asks for one)
func defaultJobPodSpec(s *corev1.PodSpec) {
	rp := s.RestartPolicy
	defaultPodSpec(s)
	s.RestartPolicy = rp
}

func registerBatchDefaults(s *runtime.Scheme) {
	s.AddTypeDefaultingFunc(&batchv1.Job{}, func(o interface{}) { defaultJobSpec(&o.(*batchv1.Job).Spec) })
	s.AddTypeDefaultingFunc(&batchv1.CronJob{}, func(o interface{}) {
		x := o.(*batchv1.CronJob)
		if x.Spec.ConcurrencyPolicy == "" {
			x.Spec.ConcurrencyPolicy = batchv1.AllowConcurrent
		}
		if x.Spec.Suspend == nil {
			f := false
			x.Spec.Suspend = &f
		}
		if x.Spec.SuccessfulJobsHistoryLimit == nil {
			x.Spec.SuccessfulJobsHistoryLimit = i32(3)
		}
		if x.Spec.FailedJobsHistoryLimit == nil {
			x.Spec.FailedJobsHistoryLimit = i32(1)
		}
		defaultJobPodSpec(&x.Spec.JobTemplate.Spec.Template.Spec)
	})
}

// on create, like kube's job strategy: select the Job's own pods by its UID and label the template
func prepareJob(obj, old runtime.Object) {
	x := obj.(*batchv1.Job)
	if old != nil || (x.Spec.ManualSelector != nil && *x.Spec.ManualSelector) {
		return
	}
	uid := string(x.UID)
	x.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.ControllerUidLabel: uid}}
	if x.Spec.Template.Labels == nil {
		x.Spec.Template.Labels = map[string]string{}
	}
	x.Spec.Template.Labels[batchv1.ControllerUidLabel] = uid
	x.Spec.Template.Labels[batchv1.JobNameLabel] = x.Name
	x.Spec.Template.Labels["controller-uid"] = uid
	x.Spec.Template.Labels["job-name"] = x.Name
}

func validateJob(obj, old runtime.Object) field.ErrorList {
	x := obj.(*batchv1.Job)
	var errs field.ErrorList
	tp := field.NewPath("spec", "template")
	rp := x.Spec.Template.Spec.RestartPolicy
	if rp != corev1.RestartPolicyOnFailure && rp != corev1.RestartPolicyNever {
		errs = append(errs, field.NotSupported(tp.Child("spec", "restartPolicy"), rp, []string{string(corev1.RestartPolicyOnFailure), string(corev1.RestartPolicyNever)}))
	}
	if len(x.Spec.Template.Spec.Containers) == 0 {
		errs = append(errs, field.Required(tp.Child("spec", "containers"), ""))
	}
	if old == nil {
		return errs
	}
	o := old.(*batchv1.Job)
	if !equality.Semantic.DeepEqual(x.Spec.Template, o.Spec.Template) {
		errs = append(errs, field.Invalid(tp, x.Spec.Template, "field is immutable"))
	}
	if !equality.Semantic.DeepEqual(x.Spec.Selector, o.Spec.Selector) {
		errs = append(errs, field.Invalid(field.NewPath("spec", "selector"), x.Spec.Selector, "field is immutable"))
	}
	if !equality.Semantic.DeepEqual(x.Spec.Completions, o.Spec.Completions) {
		errs = append(errs, field.Invalid(field.NewPath("spec", "completions"), x.Spec.Completions, "field is immutable"))
	}
	return errs
}

func jobCondition(s batchv1.JobStatus, t batchv1.JobConditionType) bool {
	for _, c := range s.Conditions {
		if c.Type == t && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func jobFinished(s batchv1.JobStatus) bool {
	return jobCondition(s, batchv1.JobComplete) || jobCondition(s, batchv1.JobFailed)
}

// The checks kube-apiserver 1.36 makes on a write through jobs/status (the JobManagedBy rules,
// on by default): the terminal conditions are consistent with each other and with the times and
// counters, and never go back. As in kube, a rule about a field is checked only when the write
// changes that field (or the conditions it depends on), so a Job whose status was already off
// can still take unrelated updates.
func validateJobStatus(obj, old runtime.Object) field.ErrorList {
	x, o := obj.(*batchv1.Job), old.(*batchv1.Job)
	ns, os := x.Status, o.Status
	p := field.NewPath("status")
	cp := p.Child("conditions")
	var errs field.ErrorList
	counters := []int32{ns.Active, ns.Succeeded, ns.Failed, ptr.Deref(ns.Ready, 0), ptr.Deref(ns.Terminating, 0)}
	for i, name := range []string{"active", "succeeded", "failed", "ready", "terminating"} {
		if counters[i] < 0 {
			errs = append(errs, field.Invalid(p.Child(name), counters[i], "must be greater than or equal to 0"))
		}
	}
	complete, failed := jobCondition(ns, batchv1.JobComplete), jobCondition(ns, batchv1.JobFailed)
	target, met := jobCondition(ns, batchv1.JobFailureTarget), jobCondition(ns, batchv1.JobSuccessCriteriaMet)
	finished := complete || failed
	completeChanged := complete != jobCondition(os, batchv1.JobComplete)
	failedChanged := failed != jobCondition(os, batchv1.JobFailed)
	finishedChanged := finished != jobFinished(os)
	startChanged := !ptr.Equal(ns.StartTime, os.StartTime)
	completionChanged := !ptr.Equal(ns.CompletionTime, os.CompletionTime)
	uncounted := ns.UncountedTerminatedPods != nil && len(ns.UncountedTerminatedPods.Succeeded)+len(ns.UncountedTerminatedPods.Failed) > 0
	if (completeChanged || failedChanged) && complete && failed {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set Complete=True and Failed=true conditions"))
	}
	if (completeChanged || target != jobCondition(os, batchv1.JobFailureTarget)) && complete && target {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set Complete=True and FailureTarget=true conditions"))
	}
	if (completeChanged || completionChanged) && ns.CompletionTime != nil && !complete {
		errs = append(errs, field.Invalid(p.Child("completionTime"), ns.CompletionTime, "cannot set completionTime when there is no Complete=True condition"))
	}
	if (completeChanged || completionChanged) && ns.CompletionTime == nil && complete {
		errs = append(errs, field.Required(p.Child("completionTime"), "completionTime is required for Complete jobs"))
	}
	if (startChanged || completionChanged) && ns.StartTime != nil && ns.CompletionTime != nil && ns.CompletionTime.Before(ns.StartTime) {
		errs = append(errs, field.Invalid(p.Child("completionTime"), ns.CompletionTime, "completionTime cannot be set before startTime"))
	}
	if failedChanged && failed && !target {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set Failed=True condition without the FailureTarget=true condition"))
	}
	if (completeChanged || met != jobCondition(os, batchv1.JobSuccessCriteriaMet)) && complete && !met {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set Complete=True condition without the SuccessCriteriaMet=true condition"))
	}
	if (finishedChanged || ns.Active != os.Active) && finished && ns.Active > 0 {
		errs = append(errs, field.Invalid(p.Child("active"), ns.Active, "active>0 is invalid for finished job"))
	}
	if (finishedChanged || startChanged) && finished && ns.StartTime == nil {
		errs = append(errs, field.Required(p.Child("startTime"), "startTime is required for finished job"))
	}
	if finishedChanged && finished && uncounted {
		errs = append(errs, field.Invalid(p.Child("uncountedTerminatedPods"), ns.UncountedTerminatedPods, "uncountedTerminatedPods needs to be empty for finished job"))
	}
	if (finishedChanged || !ptr.Equal(ns.Terminating, os.Terminating)) && finished && ptr.Deref(ns.Terminating, 0) > 0 {
		errs = append(errs, field.Invalid(p.Child("terminating"), ns.Terminating, "terminating>0 is invalid for finished job"))
	}
	if (!ptr.Equal(ns.Ready, os.Ready) || ns.Active != os.Active) && ptr.Deref(ns.Ready, 0) > ns.Active {
		errs = append(errs, field.Invalid(p.Child("ready"), ns.Ready, "cannot set more ready pods than active"))
	}
	if met && failed {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set SuccessCriteriaMet=True and Failed=true conditions"))
	}
	if met && target {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions"))
	}
	if x.Spec.SuccessPolicy != nil && complete && !met {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True"))
	}
	// transitions
	for _, t := range []batchv1.JobConditionType{batchv1.JobFailed, batchv1.JobComplete, batchv1.JobFailureTarget} {
		if jobCondition(os, t) && !jobCondition(ns, t) {
			errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot disable the terminal "+string(t)+"=True condition"))
		}
	}
	if ns.Failed < os.Failed {
		errs = append(errs, field.Invalid(p.Child("failed"), ns.Failed, "cannot decrease the failed counter"))
	}
	indexed := ptr.Deref(x.Spec.CompletionMode, batchv1.NonIndexedCompletion) == batchv1.IndexedCompletion
	if ns.Succeeded < os.Succeeded && (!indexed || !ptr.Equal(x.Spec.Completions, x.Spec.Parallelism)) {
		errs = append(errs, field.Invalid(p.Child("succeeded"), ns.Succeeded, "cannot decrease the succeeded counter"))
	}
	if ns.CompletionTime != nil && os.CompletionTime != nil && !ns.CompletionTime.Equal(os.CompletionTime) {
		errs = append(errs, field.Invalid(p.Child("completionTime"), ns.CompletionTime, "completionTime cannot be mutated"))
	}
	if os.StartTime != nil && startChanged && !ptr.Deref(x.Spec.Suspend, false) {
		errs = append(errs, field.Required(p.Child("startTime"), "startTime cannot be removed for unsuspended job"))
	}
	if jobCondition(os, batchv1.JobSuccessCriteriaMet) && !met {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot disable the SuccessCriteriaMet=True condition"))
	}
	if jobCondition(os, batchv1.JobComplete) && !jobCondition(os, batchv1.JobSuccessCriteriaMet) && met {
		errs = append(errs, field.Invalid(cp, field.OmitValueType{}, "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions"))
	}
	if len(ns.CompletedIndexes) != 0 && !indexed && ns.CompletedIndexes != os.CompletedIndexes {
		errs = append(errs, field.Invalid(p.Child("completedIndexes"), ns.CompletedIndexes, "cannot set non-empty completedIndexes when non-indexed completion mode"))
	}
	return errs
}
