package io.eventplane.controllers;

import io.eventplane.client.ClusterView;
import io.eventplane.client.Commands;
import io.eventplane.client.admission.AdmissionChain;
import io.eventplane.client.admission.AdmissionRefusal;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.client.admission.AdmissionResult;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.quota.QuotaUsage;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import java.time.Clock;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * The controller runtime's admission of creates in {@link SimulatedCluster}: the shared chain
 * ({@link AdmissionChain#forControllers}) on the cluster's store, its quota reservations written through the cluster's
 * writer as quota admission's actor; a refusal answered as kube-apiserver's Forbidden outcome.
 */
final class SimulatedAdmission {
    private final ClusterView store;
    private final AdmissionChain chain;

    SimulatedAdmission(ClusterView store, Clock clock, Function<Command, CommandOutcome> writer) {
        this.store = store;
        Commands reservations = new Commands(QuotaUsage.ADMISSION_ACTOR, clock);
        this.chain = AdmissionChain.forControllers(store, clock, quota -> {
            CommandOutcome o = writer.apply(reservations.updateStatus(quota));
            return o.getAccepted();
        });
    }

    /** The create of {@code object} (a pod or claim) admitted: the command to send, or the refusal's outcome. */
    CommandOutcome create(Commands as, SpecificRecord object, Function<Command, CommandOutcome> writer) {
        KindInfo kind = Kinds.of(object);
        Command command = as.create(object);
        boolean taken = store.get(Keys.of(command.getKind(), command.getNamespace(), command.getName())).isPresent();
        if ((kind != Kinds.POD && kind != Kinds.PERSISTENT_VOLUME_CLAIM) || taken) {
            return writer.apply(command); // a name taken already: the writer refuses it, nothing is reserved
        }
        AdmissionResult r = chain.create(AdmissionRequest.create(object), object, o -> { });
        if (!r.isRefused()) {
            return writer.apply(as.create(r.object()));
        }
        AdmissionRefusal refusal = r.refusal();
        return CommandOutcome.newBuilder().setEnvelope(command.getEnvelope()).setKind(command.getKind())
                .setNamespace(command.getNamespace()).setName(command.getName()).setAccepted(false)
                .setCode(refusal.code()).setReason(refusal.reason()).setMessage(refusal.message()).build();
    }
}
