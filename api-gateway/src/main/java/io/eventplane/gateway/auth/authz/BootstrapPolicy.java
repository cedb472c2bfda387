package io.eventplane.gateway.auth.authz;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.rbac.AggregationRule;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.model.rbac.RoleRef;
import io.eventplane.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * The ClusterRoles and ClusterRoleBindings kube-apiserver creates at startup (plugin/pkg/auth/authorizer/rbac/
 * bootstrappolicy), labelled {@code kubernetes.io/bootstrapping=rbac-defaults}. admin, edit and view aggregate
 * {@code system:aggregate-to-*} (and edit into admin, view into edit) as in Kubernetes, so a ClusterRole labelled
 * {@code rbac.authorization.k8s.io/aggregate-to-edit} extends edit; they carry their aggregated rules from the start,
 * for a cluster whose {@code clusterrole-aggregation} controller is not (yet) running. Eventplane's
 * controllers write to Kafka as their own service accounts, not through the API, so no {@code system:controller:*}
 * roles are bound to those; {@code system:kube-controller-manager} holds what they would need through the API.
 */
public final class BootstrapPolicy {
    static final String RBAC = "rbac.authorization.k8s.io";
    private static final List<String> READ = List.of("get", "list", "watch");
    private static final List<String> WRITE = List.of("create", "delete", "deletecollection", "patch", "update");
    private static final List<String> READ_WRITE = List.of("create", "delete", "deletecollection", "get", "list",
            "patch", "update", "watch");
    private static final Map<String, String> LABELS = Map.of("kubernetes.io/bootstrapping", "rbac-defaults");
    private static final String AGGREGATE_TO = "rbac.authorization.k8s.io/aggregate-to-";
    private static final String LEGACY_UNKNOWN = "kubernetes.io/legacy-unknown";
    private static final String KUBELET_SERVING = "kubernetes.io/kubelet-serving";
    private static final String KUBE_APISERVER_CLIENT_KUBELET = "kubernetes.io/kube-apiserver-client-kubelet";
    private static final Map<String, String> ANNOTATIONS = Map.of("rbac.authorization.kubernetes.io/autoupdate", "true");

    private BootstrapPolicy() {
    }

    static PolicyRule rule(List<String> verbs, String group, String... resources) {
        return PolicyRule.newBuilder().setVerbs(verbs).setApiGroups(List.of(group)).setResources(List.of(resources))
                .build();
    }

    static PolicyRule named(List<String> verbs, String group, String resource, String... names) {
        return PolicyRule.newBuilder().setVerbs(verbs).setApiGroups(List.of(group)).setResources(List.of(resource))
                .setResourceNames(List.of(names)).build();
    }

    static PolicyRule urls(List<String> verbs, String... urls) {
        return PolicyRule.newBuilder().setVerbs(verbs).setNonResourceURLs(List.of(urls)).build();
    }

    /** What view grants (system:aggregate-to-view): reading what is not a secret or a permission. */
    static List<PolicyRule> viewRules() {
        return List.of(
                rule(READ, "", "pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts",
                        "services", "services/status", "endpoints", "persistentvolumeclaims",
                        "persistentvolumeclaims/status", "configmaps"),
                rule(READ, "", "limitranges", "resourcequotas", "bindings", "events", "pods/status",
                        "resourcequotas/status", "namespaces/status", "replicationcontrollers/status", "pods/log"),
                rule(READ, "", "namespaces"),
                rule(READ, "discovery.k8s.io", "endpointslices"),
                rule(READ, "apps", "controllerrevisions", "statefulsets", "statefulsets/scale", "statefulsets/status",
                        "daemonsets", "daemonsets/status", "deployments", "deployments/scale", "deployments/status",
                        "replicasets", "replicasets/scale", "replicasets/status"),
                rule(READ, "autoscaling", "horizontalpodautoscalers", "horizontalpodautoscalers/status"),
                rule(READ, "batch", "cronjobs", "cronjobs/status", "jobs", "jobs/status"),
                rule(READ, "policy", "poddisruptionbudgets", "poddisruptionbudgets/status"),
                rule(READ, "metrics.k8s.io", "pods", "nodes"));
    }

    /**
     * edit's rules as the aggregation controller makes them: system:aggregate-to-edit's, then view's (the roles its
     * selector matches, by name).
     */
    static List<PolicyRule> editRules() {
        List<PolicyRule> out = new ArrayList<>(editOnlyRules());
        out.addAll(viewRules());
        return out;
    }

    /** What edit adds to view (system:aggregate-to-edit): writing workloads and their configuration, secrets. */
    static List<PolicyRule> editOnlyRules() {
        List<PolicyRule> out = new ArrayList<>();
        out.add(rule(List.of("impersonate"), "", "serviceaccounts"));
        out.add(rule(WRITE, "", "pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"));
        out.add(rule(List.of("create"), "", "pods/eviction"));
        out.add(rule(WRITE, "", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services",
                "services/proxy", "persistentvolumeclaims", "configmaps", "secrets"));
        out.add(rule(List.of("create"), "", "serviceaccounts/token"));
        out.add(rule(READ, "", "secrets"));
        out.add(rule(WRITE, "apps", "daemonsets", "deployments", "deployments/rollback", "deployments/scale",
                "replicasets", "replicasets/scale", "statefulsets", "statefulsets/scale"));
        out.add(rule(WRITE, "autoscaling", "horizontalpodautoscalers"));
        out.add(rule(WRITE, "batch", "cronjobs", "jobs"));
        out.add(rule(WRITE, "policy", "poddisruptionbudgets"));
        return out;
    }

    /** admin's rules as aggregated: edit's, then system:aggregate-to-admin's. */
    static List<PolicyRule> adminRules() {
        List<PolicyRule> out = new ArrayList<>(editRules());
        out.addAll(adminOnlyRules());
        return out;
    }

    /** What admin adds to edit (system:aggregate-to-admin): granting within the namespace. */
    static List<PolicyRule> adminOnlyRules() {
        return List.of(rule(List.of("create"), "authorization.k8s.io", "localsubjectaccessreviews"),
                rule(READ_WRITE, RBAC, "rolebindings", "roles"));
    }

    /** system:node (NodeRules): what a kubelet needs; the Node authorizer narrows it to the node's own objects. */
    public static List<PolicyRule> nodeRules() {
        return List.of(
                rule(List.of("create"), "authentication.k8s.io", "tokenreviews"),
                rule(List.of("create"), "authorization.k8s.io", "subjectaccessreviews", "localsubjectaccessreviews"),
                rule(READ, "", "services"),
                rule(List.of("create", "get", "list", "watch"), "", "nodes"),
                rule(List.of("patch", "update"), "", "nodes/status"),
                rule(List.of("patch", "update"), "", "nodes"),
                rule(List.of("create", "patch", "update"), "", "events"),
                rule(List.of("create", "patch", "update"), "events.k8s.io", "events"),
                rule(READ, "", "pods"),
                rule(List.of("create", "delete"), "", "pods"),
                rule(List.of("patch", "update"), "", "pods/status"),
                rule(List.of("create"), "", "pods/eviction"),
                rule(List.of("get"), "", "secrets", "configmaps"),
                rule(List.of("get"), "", "persistentvolumeclaims", "persistentvolumes"),
                rule(List.of("get", "update", "patch"), "", "persistentvolumeclaims/status"),
                rule(List.of("create"), "", "serviceaccounts/token"),
                rule(List.of("get", "create", "update", "patch", "delete"), "coordination.k8s.io", "leases"));
    }

    static List<PolicyRule> schedulerRules() {
        return List.of(
                rule(List.of("create", "patch", "update"), "", "events"),
                rule(List.of("create", "patch", "update"), "events.k8s.io", "events"),
                rule(List.of("create"), "coordination.k8s.io", "leases"),
                named(List.of("get", "update"), "coordination.k8s.io", "leases", "kube-scheduler"),
                rule(READ, "", "nodes", "namespaces", "replicationcontrollers", "services", "persistentvolumeclaims",
                        "persistentvolumes"),
                rule(List.of("delete", "get", "list", "watch"), "", "pods"),
                rule(List.of("create"), "", "bindings", "pods/binding"),
                rule(List.of("patch", "update"), "", "pods/status"),
                rule(READ, "apps", "replicasets", "statefulsets"),
                rule(READ, "policy", "poddisruptionbudgets"),
                rule(READ, "storage.k8s.io", "storageclasses", "csinodes", "csidrivers", "csistoragecapacities"),
                rule(READ, "scheduling.k8s.io", "priorityclasses"),
                rule(List.of("create"), "authentication.k8s.io", "tokenreviews"),
                rule(List.of("create"), "authorization.k8s.io", "subjectaccessreviews"));
    }

    /** The controller manager's own rules and those of every controller it runs (one identity here). */
    static List<PolicyRule> controllerManagerRules() {
        return List.of(
                rule(READ, "*", "*"),
                rule(READ_WRITE, "", "pods", "pods/status", "pods/binding", "pods/eviction", "events", "endpoints",
                        "secrets", "serviceaccounts", "serviceaccounts/token", "services", "services/status",
                        "replicationcontrollers", "replicationcontrollers/status", "replicationcontrollers/scale",
                        "persistentvolumeclaims", "persistentvolumeclaims/status", "persistentvolumes",
                        "persistentvolumes/status", "resourcequotas", "resourcequotas/status", "nodes", "nodes/status",
                        "namespaces", "namespaces/status", "namespaces/finalize", "configmaps"),
                rule(READ_WRITE, "events.k8s.io", "events"),
                rule(READ_WRITE, "discovery.k8s.io", "endpointslices"),
                rule(READ_WRITE, "apps", "*"),
                rule(READ_WRITE, "batch", "*"),
                rule(READ_WRITE, "autoscaling", "*"),
                rule(READ_WRITE, "policy", "*"),
                rule(READ_WRITE, "coordination.k8s.io", "leases"),
                rule(READ_WRITE, "networking.k8s.io", "*"),
                rule(READ_WRITE, "*", "*/finalizers"),
                // the horizontal pod autoscaler's: the scale subresource of any kind, custom kinds' included
                rule(List.of("get", "update"), "*", "*/scale"),
                // the certificate controller's: it cleans up old requests, approves kubelets' client certificates
                // and signs for the four built-in signers (CertificateApproval and CertificateSigning ask for these)
                rule(List.of("delete"), CertificateAdmission.GROUP, "certificatesigningrequests"),
                rule(List.of("update"), CertificateAdmission.GROUP, "certificatesigningrequests/approval",
                        "certificatesigningrequests/status"),
                named(List.of("approve"), CertificateAdmission.GROUP, "signers", KUBE_APISERVER_CLIENT_KUBELET),
                named(List.of("sign"), CertificateAdmission.GROUP, "signers", LEGACY_UNKNOWN,
                        CertificateAdmission.KUBE_APISERVER_CLIENT, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING),
                rule(List.of("create"), "authentication.k8s.io", "tokenreviews"),
                rule(List.of("create"), "authorization.k8s.io", "subjectaccessreviews"));
    }

    public static List<ClusterRole> clusterRoles() {
        return List.of(
                role("cluster-admin", List.of(
                        PolicyRule.newBuilder().setVerbs(List.of("*")).setApiGroups(List.of("*"))
                                .setResources(List.of("*")).build(),
                        urls(List.of("*"), "*"))),
                role("system:discovery", List.of(urls(List.of("get"), "/api", "/api/*", "/apis", "/apis/*", "/healthz",
                        "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"))),
                role("system:public-info-viewer", List.of(urls(List.of("get"), "/healthz", "/livez", "/readyz",
                        "/version", "/version/"))),
                role("system:basic-user", List.of(
                        rule(List.of("create"), "authorization.k8s.io", "selfsubjectaccessreviews",
                                "selfsubjectrulesreviews"),
                        rule(List.of("create"), "authentication.k8s.io", "selfsubjectreviews"))),
                aggregating("admin", adminRules(), "admin", null),
                aggregating("edit", editRules(), "edit", "admin"),
                aggregating("view", viewRules(), "view", "edit"),
                aggregated("system:aggregate-to-admin", adminOnlyRules(), "admin"),
                aggregated("system:aggregate-to-edit", editOnlyRules(), "edit"),
                aggregated("system:aggregate-to-view", viewRules(), "view"),
                role("system:node", nodeRules()),
                role("system:kube-scheduler", schedulerRules()),
                role("system:kube-controller-manager", controllerManagerRules()),
                role("system:certificates.k8s.io:certificatesigningrequests:nodeclient", List.of(
                        rule(List.of("create"), CertificateAdmission.GROUP, "certificatesigningrequests/nodeclient"))),
                role("system:certificates.k8s.io:certificatesigningrequests:selfnodeclient", List.of(
                        rule(List.of("create"), CertificateAdmission.GROUP,
                                "certificatesigningrequests/selfnodeclient"))),
                approver("legacy-unknown", LEGACY_UNKNOWN),
                approver("kubelet-serving", KUBELET_SERVING),
                approver("kube-apiserver-client", CertificateAdmission.KUBE_APISERVER_CLIENT),
                approver("kube-apiserver-client-kubelet", KUBE_APISERVER_CLIENT_KUBELET));
    }

    /** system:certificates.k8s.io:&lt;name&gt;-approver: approving requests to one signer (CertificateApproval). */
    private static ClusterRole approver(String name, String signer) {
        return role("system:certificates.k8s.io:" + name + "-approver",
                List.of(named(List.of("approve"), CertificateAdmission.GROUP, "signers", signer)));
    }

    public static List<ClusterRoleBinding> clusterRoleBindings() {
        return List.of(
                binding("cluster-admin", group("system:masters")),
                binding("system:discovery", group("system:authenticated")),
                binding("system:basic-user", group("system:authenticated")),
                binding("system:public-info-viewer", group("system:authenticated"), group("system:unauthenticated")),
                binding("system:node"),
                binding("system:kube-scheduler", user("system:kube-scheduler")),
                binding("system:kube-controller-manager", user("system:kube-controller-manager")));
    }

    /** Every bootstrap object, roles before bindings. */
    public static List<SpecificRecord> all() {
        List<SpecificRecord> out = new ArrayList<>(clusterRoles());
        out.addAll(clusterRoleBindings());
        return out;
    }

    private static ObjectMeta meta(String name) {
        return ObjectMeta.newBuilder().setName(name).setLabels(LABELS).setAnnotations(ANNOTATIONS).build();
    }

    private static ClusterRole role(String name, List<PolicyRule> rules) {
        return ClusterRole.newBuilder().setMetadata(meta(name)).setRules(rules).build();
    }

    /**
     * A role whose rules the {@code clusterrole-aggregation} controller keeps: those of the roles labelled
     * {@code rbac.authorization.k8s.io/aggregate-to-<selects>}; it carries them from the start (the controller's
     * result, so it has nothing to change), and is itself aggregated into {@code aggregatedInto} when given.
     */
    private static ClusterRole aggregating(String name, List<PolicyRule> rules, String selects, String aggregatedInto) {
        ClusterRole r = aggregated(name, rules, aggregatedInto);
        return ClusterRole.newBuilder(r).setAggregationRule(AggregationRule.newBuilder().setClusterRoleSelectors(List.of(
                LabelSelector.newBuilder().setMatchLabels(Map.of(AGGREGATE_TO + selects, "true")).build())).build())
                .build();
    }

    /** A role aggregated into {@code into} (labelled for it), or a plain one when null. */
    private static ClusterRole aggregated(String name, List<PolicyRule> rules, String into) {
        ObjectMeta meta = meta(name);
        if (into != null) {
            Map<String, String> labels = new java.util.TreeMap<>(LABELS);
            labels.put(AGGREGATE_TO + into, "true");
            meta = ObjectMeta.newBuilder(meta).setLabels(labels).build();
        }
        return ClusterRole.newBuilder().setMetadata(meta).setRules(rules).build();
    }

    private static ClusterRoleBinding binding(String role, Subject... subjects) {
        return ClusterRoleBinding.newBuilder().setMetadata(meta(role)).setSubjects(subjects.length == 0 ? null : List.of(subjects))
                .setRoleRef(RoleRef.newBuilder().setApiGroup(RBAC).setKind("ClusterRole").setName(role).build())
                .build();
    }

    private static Subject group(String name) {
        return Subject.newBuilder().setKind("Group").setApiGroup(RBAC).setName(name).build();
    }

    private static Subject user(String name) {
        return Subject.newBuilder().setKind("User").setApiGroup(RBAC).setName(name).build();
    }
}
