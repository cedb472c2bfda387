package io.eventplane.gateway.table;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.model.Event;
import io.eventplane.model.Lease;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.apache.avro.specific.SpecificRecord;

/** The small printers: namespaces, events, leases, and NAME/AGE for any other kind. */
final class SimpleColumns {
    private SimpleColumns() {
    }

    static final Columns DEFAULT = new Columns() {
        @Override
        public List<Column> columns() {
            return List.of(Column.nameColumn(), Column.ageColumn());
        }

        @Override
        public List<Object> cells(SpecificRecord object, Instant now) {
            ObjectMeta meta = ObjectAccess.meta(object);
            return List.of(meta.getName(), Ages.since(meta.getCreationTimestamp(), now));
        }
    };

    static final Columns NAMESPACE = new Columns() {
        @Override
        public List<Column> columns() {
            return List.of(Column.nameColumn(), Column.of("Status", "The status of the namespace"), Column.ageColumn());
        }

        @Override
        public List<Object> cells(SpecificRecord object, Instant now) {
            Namespace ns = (Namespace) object;
            ObjectMeta meta = ObjectAccess.meta(ns);
            String phase = ns.getStatus() == null || ns.getStatus().getPhase() == null ? "" : ns.getStatus().getPhase();
            return List.of(meta.getName(), phase, Ages.since(meta.getCreationTimestamp(), now));
        }
    };

    static final Columns LEASE = new Columns() {
        @Override
        public List<Column> columns() {
            return List.of(Column.nameColumn(), Column.of("Holder", "The holder of the lease"), Column.ageColumn());
        }

        @Override
        public List<Object> cells(SpecificRecord object, Instant now) {
            Lease lease = (Lease) object;
            ObjectMeta meta = ObjectAccess.meta(lease);
            String holder = lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null ? ""
                    : lease.getSpec().getHolderIdentity();
            return List.of(meta.getName(), holder, Ages.since(meta.getCreationTimestamp(), now));
        }
    };

    static final Columns EVENT = new Columns() {
        @Override
        public List<Column> columns() {
            return List.of(
                    Column.of("Last Seen", "The last time this event was recorded."),
                    Column.of("Type", "Type of this event (Normal, Warning), new types could be added in the future."),
                    Column.of("Reason", "The reason this event was generated."),
                    Column.of("Object", "The object that this event is about."),
                    Column.wide("Subobject", "The subobject that this event is about."),
                    Column.wide("Source", "The component reporting this event."),
                    Column.of("Message", "A human-readable description of the status of this operation."),
                    Column.wide("First Seen", "The first time this event was recorded."),
                    new Column("Count", "integer", "", "The number of times this event has occurred.", 1),
                    new Column("Name", "string", "name", "Name must be unique within a namespace.", 1));
        }

        @Override
        public List<Object> cells(SpecificRecord object, Instant now) {
            Event e = (Event) object;
            ObjectMeta meta = ObjectAccess.meta(e);
            Instant last = e.getLastTimestamp() != null ? e.getLastTimestamp()
                    : e.getEventTime() != null ? e.getEventTime() : meta.getCreationTimestamp();
            Instant first = e.getFirstTimestamp() != null ? e.getFirstTimestamp() : last;
            int count = e.getCount() == null ? 1 : e.getCount();
            String lastSeen = count > 1 ? Ages.since(last, now) + " (x" + count + " over " + Ages.since(first, now) + ")"
                    : Ages.since(last, now);
            ObjectReference ref = e.getInvolvedObject() == null ? new ObjectReference() : e.getInvolvedObject();
            String about = (ref.getKind() == null ? "" : ref.getKind().toLowerCase(Locale.ROOT)) + "/"
                    + (ref.getName() == null ? "" : ref.getName());
            String source = e.getSource() != null && e.getSource().getComponent() != null
                    ? e.getSource().getComponent() + (e.getSource().getHost() == null ? "" : ", " + e.getSource().getHost())
                    : e.getReportingComponent() == null ? "" : e.getReportingComponent();
            return List.of(lastSeen, nz(e.getType()), nz(e.getReason()), about, nz(ref.getFieldPath()), source,
                    nz(e.getMessage()), Ages.since(first, now), count, nz(meta.getName()));
        }
    };

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
