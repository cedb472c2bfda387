package io.eventplane.core.decide;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.StatusCause;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Pod defaulting, validation and deletion rules (spec/pods.md sections 1, 2, 12 and 14); each container's own defaults
 * and validation (probes, lifecycle handlers) are {@link PodContainerRules}.
 */
public final class PodRules implements KindRules<Pod> {
    static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    static final List<String> TERMINAL = List.of("Succeeded", "Failed");
    /** The condition types the status subresource does not check as qualified names. */
    static final List<String> SYSTEM_CONDITIONS = List.of("PodScheduled", "Ready", "Initialized");
    static final long DEFAULT_GRACE = 30;
    static final long DEFAULT_TOLERATION_SECONDS = 300;
    public static final String DEFAULT_SERVICE_ACCOUNT = "default";

    @Override
    public Pod defaults(Pod pod) {
        if (pod.getSpec() == null) {
            return pod;
        }
        PodSpec spec = specDefaults(pod.getSpec()); // a new record: set its fields
        // Pod-level defaults (Kubernetes' SetDefaults_Pod and admission): pod templates do not get these.
        if (spec.getEnableServiceLinks() == null) {
            spec.setEnableServiceLinks(true);
        }
        // The deprecated serviceAccount field mirrors serviceAccountName, as v1's conversion keeps them.
        if (empty(spec.getServiceAccountName()) && !empty(spec.getServiceAccount())) {
            spec.setServiceAccountName(spec.getServiceAccount());
        }
        if (!empty(spec.getServiceAccountName())) {
            spec.setServiceAccount(spec.getServiceAccountName());
        }
        return ObjectAccess.with(pod, "spec", spec);
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    /** The PodSpec defaults, which pod templates of workloads get as well. */
    static PodSpec specDefaults(PodSpec podSpec) {
        PodSpec spec = ObjectAccess.shallow(podSpec);
        if (spec.getRestartPolicy() == null) {
            spec.setRestartPolicy("Always");
        }
        if (spec.getTerminationGracePeriodSeconds() == null) {
            spec.setTerminationGracePeriodSeconds(DEFAULT_GRACE);
        }
        if (spec.getDnsPolicy() == null) {
            spec.setDnsPolicy("ClusterFirst");
        }
        if (spec.getSchedulerName() == null) {
            spec.setSchedulerName("default-scheduler");
        }
        spec.setContainers(PodContainerRules.defaults(spec.getContainers()));
        spec.setInitContainers(PodContainerRules.defaults(spec.getInitContainers()));
        return spec;
    }

    /** The default imagePullPolicy: Always for an image without a tag or tagged latest, IfNotPresent otherwise. */
    public static String imagePullPolicy(String image) {
        String last = image.substring(image.lastIndexOf('/') + 1);
        if (last.contains("@")) {
            return "IfNotPresent";
        }
        int colon = last.lastIndexOf(':');
        return colon < 0 || last.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
    }

    /** DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for 300 s unless the pod says otherwise. */
    private static List<Toleration> defaultTolerations(List<Toleration> tolerations) {
        List<Toleration> out = tolerations == null ? new ArrayList<>() : new ArrayList<>(tolerations);
        for (String key : List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")) {
            boolean present = out.stream().anyMatch(t -> (t.getKey() == null && "Exists".equals(t.getOperator()))
                    || (key.equals(t.getKey()) && (t.getEffect() == null || "NoExecute".equals(t.getEffect()))));
            if (!present) {
                out.add(Toleration.newBuilder().setKey(key).setOperator("Exists").setEffect("NoExecute")
                        .setTolerationSeconds(DEFAULT_TOLERATION_SECONDS).build());
            }
        }
        return out;
    }

    @Override
    public Pod prepareForCreate(Pod pod, Instant now) {
        if (pod.getSpec() != null) {
            // Admission steps, creation only. DefaultTolerationSeconds; the ServiceAccount plugin's default name; the
            // Priority plugin's answer without a class (the API resolves priorityClassName before it gets here).
            PodSpec spec = ObjectAccess.shallow(pod.getSpec());
            spec.setTolerations(defaultTolerations(spec.getTolerations()));
            boolean mirror = pod.getMetadata() != null && pod.getMetadata().getAnnotations() != null
                    && pod.getMetadata().getAnnotations().containsKey("kubernetes.io/config.mirror");
            if (empty(spec.getServiceAccountName()) && !mirror) { // a kubelet's mirror pod names no account
                spec.setServiceAccountName(DEFAULT_SERVICE_ACCOUNT);
                spec.setServiceAccount(DEFAULT_SERVICE_ACCOUNT);
            }
            if (spec.getPriority() == null) {
                spec.setPriority(0);
            }
            if (spec.getPreemptionPolicy() == null) {
                spec.setPreemptionPolicy("PreemptLowerPriority");
            }
            pod = ObjectAccess.with(pod, "spec", spec);
        }
        PodStatus status = PodStatus.newBuilder().setPhase("Pending").setQosClass(qosClass(pod.getSpec())).build();
        return ObjectAccess.with(pod, "status", status);
    }

    @Override
    public List<StatusCause> validate(Pod pod) {
        List<StatusCause> causes = new ArrayList<>();
        PodSpec spec = pod.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        if (spec.getContainers() == null || spec.getContainers().isEmpty()) {
            causes.add(Causes.required("spec.containers")); // POD-1.2
        }
        Set<String> names = new HashSet<>();
        Long grace = spec.getTerminationGracePeriodSeconds();
        PodContainerRules.validate("spec.containers", spec.getContainers(), names, grace, false, causes);
        PodContainerRules.validate("spec.initContainers", spec.getInitContainers(), names, grace, true, causes);
        PodOsValidation.stopSignals(spec, causes);
        if (spec.getRestartPolicy() != null && !RESTART_POLICIES.contains(spec.getRestartPolicy())) {
            causes.add(Causes.notSupported("spec.restartPolicy", spec.getRestartPolicy(), RESTART_POLICIES));
        }
        if (spec.getActiveDeadlineSeconds() != null && spec.getActiveDeadlineSeconds() < 0) {
            causes.add(Causes.invalid("spec.activeDeadlineSeconds", spec.getActiveDeadlineSeconds(),
                    "must be between 0 and 2147483647, inclusive"));
        }
        if (spec.getTerminationGracePeriodSeconds() != null && spec.getTerminationGracePeriodSeconds() < 0) {
            causes.add(Causes.invalid("spec.terminationGracePeriodSeconds", spec.getTerminationGracePeriodSeconds(),
                    "must be greater than or equal to 0"));
        }
        if (spec.getTolerations() != null) {
            for (int i = 0; i < spec.getTolerations().size(); i++) {
                Toleration t = spec.getTolerations().get(i);
                String f = "spec.tolerations[" + i + "]";
                if (t.getOperator() != null && !List.of("Exists", "Equal").contains(t.getOperator())) {
                    causes.add(Causes.notSupported(f + ".operator", t.getOperator(), List.of("Equal", "Exists")));
                }
                if ("Exists".equals(t.getOperator()) && t.getValue() != null && !t.getValue().isEmpty()) {
                    causes.add(Causes.invalid(f + ".operator", t.getOperator(),
                            "value must be empty when `operator` is 'Exists'"));
                }
                if (t.getEffect() != null && !t.getEffect().isEmpty()
                        && !List.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(t.getEffect())) {
                    causes.add(Causes.notSupported(f + ".effect", t.getEffect(),
                            List.of("NoExecute", "NoSchedule", "PreferNoSchedule")));
                }
                if (t.getTolerationSeconds() != null && !"NoExecute".equals(t.getEffect())) {
                    causes.add(Causes.invalid(f + ".effect", t.getEffect(),
                            "effect must be 'NoExecute' when `tolerationSeconds` is set"));
                }
            }
        }
        validateSpreadConstraints(spec.getTopologySpreadConstraints(), causes);
        if (spec.getReadinessGates() != null) {
            for (int i = 0; i < spec.getReadinessGates().size(); i++) { // POD-6.4: a gate's type is a label key
                String type = spec.getReadinessGates().get(i).getConditionType();
                Formats.qualifiedName("spec.readinessGates[" + i + "].conditionType", type == null ? "" : type, causes);
            }
        }
        PodOsValidation.windowsHostProcess(spec, causes);
        PodOsValidation.hostUsersAndOs(spec, causes);
        return causes;
    }

    /** Kubernetes' validation of topologySpreadConstraints (W-T14: a maxSkew of 0 is refused). */
    private static void validateSpreadConstraints(List<io.eventplane.model.TopologySpreadConstraint> constraints,
                                                  List<StatusCause> causes) {
        if (constraints == null) {
            return;
        }
        Set<String> pairs = new java.util.HashSet<>();
        for (int i = 0; i < constraints.size(); i++) {
            io.eventplane.model.TopologySpreadConstraint c = constraints.get(i);
            String f = "spec.topologySpreadConstraints[" + i + "]";
            if (c.getMaxSkew() == null || c.getMaxSkew() <= 0) {
                causes.add(Causes.invalid(f + ".maxSkew", c.getMaxSkew() == null ? 0 : c.getMaxSkew(),
                        "must be greater than zero"));
            }
            if (c.getTopologyKey() == null || c.getTopologyKey().isEmpty()) {
                causes.add(Causes.required(f + ".topologyKey", "can not be empty"));
            }
            List<String> actions = List.of("DoNotSchedule", "ScheduleAnyway");
            if (c.getWhenUnsatisfiable() == null || c.getWhenUnsatisfiable().isEmpty()) {
                causes.add(Causes.required(f + ".whenUnsatisfiable"));
            } else if (!actions.contains(c.getWhenUnsatisfiable())) {
                causes.add(Causes.notSupported(f + ".whenUnsatisfiable", c.getWhenUnsatisfiable(), actions));
            }
            if (c.getMinDomains() != null) {
                if (c.getMinDomains() <= 0) {
                    causes.add(Causes.invalid(f + ".minDomains", c.getMinDomains(), "must be greater than zero"));
                } else if (!"DoNotSchedule".equals(c.getWhenUnsatisfiable())) {
                    causes.add(Causes.invalid(f + ".minDomains", c.getMinDomains(),
                            "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
                                    + c.getWhenUnsatisfiable()));
                }
            }
            for (String[] policy : new String[][] {{"nodeAffinityPolicy", c.getNodeAffinityPolicy()},
                    {"nodeTaintsPolicy", c.getNodeTaintsPolicy()}}) {
                if (policy[1] != null && !List.of("Honor", "Ignore").contains(policy[1])) {
                    causes.add(Causes.notSupported(f + "." + policy[0], policy[1], List.of("Honor", "Ignore")));
                }
            }
            if (c.getTopologyKey() != null && c.getWhenUnsatisfiable() != null
                    && !pairs.add(c.getTopologyKey() + "/" + c.getWhenUnsatisfiable())) {
                causes.add(Causes.duplicate(f, "{" + c.getTopologyKey() + ", " + c.getWhenUnsatisfiable() + "}"));
            }
        }
    }

    @Override
    public List<StatusCause> validateCreate(Pod pod) {
        if (pod.getSpec() != null && pod.getSpec().getActiveDeadlineSeconds() != null
                && pod.getSpec().getActiveDeadlineSeconds() == 0) {
            return List.of(Causes.invalid("spec.activeDeadlineSeconds", 0L, "must be between 1 and 2147483647, inclusive"));
        }
        return List.of();
    }

    /** The priority set at creation stays when an update leaves it out (Kubernetes' Priority admission on update). */
    @Override
    public Pod prepareForUpdate(Pod old, Pod updated) {
        if (old.getSpec() == null || updated.getSpec() == null) {
            return updated;
        }
        PodSpec spec = ObjectAccess.shallow(updated.getSpec());
        if (spec.getPriority() == null) {
            spec.setPriority(old.getSpec().getPriority());
        }
        if (spec.getPreemptionPolicy() == null) {
            spec.setPreemptionPolicy(old.getSpec().getPreemptionPolicy());
        }
        return ObjectAccess.with(updated, "spec", spec);
    }

    /** POD-2.8 / POD-2.9: which spec fields an update may change. */
    @Override
    public List<StatusCause> validateUpdate(Pod old, Pod updated) {
        List<StatusCause> causes = new ArrayList<>();
        PodSpec o = old.getSpec();
        PodSpec n = updated.getSpec();
        if (o == null || n == null) {
            return causes;
        }
        Long oldDeadline = o.getActiveDeadlineSeconds();
        Long newDeadline = n.getActiveDeadlineSeconds();
        if (!Objects.equals(oldDeadline, newDeadline)) {
            boolean allowed = (oldDeadline == null && newDeadline != null && newDeadline > 0)
                    || (oldDeadline != null && newDeadline != null && newDeadline >= 0 && newDeadline < oldDeadline);
            if (!allowed) {
                causes.add(Causes.invalid("spec.activeDeadlineSeconds", newDeadline == null ? "null" : newDeadline,
                        "must be less than or equal to previous value and may not be unset once set"));
            }
        }
        List<Toleration> oldTolerations = o.getTolerations() == null ? List.of() : o.getTolerations();
        List<Toleration> newTolerations = n.getTolerations() == null ? List.of() : n.getTolerations();
        if (!newTolerations.containsAll(oldTolerations)) {
            causes.add(Causes.forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
        }
        // Everything else must be equal once the mutable fields are taken from the old spec.
        PodSpec.Builder masked = PodSpec.newBuilder(n)
                .setActiveDeadlineSeconds(o.getActiveDeadlineSeconds())
                .setTolerations(o.getTolerations())
                .setContainers(withImages(n.getContainers(), o.getContainers()))
                .setInitContainers(withImages(n.getInitContainers(), o.getInitContainers()));
        if (!masked.build().equals(o)) {
            causes.add(Causes.forbidden("spec", "pod updates may not change fields other than "
                    + "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                    + "`spec.tolerations` (only additions to existing tolerations),"
                    + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"));
        }
        return causes;
    }

    /**
     * POD-6.4, POD-6.5: the status subresource takes custom condition types, each a qualified name (a label key); the
     * kubelet's own types are taken as they are. Kubernetes names the field under metadata, with a capital Type.
     */
    @Override
    public List<StatusCause> validateStatusUpdate(Pod old, Pod updated) {
        List<StatusCause> causes = new ArrayList<>();
        List<PodCondition> conditions = updated.getStatus() == null ? null : updated.getStatus().getConditions();
        if (conditions != null) {
            for (int i = 0; i < conditions.size(); i++) {
                String type = conditions.get(i).getType() == null ? "" : conditions.get(i).getType();
                if (!SYSTEM_CONDITIONS.contains(type)) {
                    Formats.qualifiedName("metadata.conditions[" + i + "].Type", type, causes);
                }
            }
        }
        return causes;
    }

    /** POD-11.2, POD-11.3, POD-11.5: the ephemeralcontainers subresource. */
    @Override
    public Pod ephemeralContainers(Pod stored, Pod written) {
        return EphemeralContainerRules.apply(stored, written);
    }

    @Override
    public List<StatusCause> validateEphemeralContainers(Pod stored, Pod next) {
        return EphemeralContainerRules.validate(stored, next);
    }

    /** {@code updated} with each container's image taken from {@code old} (same count and order), else unchanged. */
    private static List<Container> withImages(List<Container> updated, List<Container> old) {
        if (updated == null || old == null || updated.size() != old.size()) {
            return updated;
        }
        List<Container> out = new ArrayList<>(updated.size());
        for (int i = 0; i < updated.size(); i++) {
            out.add(Container.newBuilder(updated.get(i)).setImage(old.get(i).getImage())
                    .setImagePullPolicy(old.get(i).getImagePullPolicy()).build());
        }
        return out;
    }

    @Override
    public long gracePeriodSeconds(Pod pod, Long requested) {
        if (pod.getSpec() == null || pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty()) {
            return 0; // never scheduled: nothing runs that could be stopped gracefully
        }
        if (pod.getStatus() != null && TERMINAL.contains(pod.getStatus().getPhase())) {
            return 0;
        }
        if (requested != null) {
            return requested;
        }
        Long spec = pod.getSpec().getTerminationGracePeriodSeconds();
        return spec == null ? DEFAULT_GRACE : spec;
    }

    /** The pod bound to {@code node}, with PodScheduled=True (POD-1.13: bound exactly once). */
    static Pod bind(Pod pod, String node, Instant now, String name) {
        if (pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            throw new ObjectDecider.RejectedException(Rejection.conflict("pods/binding", name,
                    "pod " + name + " is already assigned to node \"" + pod.getSpec().getNodeName() + "\""));
        }
        ObjectMeta meta = pod.getMetadata();
        if (meta != null && meta.getDeletionTimestamp() != null) {
            throw new ObjectDecider.RejectedException(Rejection.conflict("pods/binding", name,
                    "pod " + name + " is being deleted, cannot be assigned to a host"));
        }
        PodSpec spec = ObjectAccess.with(pod.getSpec(), "nodeName", node);
        PodStatus status = pod.getStatus() == null ? new PodStatus() : ObjectAccess.shallow(pod.getStatus());
        status.setConditions(Conditions.set(status.getConditions(), PodCondition.newBuilder()
                .setType("PodScheduled").setStatus("True").setLastTransitionTime(now).build()));
        return ObjectAccess.with(ObjectAccess.with(pod, "spec", spec), "status", status);
    }

    /** POD-14: Guaranteed, Burstable or BestEffort, from cpu and memory requests and limits. */
    public static String qosClass(PodSpec spec) {
        if (spec == null) {
            return "BestEffort";
        }
        List<Container> all = new ArrayList<>();
        if (spec.getContainers() != null) {
            all.addAll(spec.getContainers());
        }
        if (spec.getInitContainers() != null) {
            all.addAll(spec.getInitContainers());
        }
        boolean any = false;
        boolean guaranteed = true;
        for (Container c : all) {
            Map<String, String> req = c.getResources() == null || c.getResources().getRequests() == null
                    ? Map.of() : c.getResources().getRequests();
            Map<String, String> lim = c.getResources() == null || c.getResources().getLimits() == null
                    ? Map.of() : c.getResources().getLimits();
            for (String r : List.of("cpu", "memory")) {
                if (req.containsKey(r) || lim.containsKey(r)) {
                    any = true;
                }
                String l = lim.get(r);
                String q = req.getOrDefault(r, l);
                if (l == null || q == null || !PodContainerRules.parses(l) || !PodContainerRules.parses(q)
                        || Quantity.parse(l).compareTo(Quantity.parse(q)) != 0) {
                    guaranteed = false;
                }
            }
        }
        if (!any) {
            return "BestEffort";
        }
        return guaranteed ? "Guaranteed" : "Burstable";
    }
}
