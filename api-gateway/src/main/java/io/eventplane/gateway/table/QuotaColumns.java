package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.nz;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.core.codec.KubeTime;
import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.PriorityClass;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** kubectl's printers for ResourceQuota, LimitRange and PriorityClass (pkg/printers/internalversion). */
final class QuotaColumns {
    private QuotaColumns() {
    }

    /** NAME AGE REQUEST LIMIT: each enforced resource as used/hard, limits.* in LIMIT, the rest in REQUEST. */
    static final Columns RESOURCE_QUOTA = new KindColumns(List.of(Column.nameColumn(), Column.ageColumn(),
            Column.of("Request", "Request represents a minimum amount of cpu/memory that a container may consume."),
            Column.of("Limit", "Limits control the maximum amount of cpu/memory that a container may use independent "
                    + "of contention on the node.")), (o, now) -> {
                ResourceQuota quota = (ResourceQuota) o;
                ResourceQuotaStatus status = quota.getStatus() == null ? new ResourceQuotaStatus() : quota.getStatus();
                Map<String, String> hard = status.getHard() == null ? Map.of() : status.getHard();
                Map<String, String> used = status.getUsed() == null ? Map.of() : status.getUsed();
                List<String> requests = new ArrayList<>();
                List<String> limits = new ArrayList<>();
                for (String resource : new TreeSet<>(hard.keySet())) {
                    String entry = resource + ": " + quantity(used.get(resource)) + "/" + quantity(hard.get(resource));
                    (resource.startsWith("limits.") ? limits : requests).add(entry);
                }
                return row(name(quota), age(quota, now), String.join(", ", requests), String.join(", ", limits));
            });

    /** NAME CREATED AT: the creation time itself, not an age. */
    static final Columns LIMIT_RANGE = new KindColumns(List.of(Column.nameColumn(),
            new Column("Created At", "date", "", "CreationTimestamp is a timestamp representing the server time when "
                    + "this object was created.", 0)), (o, now) -> {
                Instant created = ObjectAccess.meta(o).getCreationTimestamp();
                return row(name(o), created == null ? "" : KubeTime.formatTime(created));
            });

    /** NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY. */
    static final Columns PRIORITY_CLASS = new KindColumns(List.of(Column.nameColumn(),
            new Column("Value", "integer", "", "value represents the integer value of this priority class.", 0),
            new Column("Global-Default", "boolean", "", "globalDefault specifies whether this PriorityClass should be "
                    + "considered as the default priority for pods that do not have any priority class.", 0),
            Column.ageColumn(),
            Column.of("PreemptionPolicy", "preemptionPolicy is the Policy for preempting pods with lower priority.")),
            (o, now) -> {
                PriorityClass pc = (PriorityClass) o;
                return row(name(pc), (long) (pc.getValue() == null ? 0 : pc.getValue()),
                        Boolean.TRUE.equals(pc.getGlobalDefault()), age(pc, now), nz(pc.getPreemptionPolicy()));
            });

    /** Quantity.String() of a possibly absent quantity: {@code 0} when absent. */
    private static String quantity(String q) {
        return q == null ? "0" : Quantity.parse(q).canonical();
    }
}
