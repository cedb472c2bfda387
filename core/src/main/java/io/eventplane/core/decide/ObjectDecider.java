package io.eventplane.core.decide;

import io.eventplane.core.Digests;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The single writer's decision for any kind: {@code decide(command, current, position) -> change + outcome}. Generic
 * rules (existence, preconditions, server-owned metadata, generation, finalizers, graceful deletion) live here; what a
 * kind adds comes from its {@link KindRules}. Pure and deterministic: the clock is the command's own timestamp and the
 * uid derives from the log position, so re-deciding a command after an aborted transaction gives the same result.
 */
public final class ObjectDecider {
    public static final String FOREGROUND_FINALIZER = "foregroundDeletion";
    public static final String ORPHAN_FINALIZER = "orphan";
    /** The subresource of a Namespace's spec.finalizers ({@code PUT /api/v1/namespaces/x/finalize}). */
    public static final String FINALIZE = "finalize";
    /** The subresource of a Pod's spec.ephemeralContainers ({@code pods/x/ephemeralcontainers}). */
    public static final String EPHEMERAL_CONTAINERS = "ephemeralcontainers";
    /** The subresource of a CertificateSigningRequest's Approved/Denied conditions ({@code .../x/approval}). */
    public static final String APPROVAL = "approval";

    private final RulesRegistry rules;

    public ObjectDecider(RulesRegistry rules) {
        this.rules = rules;
    }

    /**
     * @param command  the command, keyed by its object
     * @param current  the object's last change, or null when it does not exist
     * @param position the resourceVersion this decision is made at (derived from the command's log position)
     */
    public Decision decide(Command command, ObjectChanged current, long position) {
        Optional<KindInfo> kind = Kinds.byKind(command.getKind());
        if (kind.isEmpty()) {
            return reject(command, Rejection.badRequest("unknown kind \"" + command.getKind() + "\""));
        }
        Optional<Rejection> nodeRefusal = NodeRestriction.refusal(command, kind.get(), current);
        if (nodeRefusal.isPresent()) {
            return reject(command, nodeRefusal.get());
        }
        try {
            return switch (command.getVerb()) {
                case CREATE -> create(command, kind.get(), current, position);
                case UPDATE -> update(command, kind.get(), current, position, false);
                case UPDATE_STATUS -> update(command, kind.get(), current, position, true);
                case DELETE -> delete(command, kind.get(), current, position);
                case BIND -> bind(command, kind.get(), current, position);
                default -> reject(command, Rejection.badRequest("unknown verb " + command.getVerb()));
            };
        } catch (RejectedException e) {
            return reject(command, e.rejection);
        }
    }

    private Decision create(Command command, KindInfo kind, ObjectChanged current, long position) {
        if (current != null) {
            throw new RejectedException(Rejection.alreadyExists(resource(kind), command.getName()));
        }
        SpecificRecord object = defaults(kind, requireObject(command, kind));
        Instant now = seconds(command.getEnvelope().getTime());
        ObjectMeta in = ObjectAccess.meta(object);
        checkIdentity(command, kind, in);
        ObjectMeta meta = ObjectMeta.newBuilder(in)
                .setName(command.getName())
                .setNamespace(kind.namespaced() ? command.getNamespace() : null)
                .setUid(uid(command, position))
                .setResourceVersion(Long.toString(position))
                .setGeneration(1L)
                .setCreationTimestamp(now)
                .setDeletionTimestamp(null)
                .setDeletionGracePeriodSeconds(null)
                .build();
        @SuppressWarnings("unchecked")
        KindRules<SpecificRecord> r = (KindRules<SpecificRecord>) rulesFor(kind);
        SpecificRecord prepared = r.prepareForCreate(ObjectAccess.withMeta(object, meta), now);
        List<StatusCause> causes = new ArrayList<>();
        r.validateName(command.getName()).ifPresent(causes::add);
        causes.addAll(MetadataRules.validate(ObjectAccess.meta(prepared)));
        causes.addAll(r.validate(prepared));
        causes.addAll(r.validateCreate(prepared));
        if (!causes.isEmpty()) {
            throw new RejectedException(Rejection.invalid(qualifiedKind(kind), command.getName(), causes));
        }
        return accept(command, ChangeType.CREATED, prepared, null, position);
    }

    @SuppressWarnings("unchecked")
    private Decision update(Command command, KindInfo kind, ObjectChanged current, long position, boolean status) {
        if (current == null && !status && createsOnUpdate(command, kind)) {
            return create(command, kind, null, position);
        }
        KindRules<SpecificRecord> r = (KindRules<SpecificRecord>) rulesFor(kind);
        SpecificRecord stored = requireExisting(command, kind, current);
        SpecificRecord object = status ? requireObject(command, kind) : defaults(kind, requireObject(command, kind));
        ObjectMeta in = ObjectAccess.meta(object);
        checkIdentity(command, kind, in);
        ObjectMeta old = ObjectAccess.meta(stored);
        checkPreconditions(command, kind, old, in.getUid(), in.getResourceVersion());
        if (status && !kind.hasStatus()) {
            throw new RejectedException(Rejection.badRequest(resource(kind) + " have no status subresource"));
        }
        String subresource = command.getSubresource() == null ? "" : command.getSubresource();
        if (!subresource.isEmpty() && (status || !subresource.equals(FINALIZE)
                && !subresource.equals(EPHEMERAL_CONTAINERS) && !subresource.equals(APPROVAL))) {
            throw new RejectedException(Rejection.badRequest("unknown subresource \"" + subresource + "\""));
        }
        SpecificRecord next;
        if (subresource.equals(FINALIZE)) {
            // The finalize subresource changes what holds a deleted object (a Namespace's spec.finalizers), nothing else.
            next = r.finalize(stored, object);
            if (next == null) {
                throw new RejectedException(Rejection.badRequest(resource(kind) + " have no finalize subresource"));
            }
            List<StatusCause> causes = new ArrayList<>(MetadataRules.validate(ObjectAccess.meta(next)));
            causes.addAll(r.validate(next));
            if (!causes.isEmpty()) {
                throw new RejectedException(Rejection.invalid(qualifiedKind(kind), command.getName(), causes));
            }
        } else if (subresource.equals(APPROVAL)) {
            // Approval changes the conditions and nothing else (a CertificateSigningRequest's Approved/Denied).
            next = r.approval(stored, object, seconds(command.getEnvelope().getTime()));
            if (next == null) {
                throw new RejectedException(Rejection.badRequest(resource(kind) + " have no approval subresource"));
            }
            List<StatusCause> causes = r.validateApproval(stored, next);
            if (!causes.isEmpty()) {
                throw new RejectedException(Rejection.invalid(qualifiedKind(kind), command.getName(), causes));
            }
        } else if (subresource.equals(EPHEMERAL_CONTAINERS)) {
            // Debug containers are added here and nowhere else; nothing else of the object changes.
            next = r.ephemeralContainers(stored, object);
            if (next == null) {
                throw new RejectedException(Rejection.badRequest(resource(kind)
                        + " have no ephemeralcontainers subresource"));
            }
            List<StatusCause> causes = r.validateEphemeralContainers(stored, next);
            if (!causes.isEmpty()) {
                throw new RejectedException(Rejection.invalid(kind.kind(), command.getName(), causes));
            }
        } else if (status) {
            // The status subresource changes status and nothing else.
            next = ObjectAccess.with(stored, "status", ObjectAccess.field(object, "status"));
            if (in.getManagedFields() != null) {
                // The gateway records who changed status (server-side apply field ownership).
                next = ObjectAccess.withMeta(next, ObjectAccess.with(old, "managedFields", in.getManagedFields()));
            }
            List<StatusCause> causes = r.validateStatusUpdate(stored, next);
            if (!causes.isEmpty()) {
                throw new RejectedException(Rejection.invalid(qualifiedKind(kind), command.getName(), causes));
            }
        } else {
            next = object;
            if (kind.hasStatus()) {
                next = ObjectAccess.with(next, "status", ObjectAccess.field(stored, "status"));
            }
            ObjectMeta.Builder meta = ObjectMeta.newBuilder(in)
                    .setName(old.getName())
                    .setNamespace(old.getNamespace())
                    .setUid(old.getUid())
                    .setCreationTimestamp(old.getCreationTimestamp())
                    .setDeletionTimestamp(old.getDeletionTimestamp())
                    .setDeletionGracePeriodSeconds(old.getDeletionGracePeriodSeconds())
                    .setGenerateName(in.getGenerateName() == null ? old.getGenerateName() : in.getGenerateName())
                    .setGeneration(old.getGeneration())
                    // An update that does not speak of managedFields keeps them (as kube-apiserver does).
                    .setManagedFields(in.getManagedFields() == null ? old.getManagedFields() : in.getManagedFields());
            next = ObjectAccess.withMeta(next, meta.build());
            next = r.prepareForUpdate(stored, next);
            List<StatusCause> causes = new ArrayList<>();
            if (old.getDeletionTimestamp() != null) {
                List<String> added = new ArrayList<>(list(ObjectAccess.meta(next).getFinalizers()));
                added.removeAll(list(old.getFinalizers()));
                if (!added.isEmpty()) {
                    causes.add(Causes.forbidden("metadata.finalizers",
                            "no new finalizers can be added if the object is being deleted, found new finalizers "
                                    + added));
                }
            }
            causes.addAll(MetadataRules.validate(ObjectAccess.meta(next)));
            causes.addAll(r.validateUpdate(stored, next));
            causes.addAll(r.validate(next));
            if (!causes.isEmpty()) {
                throw new RejectedException(Rejection.invalid(qualifiedKind(kind), command.getName(), causes));
            }
            if (!ObjectAccess.sameSpec(stored, next)) {
                next = ObjectAccess.withMeta(next, ObjectMeta.newBuilder(ObjectAccess.meta(next))
                        .setGeneration(old.getGeneration() == null ? 1L : old.getGeneration() + 1).build());
            }
        }
        // Shallow copies of metadata here and in accept: a builder would deep-copy labels, owners and managedFields on
        // every change, and nothing here mutates what it shares.
        ObjectMeta nextMeta = ObjectAccess.with(ObjectAccess.meta(next), "resourceVersion", old.getResourceVersion());
        next = ObjectAccess.withMeta(next, nextMeta);
        if (next.equals(stored)) {
            return noop(command, current);
        }
        if (old.getDeletionTimestamp() != null && list(nextMeta.getFinalizers()).isEmpty()
                && zero(old.getDeletionGracePeriodSeconds()) && !r.heldAfterDeletion(next)) {
            // The last finalizer is gone and no grace period is running: the object goes away now.
            return accept(command, ChangeType.DELETED, next, current, position);
        }
        return accept(command, status ? ChangeType.STATUS_UPDATED : ChangeType.UPDATED, next, current, position);
    }

    private Decision delete(Command command, KindInfo kind, ObjectChanged current, long position) {
        SpecificRecord stored = requireExisting(command, kind, current);
        ObjectMeta old = ObjectAccess.meta(stored);
        checkPreconditions(command, kind, old, command.getPreconditions().getUid(),
                command.getPreconditions().getResourceVersion());
        DeleteOptions options = command.getDeleteOptions() == null ? new DeleteOptions() : command.getDeleteOptions();
        if (options.getGracePeriodSeconds() != null && options.getGracePeriodSeconds() < 0) {
            throw new RejectedException(Rejection.invalid("DeleteOptions", command.getName(),
                    List.of(Causes.invalid("gracePeriodSeconds", options.getGracePeriodSeconds(),
                            "must be greater than or equal to 0"))));
        }
        Instant now = seconds(command.getEnvelope().getTime());
        @SuppressWarnings("unchecked")
        KindRules<SpecificRecord> r = (KindRules<SpecificRecord>) rulesFor(kind);
        r.refuseDelete(stored).ifPresent(refusal -> {
            throw new RejectedException(refusal);
        });
        String policy = options.getPropagationPolicy();
        if (policy != null && !List.of("Foreground", "Background", "Orphan").contains(policy)) {
            throw new RejectedException(Rejection.invalid("DeleteOptions", command.getName(),
                    List.of(Causes.notSupported("propagationPolicy", policy, List.of("Foreground", "Background", "Orphan")))));
        }
        Long requested = options.getGracePeriodSeconds();
        long grace;
        Instant deadline;
        if (old.getDeletionTimestamp() == null) {
            grace = r.gracePeriodSeconds(stored, requested);
            deadline = now.plusSeconds(grace);
        } else if (zero(old.getDeletionGracePeriodSeconds())) {
            // Deletion started without a grace period (finalizers hold the object): the timestamp stays.
            grace = 0;
            deadline = old.getDeletionTimestamp();
        } else if (requested != null && requested < old.getDeletionGracePeriodSeconds()) {
            // A graceful deletion is running: a delete may only shorten it, counted from when it started.
            grace = requested;
            deadline = old.getDeletionTimestamp().minusSeconds(old.getDeletionGracePeriodSeconds()).plusSeconds(grace);
        } else {
            // The graceful deletion already running stands, finalizers included (Kubernetes' errAlreadyDeleting).
            return noop(command, current);
        }
        List<String> finalizers = propagationFinalizers(list(old.getFinalizers()), policy, r.defaultPropagationPolicy());
        if (grace == 0 && finalizers.isEmpty() && !r.heldAfterDeletion(stored)) {
            return accept(command, ChangeType.DELETED, stored, current, position);
        }
        if (deadline.equals(old.getDeletionTimestamp()) && Objects.equals(grace, old.getDeletionGracePeriodSeconds())
                && finalizers.equals(list(old.getFinalizers()))) {
            return noop(command, current);
        }
        ObjectMeta meta = ObjectMeta.newBuilder(old)
                .setDeletionTimestamp(deadline)
                .setDeletionGracePeriodSeconds(grace)
                .setFinalizers(finalizers.isEmpty() && old.getFinalizers() == null ? null : finalizers)
                .build();
        SpecificRecord marked = old.getDeletionTimestamp() == null ? r.markDeleting(stored) : stored;
        return accept(command, ChangeType.DELETION_STARTED, ObjectAccess.withMeta(marked, meta), current, position);
    }

    /**
     * The finalizers an object keeps after a delete: propagation is recorded as {@code orphan} or
     * {@code foregroundDeletion} for the garbage collector, as Kubernetes' registry does. An explicit policy wins; then a
     * propagation finalizer the object already carries; then the kind's default ({@code Orphan} for v1
     * ReplicationController and batch/v1 Job, {@code Background} otherwise).
     */
    static List<String> propagationFinalizers(List<String> existing, String policy, String kindDefault) {
        boolean orphan;
        boolean foreground;
        if (policy != null) {
            orphan = policy.equals("Orphan");
            foreground = policy.equals("Foreground");
        } else if (existing.contains(ORPHAN_FINALIZER) || existing.contains(FOREGROUND_FINALIZER)) {
            orphan = existing.contains(ORPHAN_FINALIZER);
            foreground = !orphan;
        } else {
            orphan = "Orphan".equals(kindDefault);
            foreground = false;
        }
        List<String> out = new ArrayList<>();
        for (String f : existing) {
            if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
                out.add(f);
            }
        }
        if (orphan) {
            out.add(ORPHAN_FINALIZER);
        }
        if (foreground) {
            out.add(FOREGROUND_FINALIZER);
        }
        // Same set as before: keep the object's own order (no spurious change).
        return new java.util.HashSet<>(out).equals(new java.util.HashSet<>(existing)) ? existing : out;
    }

    private Decision bind(Command command, KindInfo kind, ObjectChanged current, long position) {
        if (kind != Kinds.POD) {
            throw new RejectedException(Rejection.badRequest("only pods can be bound"));
        }
        SpecificRecord stored = requireExisting(command, kind, current);
        ObjectMeta old = ObjectAccess.meta(stored);
        checkPreconditions(command, kind, old, command.getPreconditions().getUid(),
                command.getPreconditions().getResourceVersion());
        if (command.getNodeName() == null || command.getNodeName().isEmpty()) {
            throw new RejectedException(Rejection.invalid("Binding", command.getName(),
                    List.of(Causes.required("target.name"))));
        }
        SpecificRecord bound = PodRules.bind((io.eventplane.model.Pod) stored, command.getNodeName(),
                seconds(command.getEnvelope().getTime()), command.getName());
        return accept(command, ChangeType.BOUND, bound, current, position);
    }

    // --- helpers

    private KindRules<? extends SpecificRecord> rulesFor(KindInfo kind) {
        return rules.rulesFor(kind);
    }

    @SuppressWarnings("unchecked")
    private SpecificRecord defaults(KindInfo kind, SpecificRecord object) {
        return ((KindRules<SpecificRecord>) rulesFor(kind)).defaults(object);
    }

    private static SpecificRecord requireObject(Command command, KindInfo kind) {
        Object o = command.getObject();
        if (o == null) {
            throw new RejectedException(Rejection.badRequest("the command carries no object"));
        }
        if (!kind.type().isInstance(o)) {
            throw new RejectedException(Rejection.badRequest("the command is about a " + kind.objectKind()
                    + " but carries a " + o.getClass().getSimpleName()));
        }
        if (o instanceof CustomObject custom && custom.getKind() != null
                && !CustomKinds.kindOf(custom).equals(kind.kind())) {
            throw new RejectedException(Rejection.badRequest("the command is about a " + kind.kind()
                    + " but carries a " + CustomKinds.kindOf(custom)));
        }
        return (SpecificRecord) o;
    }

    /**
     * An unconditional update (no resourceVersion) of a missing Lease creates it, as kube-apiserver's Lease strategy
     * allows (AllowCreateOnUpdate): a holder can renew without first knowing whether its Lease is already through.
     */
    private static boolean createsOnUpdate(Command command, KindInfo kind) {
        if (kind != Kinds.LEASE || !(command.getObject() instanceof SpecificRecord object)) {
            return false;
        }
        String rv = ObjectAccess.meta(object).getResourceVersion();
        String preconditionRv = command.getPreconditions() == null ? null : command.getPreconditions().getResourceVersion();
        return (rv == null || rv.isEmpty()) && (preconditionRv == null || preconditionRv.isEmpty());
    }

    private static SpecificRecord requireExisting(Command command, KindInfo kind, ObjectChanged current) {
        if (current == null) {
            throw new RejectedException(Rejection.notFound(resource(kind), command.getName()));
        }
        return (SpecificRecord) current.getObject();
    }

    private static void checkIdentity(Command command, KindInfo kind, ObjectMeta in) {
        if (in.getName() != null && !in.getName().isEmpty() && !in.getName().equals(command.getName())) {
            throw new RejectedException(Rejection.badRequest("the name of the object (" + in.getName()
                    + ") does not match the name on the URL (" + command.getName() + ")"));
        }
        if (kind.namespaced() && in.getNamespace() != null && !in.getNamespace().isEmpty()
                && !in.getNamespace().equals(command.getNamespace())) {
            throw new RejectedException(Rejection.badRequest("the namespace of the provided object does not match "
                    + "the namespace sent on the request"));
        }
    }

    private static void checkPreconditions(Command command, KindInfo kind, ObjectMeta old, String uid, String rv) {
        if (uid != null && !uid.isEmpty() && !uid.equals(old.getUid())) {
            throw new RejectedException(Rejection.conflict(resource(kind), command.getName(),
                    "Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + old.getUid()));
        }
        if (rv != null && !rv.isEmpty() && !rv.equals(old.getResourceVersion())) {
            throw new RejectedException(Rejection.conflict(resource(kind), command.getName(),
                    "the object has been modified; please apply your changes to the latest version and try again"));
        }
    }

    private static Decision accept(Command command, ChangeType type, SpecificRecord object, ObjectChanged previous,
                                   long position) {
        ObjectMeta meta = ObjectAccess.with(ObjectAccess.meta(object), "resourceVersion", Long.toString(position));
        SpecificRecord stored = ObjectAccess.withMeta(object, meta);
        ObjectChanged change = ObjectChanged.newBuilder()
                .setEnvelope(command.getEnvelope())
                .setType(type)
                .setKind(command.getKind())
                .setNamespace(command.getNamespace())
                .setName(command.getName())
                .setUid(meta.getUid())
                .setResourceVersion(position)
                .setPreviousResourceVersion(previous == null ? 0 : previous.getResourceVersion())
                .setObject(stored)
                .build();
        return new Decision(Optional.of(change), outcome(command, true, position, 200, "", "", List.of()).setChanged(true).build());
    }

    private static Decision noop(Command command, ObjectChanged current) {
        return new Decision(Optional.empty(),
                outcome(command, true, current.getResourceVersion(), 200, "", "", List.of()).build());
    }

    private static Decision reject(Command command, Rejection r) {
        return new Decision(Optional.empty(), outcome(command, false, null, r.code(), r.reason(), r.message(), r.causes()).build());
    }

    private static CommandOutcome.Builder outcome(Command c, boolean accepted, Long rv, int code, String reason, String message,
                                          List<StatusCause> causes) {
        return CommandOutcome.newBuilder()
                .setEnvelope(c.getEnvelope())
                .setKind(c.getKind())
                .setNamespace(c.getNamespace())
                .setName(c.getName())
                .setAccepted(accepted)
                .setResourceVersion(rv)
                .setCode(code)
                .setReason(reason)
                .setMessage(message)
                .setCauses(causes);
    }

    /** {@code Pod}, or {@code Ingress.networking.k8s.io}: how Kubernetes names a kind in an Invalid message. */
    public static String qualifiedKind(KindInfo kind) {
        return kind.group().isEmpty() ? kind.kind() : kind.objectKind() + "." + kind.group();
    }

    /** {@code pods}, or {@code leases.coordination.k8s.io}: how Kubernetes names a resource in messages. */
    public static String resource(KindInfo kind) {
        return kind.group().isEmpty() ? kind.plural() : kind.plural() + "." + kind.group();
    }

    private static String uid(Command command, long position) {
        String seed = Keys.of(command.getKind(), command.getNamespace(), command.getName()) + "@" + position;
        return Digests.nameUuid(seed);
    }

    private static Instant seconds(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS);
    }

    private static boolean zero(Long grace) {
        return grace == null || grace == 0;
    }

    private static List<String> list(List<String> l) {
        return l == null ? List.of() : l;
    }

    /** A rejection thrown from deep inside a decision; caught once in {@link #decide}. */
    static final class RejectedException extends RuntimeException {
        final Rejection rejection;

        RejectedException(Rejection rejection) {
            super(rejection.message(), null, false, false);
            this.rejection = Objects.requireNonNull(rejection);
        }
    }
}
