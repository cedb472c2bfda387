package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * What one kind adds to the generic write rules: defaulting, validation and graceful deletion. Pure: no I/O, time
 * comes from the command.
 */
public interface KindRules<T extends SpecificRecord> {

    /** Kubernetes' defaulting, applied to every object written (create and update) before validation. */
    default T defaults(T object) {
        return object;
    }

    /** The object as the writer stores it on creation: defaults filled in, server-owned status initialised. */
    T prepareForCreate(T object, Instant now);

    /**
     * The cause of an invalid object name, if any: most kinds take a DNS subdomain (Kubernetes'
     * {@code NameIsDNSSubdomain}); a Namespace a DNS label, a Service a DNS-1035 label.
     */
    default Optional<StatusCause> validateName(String name) {
        return Names.subdomain("metadata.name", name);
    }

    /** Causes of an invalid object; empty when valid. Runs on creation and after every update. */
    List<StatusCause> validate(T object);

    /** Causes that only apply to a new object (on top of {@link #validate}). */
    default List<StatusCause> validateCreate(T object) {
        return List.of();
    }

    /**
     * The object an update stores, from the stored one and the defaulted update, before validation (Kubernetes'
     * PrepareForUpdate): a Service keeps the cluster IPs and node ports a client left out, a DaemonSet's template
     * generation moves with its template. Status is already the stored one; not called for status updates.
     */
    default T prepareForUpdate(T old, T updated) {
        return updated;
    }

    /** Causes of a forbidden transition from {@code old} to {@code updated} (immutable fields); empty when allowed. */
    default List<StatusCause> validateUpdate(T old, T updated) {
        return List.of();
    }

    /** A status written through the status subresource, checked against the stored object. */
    default List<StatusCause> validateStatusUpdate(T old, T updated) {
        return List.of();
    }

    /**
     * The grace period a deletion gets when the request names none or names one; 0 deletes at once. Only pods are
     * deleted gracefully.
     */
    default long gracePeriodSeconds(T object, Long requested) {
        return 0;
    }

    /**
     * The object a write through the {@code finalize} subresource stores, from the stored one and the one written;
     * null when the kind has no such subresource. Only a Namespace has one (its spec.finalizers).
     */
    default T finalize(T stored, T written) {
        return null;
    }

    /**
     * The object a write through the {@code approval} subresource stores (the stored object with the written
     * conditions); null when the kind has no such subresource. Only a CertificateSigningRequest has one.
     */
    default T approval(T stored, T written, Instant now) {
        return null;
    }

    /** Why an {@code approval} write from {@code stored} to {@code next} is invalid. */
    default List<StatusCause> validateApproval(T stored, T next) {
        return List.of();
    }

    /**
     * The object a write through the {@code ephemeralcontainers} subresource stores; null when the kind has no such
     * subresource. Only a Pod has one.
     */
    default T ephemeralContainers(T stored, T written) {
        return null;
    }

    /** Why an {@code ephemeralcontainers} write from {@code stored} to {@code next} is invalid. */
    default List<StatusCause> validateEphemeralContainers(T stored, T next) {
        return List.of();
    }

    /**
     * Why a delete of {@code object} is refused, if it is: a system PriorityClass (Kubernetes' registry refuses it), a
     * Namespace whose content is still being removed.
     */
    default Optional<Rejection> refuseDelete(T object) {
        return Optional.empty();
    }

    /**
     * Whether the object stays after its deletion started although no metadata.finalizers are left: a Namespace
     * stays Terminating until its spec.finalizers are empty.
     */
    default boolean heldAfterDeletion(T object) {
        return false;
    }

    /** The object as its deletion starts (a Namespace's phase turns Terminating); metadata is the writer's. */
    default T markDeleting(T object) {
        return object;
    }

    /**
     * What a delete without {@code propagationPolicy} does to dependents: {@code Background} (cascade) for most kinds,
     * {@code Orphan} where Kubernetes keeps it for backward compatibility (v1 ReplicationController, batch/v1 Job).
     */
    default String defaultPropagationPolicy() {
        return "Background";
    }
}
