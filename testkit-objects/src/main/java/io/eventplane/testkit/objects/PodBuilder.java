package io.eventplane.testkit.objects;

import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A pod in namespace default with one container "c" (image nginx) and no status: as a user creates it. Status
 * settings (phase, conditions, QoS class) add a status.
 */
public final class PodBuilder extends PodSpecBuilder<PodBuilder> {
    private PodStatus.Builder status;
    private final List<UnaryOperator<PodStatus.Builder>> statusEdits = new ArrayList<>();

    PodBuilder(String name) {
        super(name, "default");
    }

    /** Bound to this node (spec.nodeName). */
    public PodBuilder onNode(String nodeName) {
        nodeName(nodeName);
        return this;
    }

    public PodBuilder phase(String phase) {
        status().setPhase(phase);
        return this;
    }

    public PodBuilder pending() {
        return phase("Pending");
    }

    public PodBuilder running() {
        return phase("Running");
    }

    /** Adds a condition of this type and status ("True", "False", "Unknown"). */
    public PodBuilder condition(String type, String status) {
        return condition(PodCondition.newBuilder().setType(type).setStatus(status).build());
    }

    /** Adds this condition. */
    public PodBuilder condition(PodCondition condition) {
        PodStatus.Builder s = status();
        List<PodCondition> conditions = new ArrayList<>();
        if (s.getConditions() != null) {
            conditions.addAll(s.getConditions());
        }
        conditions.add(condition);
        s.setConditions(conditions);
        return this;
    }

    /** Adds the Ready condition, True or False. */
    public PodBuilder ready(boolean ready) {
        return condition("Ready", ready ? "True" : "False");
    }

    public PodBuilder qosClass(String qosClass) {
        status().setQosClass(qosClass);
        return this;
    }

    /** Any other status field, applied last (adds a status). */
    public PodBuilder status(UnaryOperator<PodStatus.Builder> edit) {
        status();
        statusEdits.add(edit);
        return this;
    }

    public Pod build() {
        PodStatus built = null;
        if (status != null) {
            PodStatus.Builder b = status;
            for (UnaryOperator<PodStatus.Builder> edit : statusEdits) {
                b = edit.apply(b);
            }
            built = b.build();
        }
        return Pod.newBuilder().setMetadata(buildMeta()).setSpec(buildSpec()).setStatus(built).build();
    }

    private PodStatus.Builder status() {
        if (status == null) {
            status = PodStatus.newBuilder();
        }
        return status;
    }
}
