package main

// batch/v1 Jobs as kube-apiserver stores them, in the part an operator sees: the defaults,
// the generated selector and pod-template labels, and the rules that make a Job's template
// immutable (why an operator creates a Job once and never merges into it). No Job controller
// runs: a Job's status stays as its owner or a test writes it.

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
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
