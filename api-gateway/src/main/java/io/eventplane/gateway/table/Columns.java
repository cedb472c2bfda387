package io.eventplane.gateway.table;

import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** The server-side printer of one kind: its column definitions and the cells of one row. */
public interface Columns {

    /** One column definition of a {@code Table}; priority 1 columns show with {@code -o wide} only. */
    record Column(String name, String type, String format, String description, int priority) {
        public static Column of(String name, String description) {
            return new Column(name, "string", "", description, 0);
        }

        public static Column wide(String name, String description) {
            return new Column(name, "string", "", description, 1);
        }

        public static Column nameColumn() {
            return new Column("Name", "string", "name", "Name must be unique within a namespace.", 0);
        }

        public static Column ageColumn() {
            return new Column("Age", "string", "", "CreationTimestamp is a timestamp representing the server time "
                    + "when this object was created.", 0);
        }
    }

    List<Column> columns();

    /** The row's cells, one per column, computed at {@code now} (ages). */
    List<Object> cells(SpecificRecord object, Instant now);

    static String orNone(String s) {
        return s == null || s.isEmpty() ? "<none>" : s;
    }
}
