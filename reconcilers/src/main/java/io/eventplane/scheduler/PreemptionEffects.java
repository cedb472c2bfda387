package io.eventplane.scheduler;

import io.eventplane.client.Commands;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Conditions;
import io.eventplane.log.Command;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a preemption does, as kube-scheduler does it: each victim not already terminating gets the DisruptionTarget
 * condition (reason PreemptionByScheduler, "default-scheduler: preempting to accommodate a higher priority pod") and is
 * then deleted with its own grace period, with a {@code Preempted} Event "Preempted by pod &lt;uid&gt; on node
 * &lt;node&gt;"; lower-priority pods nominated to the node lose their nomination. Pure: commands and Events as data.
 */
public final class PreemptionEffects {
    public static final String DISRUPTION_TARGET = "DisruptionTarget";
    public static final String PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";
    public static final String PREEMPTED = "Preempted";

    private PreemptionEffects() {
    }

    /** The commands, in order: per victim its condition then its delete (same key, so the writer sees them in order). */
    public static List<Command> commands(Commands commands, Pod preemptor, Preemption.Nominated n, Instant now) {
        List<Command> out = new ArrayList<>();
        for (Pod victim : n.victims()) {
            if (victim.getMetadata().getDeletionTimestamp() != null) {
                continue; // its graceful deletion has begun already
            }
            out.add(commands.updateStatus(disruptionTarget(victim, preemptor, now)));
            out.add(commands.delete(Kinds.POD, victim.getMetadata().getNamespace(), victim.getMetadata().getName(),
                    null, victim.getMetadata().getUid()));
        }
        for (Pod p : n.displaced()) {
            out.add(commands.updateStatus(Pod.newBuilder(p).setStatus(PodStatus.newBuilder(p.getStatus())
                    .setNominatedNodeName(null).build()).build()));
        }
        return out;
    }

    /** The Preempted Events, one per victim whose deletion this preemption starts. */
    public static List<EventNotice> events(Pod preemptor, Preemption.Nominated n) {
        List<EventNotice> out = new ArrayList<>();
        for (Pod victim : n.victims()) {
            if (victim.getMetadata().getDeletionTimestamp() == null) {
                out.add(EventNotice.normal(ObjectReferences.of(victim), PREEMPTED, "Preempted by pod "
                        + preemptor.getMetadata().getUid() + " on node " + n.node()));
            }
        }
        return out;
    }

    /** {@code victim} with DisruptionTarget=True, reason PreemptionByScheduler, as the preemptor's scheduler words it. */
    public static Pod disruptionTarget(Pod victim, Pod preemptor, Instant now) {
        String scheduler = preemptor.getSpec().getSchedulerName() == null ? SchedulerDecider.DEFAULT_SCHEDULER
                : preemptor.getSpec().getSchedulerName();
        PodCondition condition = PodCondition.newBuilder().setType(DISRUPTION_TARGET).setStatus("True")
                .setReason(PREEMPTION_BY_SCHEDULER)
                .setMessage(scheduler + ": preempting to accommodate a higher priority pod")
                .setLastTransitionTime(now).build();
        PodStatus status = victim.getStatus() == null ? new PodStatus() : victim.getStatus();
        return Pod.newBuilder(victim).setStatus(PodStatus.newBuilder(status)
                .setConditions(Conditions.set(status.getConditions(), condition)).build()).build();
    }
}
