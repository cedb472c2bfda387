package io.eventplane.controllers.deployment;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A Deployment status's conditions (Progressing, Available, ReplicaFailure), kept as Kubernetes' deployment
 * controller keeps them (its SetDeploymentCondition). That rule differs from {@link Conditions#set} on purpose:
 * <ul>
 *   <li>the same status and reason is no change at all: message and lastUpdateTime stay as they were;</li>
 *   <li>a changed condition moves to the end of the list instead of keeping its place;</li>
 *   <li>with the same status the lastTransitionTime is copied even when the old condition has none.</li>
 * </ul>
 * The status is changed in place: it is the step's own copy.
 */
final class DeploymentConditions {
    private DeploymentConditions() {
    }

    /** The condition of {@code type}, or null. */
    static DeploymentCondition get(DeploymentStatus status, String type) {
        return Conditions.find(status.getConditions(), type).orElse(null);
    }

    /** A condition that changed {@code now}: both its update and transition times are now. */
    static DeploymentCondition of(String type, String status, String reason, String message, Instant now) {
        return DeploymentCondition.newBuilder().setType(type).setStatus(status).setReason(reason).setMessage(message)
                .setLastUpdateTime(now).setLastTransitionTime(now).build();
    }

    static void set(DeploymentStatus status, DeploymentCondition c) {
        DeploymentCondition current = get(status, c.getType());
        if (current != null && Objects.equals(current.getStatus(), c.getStatus())) {
            if (Objects.equals(current.getReason(), c.getReason())) {
                return;
            }
            c = DeploymentCondition.newBuilder(c).setLastTransitionTime(current.getLastTransitionTime()).build();
        }
        List<DeploymentCondition> list = Conditions.remove(status.getConditions(), c.getType());
        list.add(c);
        status.setConditions(list);
    }

    /** Removes the condition of {@code type}; a list left empty becomes null, as a status that never had one. */
    static void remove(DeploymentStatus status, String type) {
        if (status.getConditions() == null) {
            return;
        }
        List<DeploymentCondition> list = Conditions.remove(status.getConditions(), type);
        status.setConditions(list.isEmpty() ? null : list);
    }
}
