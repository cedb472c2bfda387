package io.eventplane.gateway.watch;

import io.eventplane.client.WatchEvent;
import io.eventplane.core.Keys;
import io.eventplane.gateway.select.Selection;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Watch event types under a selector on mutable fields, as Kubernetes sends them: an object that starts matching is
 * ADDED, one that stops matching is DELETED, changes to objects that never match are not sent. Keeps whether each
 * object matched at the last event the watcher got; an object not yet seen counts as unknown (it may be in the
 * client's list), so a change that makes it stop matching is sent as DELETED to be safe.
 */
final class SelectionTracker {
    private final Selection selection;
    private final Map<String, Boolean> matching = new HashMap<>();

    SelectionTracker(Selection selection) {
        this.selection = selection;
    }

    /** Records what the watcher's starting point already knows: the object matched (or not) at that position. */
    void known(ObjectChanged c) {
        matching.put(key(c), selection.matchesSelectors((SpecificRecord) c.getObject()));
    }

    /** The event type to send for {@code event}, or null to send nothing. */
    String typeFor(WatchEvent event) {
        ObjectChanged c = event.change();
        String key = key(c);
        boolean now = selection.matchesSelectors((SpecificRecord) c.getObject());
        // ADDED is a creation or a synthetic "already there" event: the object did not exist for the watcher before.
        Boolean before = event.type().equals("ADDED") ? Boolean.FALSE : matching.get(key);
        if (c.getType() == ChangeType.DELETED) {
            matching.remove(key);
            return Boolean.FALSE.equals(before) || (before == null && !now) ? null : "DELETED";
        }
        matching.put(key, now);
        if (now) {
            return Boolean.FALSE.equals(before) ? "ADDED" : "MODIFIED";
        }
        return Boolean.FALSE.equals(before) ? null : "DELETED";
    }

    private static String key(ObjectChanged c) {
        return Keys.of(c.getKind(), c.getNamespace(), c.getName());
    }
}
