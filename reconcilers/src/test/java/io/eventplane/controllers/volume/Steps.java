package io.eventplane.controllers.volume;

import io.eventplane.client.events.EventNotice;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * A volume controller's step as lines a table test compares: {@code update PersistentVolume pv-1},
 * {@code status PersistentVolumeClaim data Bound}, {@code create PersistentVolume pvc-1},
 * {@code delete PersistentVolume pv-1}, {@code Warning ProvisioningFailed: ...} (Events recorded now).
 */
public final class Steps {
    private Steps() {
    }

    public static List<String> of(Reconciliation r) {
        List<String> out = new ArrayList<>();
        for (Action a : r.actions()) {
            out.add(line(a));
        }
        for (EventNotice e : r.events()) {
            out.add(e.type() + " " + e.reason() + ": " + e.message());
        }
        return out;
    }

    private static String line(Action a) {
        if (a instanceof Action.Create c) {
            return "create " + kind(c.object()) + " " + name(c.object());
        } else if (a instanceof Action.Update u) {
            return "update " + kind(u.object()) + " " + name(u.object());
        } else if (a instanceof Action.UpdateStatus s) {
            return "status " + kind(s.object()) + " " + name(s.object()) + " " + ObjectAccess.field(
                    (SpecificRecord) ObjectAccess.field(s.object(), "status"), "phase");
        } else if (a instanceof Action.Delete d) {
            return "delete " + d.kind().kind() + " " + d.name();
        }
        return a.toString();
    }

    /** The object the only action of this kind writes. */
    public static <T extends SpecificRecord> T written(Reconciliation r, Class<T> type) {
        for (Action a : r.actions()) {
            SpecificRecord o = a instanceof Action.Create c ? c.object() : a instanceof Action.Update u ? u.object()
                    : a instanceof Action.UpdateStatus s ? s.object() : null;
            if (type.isInstance(o)) {
                return type.cast(o);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " written by " + of(r));
    }

    private static String kind(SpecificRecord o) {
        return Kinds.of(o).kind();
    }

    private static String name(SpecificRecord o) {
        return ObjectAccess.meta(o).getName();
    }
}
