package io.eventplane.gateway.table;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** CustomResourceDefinitions: kube-apiserver's default columns for them, NAME and CREATED AT (a date). */
final class ExtensionColumns {
    private ExtensionColumns() {
    }

    static final Columns CUSTOM_RESOURCE_DEFINITION = new Columns() {
        @Override
        public List<Column> columns() {
            return List.of(Column.nameColumn(), new Column("Created At", "date", "", "CreationTimestamp is a "
                    + "timestamp representing the server time when this object was created.", 0));
        }

        @Override
        public List<Object> cells(SpecificRecord object, Instant now) {
            ObjectMeta meta = ObjectAccess.meta(object);
            Instant created = meta.getCreationTimestamp();
            return List.of(meta.getName(), created == null ? "" : created.truncatedTo(ChronoUnit.SECONDS).toString());
        }
    };
}
