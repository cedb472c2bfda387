package io.eventplane.reconcile;

import io.eventplane.client.events.EventNotice;
import io.eventplane.core.kinds.KindInfo;
import org.apache.avro.specific.SpecificRecord;

/**
 * One command a controller's decision asks for, as data. The runtime sends it with its preconditions (an update
 * carries the resourceVersion it was decided on; a delete the uid, and the resourceVersion when given), records
 * {@code onAccepted} once the writer accepted it, and on a rejection records a Warning with {@code failedReason} and
 * tells the next decision.
 */
public sealed interface Action {
    /** The Event to record once the writer accepted the command, or null. */
    EventNotice onAccepted();

    /** The reason of the Warning Event recorded when the writer rejects the command (e.g. FailedCreate), or null. */
    String failedReason();

    /** The object the command is about, as {@code Kind/namespace/name}. */
    String target();

    record Create(SpecificRecord object, EventNotice onAccepted, String failedReason) implements Action {
        @Override
        public String target() {
            return Targets.of(object);
        }
    }

    /** A spec or metadata update, accepted only if the object is still at the resourceVersion it carries. */
    record Update(SpecificRecord object, EventNotice onAccepted, String failedReason) implements Action {
        public Update(SpecificRecord object) {
            this(object, null, null);
        }

        @Override
        public String target() {
            return Targets.of(object);
        }
    }

    /** A status update through the status subresource, accepted only at the resourceVersion it carries. */
    record UpdateStatus(SpecificRecord object) implements Action {
        @Override
        public EventNotice onAccepted() {
            return null;
        }

        @Override
        public String failedReason() {
            return null;
        }

        @Override
        public String target() {
            return Targets.of(object);
        }
    }

    /**
     * A write through the finalize subresource (a Namespace's spec.finalizers), accepted only at the resourceVersion
     * the object carries.
     */
    record Finalize(SpecificRecord object) implements Action {
        @Override
        public EventNotice onAccepted() {
            return null;
        }

        @Override
        public String failedReason() {
            return null;
        }

        @Override
        public String target() {
            return Targets.of(object);
        }
    }

    /**
     * A deletion of the object with {@code uid} (never of a namesake created since); with a {@code resourceVersion},
     * only if nothing changed it since; with a {@code propagationPolicy} (Background, Foreground, Orphan) and a
     * {@code gracePeriodSeconds} as DeleteOptions carry them (null: the object's defaults).
     */
    record Delete(KindInfo kind, String namespace, String name, String uid, String resourceVersion,
                  String propagationPolicy, Long gracePeriodSeconds, EventNotice onAccepted, String failedReason)
            implements Action {
        public Delete(KindInfo kind, String namespace, String name, String uid, EventNotice onAccepted, String failedReason) {
            this(kind, namespace, name, uid, null, null, null, onAccepted, failedReason);
        }

        @Override
        public String target() {
            return io.eventplane.core.Keys.of(kind.kind(), namespace, name);
        }
    }

    /** {@code first}, then {@code then} once the writer accepted {@code first} (a pod marked, then deleted). */
    record Then(Action first, Action then) implements Action {
        @Override
        public EventNotice onAccepted() {
            return first.onAccepted();
        }

        @Override
        public String failedReason() {
            return first.failedReason();
        }

        @Override
        public String target() {
            return first.target();
        }
    }

    /** Key helpers for targets. */
    final class Targets {
        private Targets() {
        }

        static String of(SpecificRecord object) {
            var meta = io.eventplane.core.meta.ObjectAccess.meta(object);
            String kind = io.eventplane.core.kinds.Kinds.of(object).kind();
            return io.eventplane.core.Keys.of(kind, meta.getNamespace(), meta.getName());
        }
    }
}
