package io.eventplane.controllers.deployment;

import io.eventplane.client.events.EventNotice;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.Deployment;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.List;

/**
 * The Deployment controller's decision (§1): given a Deployment, the ReplicaSets and pods of its namespace and the
 * time, one level-triggered step: adopt or release ReplicaSets, find or create the new ReplicaSet (named
 * {@code <deployment>-<pod-template-hash>}), sync revisions, scale (RollingUpdate, Recreate, proportional scaling
 * while paused or mid-rollout), clean up history, and compute status and conditions. Pure; the clock is {@code now}.
 *
 * <p>As Kubernetes' controller, a step does one thing: when it scaled the new ReplicaSet up, old ones are scaled down
 * on a later step that sees the result. That is what makes the ScalingReplicaSet sequence of DEP-28 come out exactly.
 *
 * <p>This class is the entry point and the dispatch (upstream's syncDeployment); the parts are split as upstream
 * splits pkg/controller/deployment, each working on one {@link DeploymentStep}:
 * <ul>
 *   <li>{@link DeploymentRevisions}: the new ReplicaSet and the revision annotations;</li>
 *   <li>{@link DeploymentSync} (sync.go): scaling while paused or resized, proportional scaling, history cleanup,
 *       the status counts;</li>
 *   <li>{@link RollingRollout} (rolling.go) and {@link RecreateRollout} (recreate.go): the two strategies;</li>
 *   <li>{@link DeploymentProgress} (progress.go): the Progressing and ReplicaFailure conditions, the deadline;</li>
 *   <li>{@link DeploymentConditions}: how a condition is set, as upstream's SetDeploymentCondition.</li>
 * </ul>
 */
public final class DeploymentDecider {
    public static final String PROGRESSING = "Progressing";
    public static final String AVAILABLE = "Available";
    public static final String REPLICA_FAILURE = "ReplicaFailure";

    private DeploymentDecider() {
    }

    /**
     * @param replicaSets every ReplicaSet of the Deployment's namespace
     * @param pods        every pod of the namespace (read for Recreate: no new pod while an old one exists)
     */
    public static Reconciliation decide(Deployment d, List<ReplicaSet> replicaSets, List<Pod> pods, Instant now) {
        if (d.getSpec() == null || d.getMetadata() == null || d.getMetadata().getUid() == null) {
            return Reconciliation.NOTHING;
        }
        DeploymentStep step = new DeploymentStep(d, replicaSets, pods, now);
        sync(step);
        return step.result();
    }

    private static void sync(DeploymentStep step) {
        Deployment d = step.d;
        if (LabelSelectors.isEmpty(d.getSpec().getSelector())) {
            step.events.add(EventNotice.warning(step.involved, "SelectingAll",
                    "This deployment is selecting all pods. A non-empty selector is required."));
            step.status.setObservedGeneration(d.getMetadata().getGeneration());
            return;
        }
        if (d.getMetadata().getDeletionTimestamp() != null) {
            DeploymentSync.syncStatusOnly(step);
            return;
        }
        DeploymentProgress.checkPausedConditions(step);
        if (step.paused() || DeploymentSync.isScalingEvent(step)) {
            DeploymentSync.syncScale(step);
            return;
        }
        if (RolloutMath.isRollingUpdate(d)) {
            RollingRollout.rollout(step);
        } else {
            RecreateRollout.rollout(step);
        }
    }

    /** The template without its pod-template-hash label: what says whether a ReplicaSet runs the Deployment's. */
    static PodTemplateSpec withoutHash(PodTemplateSpec t) {
        return DeploymentRevisions.withoutHash(t);
    }
}
