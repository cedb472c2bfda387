package io.eventplane.client;

import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.Envelope;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.ObjectMeta;
import java.time.Clock;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;

/** Builds commands for one actor (a user or a component), stamped by its clock. */
public final class Commands {
    private final Actor actor;
    private final Clock clock;

    /**
     * Who the commands are from, as the envelope records it.
     *
     * @param name       the user or component
     * @param groups     its groups (as authentication established them)
     * @param realUser   the user who really asked, when {@code name} is impersonated; null otherwise
     * @param realGroups the real user's groups
     * @param userAgent  the client's User-Agent, or null
     */
    public record Actor(String name, java.util.List<String> groups, String realUser, java.util.List<String> realGroups,
                        String userAgent) {
        public Actor {
            groups = groups == null ? java.util.List.of() : java.util.List.copyOf(groups);
            realGroups = realGroups == null ? java.util.List.of() : java.util.List.copyOf(realGroups);
        }

        public static Actor of(String name) {
            return new Actor(name, null, null, null, null);
        }
    }

    public Commands(Actor actor, Clock clock) {
        this.actor = actor;
        this.clock = clock;
    }

    public Commands(String actor, Clock clock) {
        this(Actor.of(actor), clock);
    }

    public Commands(String actor) {
        this(actor, Clock.systemUTC());
    }

    public Envelope envelope(String requestId, String causationId) {
        return Envelope.newBuilder().setActor(actor.name())
                .setRequestId(requestId == null ? newRequestId() : requestId)
                .setCausationId(causationId).setTime(clock.instant()).setGroups(actor.groups())
                .setRealUser(actor.realUser()).setRealGroups(actor.realGroups()).setUserAgent(actor.userAgent())
                .build();
    }

    public static String newRequestId() {
        return UUID.randomUUID().toString();
    }

    private Command.Builder base(Verb verb, KindInfo kind, String namespace, String name) {
        return Command.newBuilder().setEnvelope(envelope(null, null)).setVerb(verb).setKind(kind.kind())
                .setNamespace(kind.namespaced() ? (namespace == null ? "" : namespace) : "").setName(name)
                .setPreconditions(new Preconditions());
    }

    private Command.Builder forObject(Verb verb, SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        ObjectMeta meta = ObjectAccess.meta(object);
        return base(verb, kind, meta.getNamespace(), meta.getName()).setObject(object);
    }

    public Command create(SpecificRecord object) {
        return forObject(Verb.CREATE, object).build();
    }

    /** Update with the object's own resourceVersion as precondition (optimistic concurrency). */
    public Command update(SpecificRecord object) {
        return forObject(Verb.UPDATE, object).build();
    }

    /**
     * A status update at the object's resourceVersion. It carries the object's identity and status only: the writer
     * takes nothing else from a status update, and the rest would cost its encoding and decoding on every update.
     */
    public Command updateStatus(SpecificRecord object) {
        return forObject(Verb.UPDATE_STATUS, ObjectAccess.statusOnly(object)).build();
    }

    /** An update through the finalize subresource (a Namespace's spec.finalizers), at the object's resourceVersion. */
    public Command finalize(SpecificRecord object) {
        return forObject(Verb.UPDATE, object).setSubresource(ObjectDecider.FINALIZE).build();
    }

    public Command delete(KindInfo kind, String namespace, String name, Long gracePeriodSeconds, String uid) {
        return base(Verb.DELETE, kind, namespace, name)
                .setPreconditions(Preconditions.newBuilder().setUid(uid).build())
                .setDeleteOptions(DeleteOptions.newBuilder().setGracePeriodSeconds(gracePeriodSeconds).build())
                .build();
    }

    /** Delete with any preconditions and options (uid and resourceVersion, grace period, propagation policy). */
    public Command deleteWith(KindInfo kind, String namespace, String name, Preconditions preconditions, DeleteOptions options) {
        return base(Verb.DELETE, kind, namespace, name).setPreconditions(preconditions).setDeleteOptions(options).build();
    }

    /** Binds a pod to a node, only if it is still the pod with {@code uid} (a stale decision is rejected). */
    public Command bind(String namespace, String name, String uid, String nodeName) {
        return base(Verb.BIND, Kinds.POD, namespace, name)
                .setPreconditions(Preconditions.newBuilder().setUid(uid).build())
                .setNodeName(nodeName)
                .build();
    }
}
