package io.eventplane.gateway.table;

import io.eventplane.core.meta.ObjectAccess;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.avro.specific.SpecificRecord;

/** One kind's printer as data: its column definitions and the function from an object (and now) to its cells. */
record KindColumns(List<Column> columns, BiFunction<SpecificRecord, Instant, List<Object>> cellsOf) implements Columns {

    @Override
    public List<Object> cells(SpecificRecord object, Instant now) {
        return cellsOf.apply(object, now);
    }

    /** The AGE cell: how long ago the object was created, as kubectl prints it. */
    static String age(SpecificRecord o, Instant now) {
        return Ages.since(ObjectAccess.meta(o).getCreationTimestamp(), now);
    }

    static String name(SpecificRecord o) {
        return ObjectAccess.meta(o).getName();
    }

    /** A row's cells; none is null (an absent value is an empty string or {@code <none>}, as kubectl prints it). */
    static List<Object> row(Object... cells) {
        return List.of(cells);
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
