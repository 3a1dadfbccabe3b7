package main

// Server-side table output (`kubectl get`) with the columns Kubernetes prints for each built-in
// kind served here. Kube's printers (pkg/printers/internalversion) are not packaged by Debian,
// so the columns are written out below from the kinds' fields; the cells follow kube's rules
// closely enough for a reader of `kubectl get` (AGE as a human duration, READY as ready/total).
// A kind without columns here gets the generic NAME and CREATED AT.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/apiserver/pkg/registry/rest"
)

// column is one printed column after NAME; wide columns (priority 1) show with `-o wide` only.
type column struct {
	name string
	wide bool
	cell func(o runtime.Object) interface{}
}

type printedColumns struct {
	cols    []column
	noName  bool // events: kube prints LAST SEEN first and the name only with -o wide
	noAge   bool
	created bool // CREATED AT instead of AGE (roles, cluster roles)
}

// ordered gives the default columns (wide false) or the -o wide ones; kube prints AGE between them.
func (p printedColumns) ordered(wide bool) []column {
	var out []column
	for _, c := range p.cols {
		if c.wide == wide {
			out = append(out, c)
		}
	}
	return out
}

type columnTable struct{ p printedColumns }

func (t columnTable) ConvertToTable(ctx context.Context, object, tableOptions runtime.Object) (*metav1.Table, error) {
	table := &metav1.Table{}
	if opts, ok := tableOptions.(*metav1.TableOptions); !ok || !opts.NoHeaders {
		if !t.p.noName {
			table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{Name: "Name", Type: "string", Format: "name",
				Description: "Name must be unique within a namespace."})
		}
		for _, c := range t.p.ordered(false) {
			table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{Name: c.name, Type: "string"})
		}
		switch {
		case t.p.created:
			table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{Name: "Created At", Type: "date"})
		case !t.p.noAge:
			table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{Name: "Age", Type: "string",
				Description: "CreationTimestamp is a timestamp representing the server time when this object was created."})
		}
		for _, c := range t.p.ordered(true) {
			table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{Name: c.name, Type: "string", Priority: 1})
		}
	}
	add := func(o runtime.Object) error {
		m, err := meta.Accessor(o)
		if err != nil {
			return err
		}
		var cells []interface{}
		if !t.p.noName {
			cells = append(cells, m.GetName())
		}
		for _, c := range t.p.ordered(false) {
			cells = append(cells, c.cell(o))
		}
		switch {
		case t.p.created:
			cells = append(cells, m.GetCreationTimestamp().UTC().Format(time.RFC3339))
		case !t.p.noAge:
			cells = append(cells, age(m.GetCreationTimestamp()))
		}
		for _, c := range t.p.ordered(true) {
			cells = append(cells, c.cell(o))
		}
		table.Rows = append(table.Rows, metav1.TableRow{Cells: cells, Object: runtime.RawExtension{Object: o}})
		return nil
	}
	if meta.IsListType(object) {
		if err := meta.EachListItem(object, add); err != nil {
			return nil, err
		}
		if l, err := meta.ListAccessor(object); err == nil {
			table.ResourceVersion, table.Continue, table.RemainingItemCount = l.GetResourceVersion(), l.GetContinue(), l.GetRemainingItemCount()
		}
	} else {
		if err := add(object); err != nil {
			return nil, err
		}
		if m, err := meta.Accessor(object); err == nil {
			table.ResourceVersion = m.GetResourceVersion()
		}
	}
	return table, nil
}

// tableFor is the table convertor of a resource: its kube columns, or NAME and CREATED AT.
func tableFor(d *resourceDef, fallback rest.TableConvertor) rest.TableConvertor {
	if p, ok := printed[d.gv.Group+"/"+d.resource]; ok {
		return columnTable{p}
	}
	return fallback
}

func age(t metav1.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(time.Since(t.Time))
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

func selectorText(s *metav1.LabelSelector) string {
	if s == nil {
		return "<none>"
	}
	sel, err := metav1.LabelSelectorAsSelector(s)
	if err != nil {
		return "<error>"
	}
	if str := sel.String(); str != "" {
		return str
	}
	return "<none>"
}

func mapText(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return orNone(strings.Join(parts, ","))
}

func containerColumns(spec func(o runtime.Object) corev1.PodSpec) []column {
	return []column{
		{"Containers", true, func(o runtime.Object) interface{} {
			var names []string
			for _, c := range spec(o).Containers {
				names = append(names, c.Name)
			}
			return strings.Join(names, ",")
		}},
		{"Images", true, func(o runtime.Object) interface{} {
			var images []string
			for _, c := range spec(o).Containers {
				images = append(images, c.Image)
			}
			return strings.Join(images, ",")
		}},
	}
}

func podStatus(p *corev1.Pod) string {
	reason := string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, c := range p.Status.ContainerStatuses {
		switch {
		case c.State.Waiting != nil && c.State.Waiting.Reason != "":
			reason = c.State.Waiting.Reason
		case c.State.Terminated != nil && c.State.Terminated.Reason != "":
			reason = c.State.Terminated.Reason
		case c.State.Terminated != nil && c.State.Terminated.Signal != 0:
			reason = fmt.Sprintf("Signal:%d", c.State.Terminated.Signal)
		case c.State.Terminated != nil:
			reason = fmt.Sprintf("ExitCode:%d", c.State.Terminated.ExitCode)
		}
	}
	if p.DeletionTimestamp != nil {
		reason = "Terminating"
	}
	return orNone(reason)
}

func jobStatusText(j *batchv1.Job) string {
	switch {
	case jobCondition(j.Status, batchv1.JobComplete):
		return "Complete"
	case jobCondition(j.Status, batchv1.JobFailed):
		return "Failed"
	case j.DeletionTimestamp != nil:
		return "Terminating"
	case jobCondition(j.Status, batchv1.JobSuccessCriteriaMet):
		return "SuccessCriteriaMet"
	case jobCondition(j.Status, batchv1.JobSuspended):
		return "Suspended"
	case jobCondition(j.Status, batchv1.JobFailureTarget):
		return "FailureTarget"
	}
	return "Running"
}

func jobCompletions(j *batchv1.Job) string {
	if j.Spec.Completions != nil {
		return fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	}
	parallelism := int32(0)
	if j.Spec.Parallelism != nil {
		parallelism = *j.Spec.Parallelism
	}
	if parallelism > 1 {
		return fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, parallelism)
	}
	return fmt.Sprintf("%d/1", j.Status.Succeeded)
}

func jobDuration(j *batchv1.Job) string {
	switch {
	case j.Status.StartTime == nil:
		return ""
	case j.Status.CompletionTime == nil:
		return duration.HumanDuration(time.Since(j.Status.StartTime.Time))
	}
	return duration.HumanDuration(j.Status.CompletionTime.Sub(j.Status.StartTime.Time))
}

func servicePorts(s *corev1.Service) string {
	var ports []string
	for _, p := range s.Spec.Ports {
		text := fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort != 0 {
			text = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
		ports = append(ports, text)
	}
	return orNone(strings.Join(ports, ","))
}

func eventColumns(lastSeen func(runtime.Object) string, typ, reason, object, message func(runtime.Object) string, name func(runtime.Object) string) printedColumns {
	str := func(f func(runtime.Object) string) func(runtime.Object) interface{} {
		return func(o runtime.Object) interface{} { return f(o) }
	}
	return printedColumns{noName: true, noAge: true, cols: []column{
		{"Last Seen", false, str(lastSeen)}, {"Type", false, str(typ)}, {"Reason", false, str(reason)},
		{"Object", false, str(object)}, {"Message", false, str(message)}, {"Name", true, str(name)},
	}}
}

func sinceOr(times ...metav1.Time) string {
	for _, t := range times {
		if !t.IsZero() {
			return duration.HumanDuration(time.Since(t.Time))
		}
	}
	return "<unknown>"
}

func intOrNone(v interface{ String() string }, set bool) string {
	if !set {
		return "N/A"
	}
	return v.String()
}

// printed holds the columns by "group/resource" ("" is the core group).
var printed = map[string]printedColumns{
	"/namespaces": {cols: []column{{"Status", false, func(o runtime.Object) interface{} { return string(o.(*corev1.Namespace).Status.Phase) }}}},
	"/configmaps": {cols: []column{{"Data", false, func(o runtime.Object) interface{} {
		c := o.(*corev1.ConfigMap)
		return int64(len(c.Data) + len(c.BinaryData))
	}}}},
	"/secrets": {cols: []column{
		{"Type", false, func(o runtime.Object) interface{} { return string(o.(*corev1.Secret).Type) }},
		{"Data", false, func(o runtime.Object) interface{} { return int64(len(o.(*corev1.Secret).Data)) }}}},
	"/serviceaccounts": {cols: []column{{"Secrets", false, func(o runtime.Object) interface{} { return int64(len(o.(*corev1.ServiceAccount).Secrets)) }}}},
	"/services": {cols: []column{
		{"Type", false, func(o runtime.Object) interface{} { return string(o.(*corev1.Service).Spec.Type) }},
		{"Cluster-IP", false, func(o runtime.Object) interface{} { return orNone(o.(*corev1.Service).Spec.ClusterIP) }},
		{"External-IP", false, func(o runtime.Object) interface{} {
			s := o.(*corev1.Service)
			var ips []string
			for _, in := range s.Status.LoadBalancer.Ingress {
				ips = append(ips, in.IP+in.Hostname)
			}
			ips = append(ips, s.Spec.ExternalIPs...)
			if len(ips) == 0 && s.Spec.Type == corev1.ServiceTypeLoadBalancer {
				return "<pending>"
			}
			return orNone(strings.Join(ips, ","))
		}},
		{"Port(s)", false, func(o runtime.Object) interface{} { return servicePorts(o.(*corev1.Service)) }},
		{"Selector", true, func(o runtime.Object) interface{} { return mapText(o.(*corev1.Service).Spec.Selector) }}}},
	"/endpoints": {cols: []column{{"Endpoints", false, func(o runtime.Object) interface{} {
		var eps []string
		for _, s := range o.(*corev1.Endpoints).Subsets {
			for _, a := range s.Addresses {
				for _, p := range s.Ports {
					eps = append(eps, fmt.Sprintf("%s:%d", a.IP, p.Port))
				}
			}
		}
		return orNone(strings.Join(eps, ","))
	}}}},
	"/pods": {cols: []column{
		{"Ready", false, func(o runtime.Object) interface{} {
			p := o.(*corev1.Pod)
			ready := 0
			for _, c := range p.Status.ContainerStatuses {
				if c.Ready {
					ready++
				}
			}
			return fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers))
		}},
		{"Status", false, func(o runtime.Object) interface{} { return podStatus(o.(*corev1.Pod)) }},
		{"Restarts", false, func(o runtime.Object) interface{} {
			n := int32(0)
			for _, c := range o.(*corev1.Pod).Status.ContainerStatuses {
				n += c.RestartCount
			}
			return fmt.Sprint(n)
		}},
		{"IP", true, func(o runtime.Object) interface{} { return orNone(o.(*corev1.Pod).Status.PodIP) }},
		{"Node", true, func(o runtime.Object) interface{} { return orNone(o.(*corev1.Pod).Spec.NodeName) }}}},
	"/persistentvolumeclaims": {cols: []column{
		{"Status", false, func(o runtime.Object) interface{} { return string(o.(*corev1.PersistentVolumeClaim).Status.Phase) }},
		{"Volume", false, func(o runtime.Object) interface{} { return o.(*corev1.PersistentVolumeClaim).Spec.VolumeName }},
		{"Capacity", false, func(o runtime.Object) interface{} {
			q, ok := o.(*corev1.PersistentVolumeClaim).Status.Capacity[corev1.ResourceStorage]
			if !ok {
				return ""
			}
			return q.String()
		}},
		{"Access Modes", false, func(o runtime.Object) interface{} {
			var modes []string
			for _, m := range o.(*corev1.PersistentVolumeClaim).Status.AccessModes {
				modes = append(modes, map[corev1.PersistentVolumeAccessMode]string{corev1.ReadWriteOnce: "RWO", corev1.ReadOnlyMany: "ROX",
					corev1.ReadWriteMany: "RWX", corev1.ReadWriteOncePod: "RWOP"}[m])
			}
			return strings.Join(modes, ",")
		}},
		{"StorageClass", false, func(o runtime.Object) interface{} {
			if c := o.(*corev1.PersistentVolumeClaim).Spec.StorageClassName; c != nil {
				return *c
			}
			return "<unset>"
		}}}},
	"/events": eventColumns(
		func(o runtime.Object) string {
			e := o.(*corev1.Event)
			return sinceOr(e.LastTimestamp, metav1.Time{Time: e.EventTime.Time}, e.FirstTimestamp, e.CreationTimestamp)
		},
		func(o runtime.Object) string { return o.(*corev1.Event).Type },
		func(o runtime.Object) string { return o.(*corev1.Event).Reason },
		func(o runtime.Object) string {
			r := o.(*corev1.Event).InvolvedObject
			return strings.ToLower(r.Kind) + "/" + r.Name
		},
		func(o runtime.Object) string { return strings.TrimSpace(o.(*corev1.Event).Message) },
		func(o runtime.Object) string { return o.(*corev1.Event).Name }),
	"events.k8s.io/events": eventColumns(
		func(o runtime.Object) string {
			e := o.(*eventsv1.Event)
			last := e.DeprecatedLastTimestamp
			if e.Series != nil {
				last = metav1.Time{Time: e.Series.LastObservedTime.Time}
			}
			return sinceOr(last, metav1.Time{Time: e.EventTime.Time}, e.DeprecatedFirstTimestamp, e.CreationTimestamp)
		},
		func(o runtime.Object) string { return o.(*eventsv1.Event).Type },
		func(o runtime.Object) string { return o.(*eventsv1.Event).Reason },
		func(o runtime.Object) string {
			r := o.(*eventsv1.Event).Regarding
			return strings.ToLower(r.Kind) + "/" + r.Name
		},
		func(o runtime.Object) string { return strings.TrimSpace(o.(*eventsv1.Event).Note) },
		func(o runtime.Object) string { return o.(*eventsv1.Event).Name }),
	"apps/deployments": {cols: append([]column{
		{"Ready", false, func(o runtime.Object) interface{} {
			d := o.(*appsv1.Deployment)
			want := int32(1)
			if d.Spec.Replicas != nil {
				want = *d.Spec.Replicas
			}
			return fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, want)
		}},
		{"Up-to-date", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.Deployment).Status.UpdatedReplicas) }},
		{"Available", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.Deployment).Status.AvailableReplicas) }}},
		append(containerColumns(func(o runtime.Object) corev1.PodSpec { return o.(*appsv1.Deployment).Spec.Template.Spec }),
			column{"Selector", true, func(o runtime.Object) interface{} { return selectorText(o.(*appsv1.Deployment).Spec.Selector) }})...)},
	"apps/statefulsets": {cols: []column{{"Ready", false, func(o runtime.Object) interface{} {
		s := o.(*appsv1.StatefulSet)
		want := int32(1)
		if s.Spec.Replicas != nil {
			want = *s.Spec.Replicas
		}
		return fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, want)
	}}}},
	"apps/daemonsets": {cols: []column{
		{"Desired", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.DaemonSet).Status.DesiredNumberScheduled) }},
		{"Current", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.DaemonSet).Status.CurrentNumberScheduled) }},
		{"Ready", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.DaemonSet).Status.NumberReady) }},
		{"Up-to-date", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.DaemonSet).Status.UpdatedNumberScheduled) }},
		{"Available", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.DaemonSet).Status.NumberAvailable) }},
		{"Node Selector", false, func(o runtime.Object) interface{} { return mapText(o.(*appsv1.DaemonSet).Spec.Template.Spec.NodeSelector) }}}},
	"apps/replicasets": {cols: []column{
		{"Desired", false, func(o runtime.Object) interface{} {
			if r := o.(*appsv1.ReplicaSet).Spec.Replicas; r != nil {
				return int64(*r)
			}
			return int64(1)
		}},
		{"Current", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.ReplicaSet).Status.Replicas) }},
		{"Ready", false, func(o runtime.Object) interface{} { return int64(o.(*appsv1.ReplicaSet).Status.ReadyReplicas) }}}},
	"batch/jobs": {cols: append([]column{
		{"Status", false, func(o runtime.Object) interface{} { return jobStatusText(o.(*batchv1.Job)) }},
		{"Completions", false, func(o runtime.Object) interface{} { return jobCompletions(o.(*batchv1.Job)) }},
		{"Duration", false, func(o runtime.Object) interface{} { return jobDuration(o.(*batchv1.Job)) }}},
		append(containerColumns(func(o runtime.Object) corev1.PodSpec { return o.(*batchv1.Job).Spec.Template.Spec }),
			column{"Selector", true, func(o runtime.Object) interface{} { return selectorText(o.(*batchv1.Job).Spec.Selector) }})...)},
	"batch/cronjobs": {cols: []column{
		{"Schedule", false, func(o runtime.Object) interface{} { return o.(*batchv1.CronJob).Spec.Schedule }},
		{"Timezone", false, func(o runtime.Object) interface{} {
			if z := o.(*batchv1.CronJob).Spec.TimeZone; z != nil {
				return *z
			}
			return "<none>"
		}},
		{"Suspend", false, func(o runtime.Object) interface{} {
			s := o.(*batchv1.CronJob).Spec.Suspend
			return fmt.Sprint(s != nil && *s)
		}},
		{"Active", false, func(o runtime.Object) interface{} { return int64(len(o.(*batchv1.CronJob).Status.Active)) }},
		{"Last Schedule", false, func(o runtime.Object) interface{} {
			if t := o.(*batchv1.CronJob).Status.LastScheduleTime; t != nil {
				return duration.HumanDuration(time.Since(t.Time))
			}
			return "<none>"
		}}}},
	"policy/poddisruptionbudgets": {cols: []column{
		{"Min Available", false, func(o runtime.Object) interface{} {
			m := o.(*policyv1.PodDisruptionBudget).Spec.MinAvailable
			return intOrNone(m, m != nil)
		}},
		{"Max Unavailable", false, func(o runtime.Object) interface{} {
			m := o.(*policyv1.PodDisruptionBudget).Spec.MaxUnavailable
			return intOrNone(m, m != nil)
		}},
		{"Allowed Disruptions", false, func(o runtime.Object) interface{} { return int64(o.(*policyv1.PodDisruptionBudget).Status.DisruptionsAllowed) }}}},
	"networking.k8s.io/ingresses": {cols: []column{
		{"Class", false, func(o runtime.Object) interface{} {
			if c := o.(*networkingv1.Ingress).Spec.IngressClassName; c != nil {
				return *c
			}
			return "<none>"
		}},
		{"Hosts", false, func(o runtime.Object) interface{} {
			var hosts []string
			for _, r := range o.(*networkingv1.Ingress).Spec.Rules {
				if r.Host != "" {
					hosts = append(hosts, r.Host)
				}
			}
			if len(hosts) == 0 {
				return "*"
			}
			return strings.Join(hosts, ",")
		}},
		{"Address", false, func(o runtime.Object) interface{} {
			var addresses []string
			for _, in := range o.(*networkingv1.Ingress).Status.LoadBalancer.Ingress {
				addresses = append(addresses, in.IP+in.Hostname)
			}
			return strings.Join(addresses, ",")
		}},
		{"Ports", false, func(o runtime.Object) interface{} {
			if len(o.(*networkingv1.Ingress).Spec.TLS) > 0 {
				return "80, 443"
			}
			return "80"
		}}}},
	"networking.k8s.io/ingressclasses": {cols: []column{
		{"Controller", false, func(o runtime.Object) interface{} { return o.(*networkingv1.IngressClass).Spec.Controller }},
		{"Parameters", false, func(o runtime.Object) interface{} {
			p := o.(*networkingv1.IngressClass).Spec.Parameters
			if p == nil {
				return "<none>"
			}
			return p.Kind + "/" + p.Name
		}}}},
	"networking.k8s.io/networkpolicies": {cols: []column{{"Pod-Selector", false, func(o runtime.Object) interface{} {
		s := o.(*networkingv1.NetworkPolicy).Spec.PodSelector
		return selectorText(&s)
	}}}},
	"coordination.k8s.io/leases": {cols: []column{{"Holder", false, func(o runtime.Object) interface{} {
		if h := o.(*coordinationv1.Lease).Spec.HolderIdentity; h != nil {
			return *h
		}
		return ""
	}}}},
	"admissionregistration.k8s.io/validatingwebhookconfigurations": {cols: []column{{"Webhooks", false, func(o runtime.Object) interface{} {
		return int64(len(o.(*admissionregistrationv1.ValidatingWebhookConfiguration).Webhooks))
	}}}},
	"admissionregistration.k8s.io/mutatingwebhookconfigurations": {cols: []column{{"Webhooks", false, func(o runtime.Object) interface{} {
		return int64(len(o.(*admissionregistrationv1.MutatingWebhookConfiguration).Webhooks))
	}}}},
	"admissionregistration.k8s.io/validatingadmissionpolicies": {cols: []column{
		{"Validations", false, func(o runtime.Object) interface{} {
			return int64(len(o.(*admissionregistrationv1.ValidatingAdmissionPolicy).Spec.Validations))
		}},
		{"ParamKind", false, func(o runtime.Object) interface{} {
			if k := o.(*admissionregistrationv1.ValidatingAdmissionPolicy).Spec.ParamKind; k != nil {
				return k.APIVersion + "/" + k.Kind
			}
			return "<unset>"
		}}}},
	"admissionregistration.k8s.io/validatingadmissionpolicybindings": {cols: []column{
		{"PolicyName", false, func(o runtime.Object) interface{} {
			return o.(*admissionregistrationv1.ValidatingAdmissionPolicyBinding).Spec.PolicyName
		}},
		{"ParamRef", false, func(o runtime.Object) interface{} {
			if r := o.(*admissionregistrationv1.ValidatingAdmissionPolicyBinding).Spec.ParamRef; r != nil && r.Name != "" {
				return r.Namespace + "/" + r.Name
			}
			return "<unset>"
		}}}},
	"rbac.authorization.k8s.io/roles":        {created: true},
	"rbac.authorization.k8s.io/clusterroles": {created: true},
	"rbac.authorization.k8s.io/rolebindings": {cols: bindingColumns(func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject) {
		b := o.(*rbacv1.RoleBinding)
		return b.RoleRef, b.Subjects
	})},
	"rbac.authorization.k8s.io/clusterrolebindings": {cols: bindingColumns(func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject) {
		b := o.(*rbacv1.ClusterRoleBinding)
		return b.RoleRef, b.Subjects
	})},
}

func bindingColumns(of func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject)) []column {
	subjects := func(kind string) func(o runtime.Object) interface{} {
		return func(o runtime.Object) interface{} {
			_, all := of(o)
			var names []string
			for _, s := range all {
				if s.Kind == kind && kind == rbacv1.ServiceAccountKind {
					names = append(names, s.Namespace+"/"+s.Name)
				} else if s.Kind == kind {
					names = append(names, s.Name)
				}
			}
			return strings.Join(names, ", ")
		}
	}
	return []column{
		{"Role", false, func(o runtime.Object) interface{} {
			ref, _ := of(o)
			return ref.Kind + "/" + ref.Name
		}},
		{"Users", true, subjects(rbacv1.UserKind)},
		{"Groups", true, subjects(rbacv1.GroupKind)},
		{"ServiceAccounts", true, subjects(rbacv1.ServiceAccountKind)},
	}
}
