package io.eventplane.controllers.deployment;

import java.util.Set;

/** The annotations and the label the Deployment controller writes (DEP-16, DEP-23, DEP-24, DEP-39). */
public final class DeploymentAnnotations {
    public static final String REVISION = "deployment.kubernetes.io/revision";
    public static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
    public static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
    public static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
    public static final String CHANGE_CAUSE = "kubernetes.io/change-cause";
    public static final String POD_TEMPLATE_HASH = "pod-template-hash";
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    public static final String ROLLBACK_TO = "deprecated.deployment.rollback.to";

    /** Deployment annotations not copied onto its ReplicaSets. */
    static final Set<String> NOT_COPIED = Set.of(LAST_APPLIED, REVISION, REVISION_HISTORY, DESIRED_REPLICAS,
            MAX_REPLICAS, ROLLBACK_TO);

    private DeploymentAnnotations() {
    }

    static long revision(java.util.Map<String, String> annotations) {
        String v = annotations == null ? null : annotations.get(REVISION);
        if (v == null) {
            return 0;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static Integer intValue(java.util.Map<String, String> annotations, String key) {
        String v = annotations == null ? null : annotations.get(key);
        if (v == null) {
            return null;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
