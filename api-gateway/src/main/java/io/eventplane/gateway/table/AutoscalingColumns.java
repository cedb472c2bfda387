package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.CrossVersionObjectReference;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.HorizontalPodAutoscalerSpec;
import io.eventplane.model.HorizontalPodAutoscalerStatus;
import io.eventplane.model.MetricSpec;
import io.eventplane.model.MetricStatus;
import io.eventplane.model.MetricTarget;
import io.eventplane.model.MetricValueStatus;
import java.util.ArrayList;
import java.util.List;

/** kubectl's printer for HorizontalPodAutoscaler: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE. */
final class AutoscalingColumns {
    private static final String UNKNOWN = "<unknown>";

    private AutoscalingColumns() {
    }

    static final Columns HORIZONTAL_POD_AUTOSCALER = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Reference", "reference to the scaled resource"),
            Column.of("Targets", "the current and target values of the metrics the autoscaler follows"),
            Column.of("MinPods", "lower limit for the number of pods that can be set by the autoscaler, default 1."),
            new Column("MaxPods", "integer", "", "upper limit for the number of pods that can be set by the "
                    + "autoscaler; cannot be smaller than MinReplicas.", 0),
            new Column("Replicas", "integer", "", "current number of replicas of pods managed by this autoscaler.", 0),
            Column.ageColumn()), (o, now) -> {
                HorizontalPodAutoscaler hpa = (HorizontalPodAutoscaler) o;
                HorizontalPodAutoscalerSpec spec = hpa.getSpec() == null ? new HorizontalPodAutoscalerSpec()
                        : hpa.getSpec();
                HorizontalPodAutoscalerStatus status = hpa.getStatus() == null ? new HorizontalPodAutoscalerStatus()
                        : hpa.getStatus();
                CrossVersionObjectReference ref = spec.getScaleTargetRef();
                String reference = ref == null ? "" : ref.getKind() + "/" + ref.getName();
                return row(name(hpa), reference, targets(spec.getMetrics(), status.getCurrentMetrics()),
                        spec.getMinReplicas() == null ? "<unset>" : Integer.toString(spec.getMinReplicas()),
                        (long) (spec.getMaxReplicas() == null ? 0 : spec.getMaxReplicas()),
                        (long) (status.getCurrentReplicas() == null ? 0 : status.getCurrentReplicas()), age(hpa, now));
            });

    /** Each metric as {@code current/target} (the first two, then {@code + N more...}); {@code <none>} if none. */
    static String targets(List<MetricSpec> specs, List<MetricStatus> statuses) {
        if (specs == null || specs.isEmpty()) {
            return "<none>";
        }
        List<MetricStatus> current = statuses == null ? List.of() : statuses;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < specs.size() && i < 2; i++) {
            MetricStatus status = i < current.size() ? current.get(i) : null;
            out.add(target(specs.get(i), status));
        }
        String joined = String.join(", ", out);
        return specs.size() > 2 ? joined + " + " + (specs.size() - 2) + " more..." : joined;
    }

    private static String target(MetricSpec spec, MetricStatus status) {
        String type = spec.getType() == null ? "" : spec.getType();
        return switch (type) {
            case "Resource" -> spec.getResource() == null ? UNKNOWN : resource(spec.getResource().getName(),
                    spec.getResource().getTarget(), status == null || status.getResource() == null ? null
                            : status.getResource().getCurrent());
            case "ContainerResource" -> spec.getContainerResource() == null ? UNKNOWN : resource(
                    spec.getContainerResource().getName(), spec.getContainerResource().getTarget(),
                    status == null || status.getContainerResource() == null ? null
                            : status.getContainerResource().getCurrent());
            case "Pods" -> plain(spec.getPods() == null ? null : spec.getPods().getTarget(),
                    status == null || status.getPods() == null ? null : status.getPods().getCurrent(), true);
            case "Object" -> plain(spec.getObject() == null ? null : spec.getObject().getTarget(),
                    status == null || status.getObject() == null ? null : status.getObject().getCurrent(), false);
            case "External" -> plain(spec.getExternal() == null ? null : spec.getExternal().getTarget(),
                    status == null || status.getExternal() == null ? null : status.getExternal().getCurrent(), false);
            default -> UNKNOWN + "/" + UNKNOWN;
        };
    }

    private static String resource(String name, MetricTarget target, MetricValueStatus current) {
        String prefix = name == null ? "" : name + ": ";
        if (target != null && target.getAverageValue() != null) {
            String now = current == null || current.getAverageValue() == null ? UNKNOWN : current.getAverageValue();
            return prefix + now + "/" + target.getAverageValue();
        }
        String now = current == null || current.getAverageUtilization() == null ? UNKNOWN
                : current.getAverageUtilization() + "%";
        String goal = target == null || target.getAverageUtilization() == null ? "<auto>"
                : target.getAverageUtilization() + "%";
        return prefix + now + "/" + goal;
    }

    private static String plain(MetricTarget target, MetricValueStatus current, boolean average) {
        String goal = target == null ? UNKNOWN : average || target.getValue() == null
                ? String.valueOf(target.getAverageValue()) : target.getValue();
        String now = current == null ? UNKNOWN : average || current.getValue() == null
                ? String.valueOf(current.getAverageValue()) : current.getValue();
        boolean averaged = target != null && target.getAverageValue() != null && !average;
        return now + "/" + goal + (averaged ? " (avg)" : "");
    }
}
