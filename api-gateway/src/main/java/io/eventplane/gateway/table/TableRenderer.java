package io.eventplane.gateway.table;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.gateway.wire.Json;
import io.eventplane.model.apiextensions.CustomObject;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Server-side printing ({@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}): kubectl shows these columns
 * as they are; rows carry the object as PartialObjectMetadata (default), whole, or not at all ({@code includeObject}).
 */
public final class TableRenderer {
    /** {@code includeObject}: what each row carries besides its cells. */
    public enum Include {
        NONE, METADATA, OBJECT;

        public static Include parse(String value) {
            if (value == null || value.isEmpty()) {
                return METADATA;
            }
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "none" -> NONE;
                case "object" -> OBJECT;
                default -> METADATA;
            };
        }
    }

    private static final Map<String, Columns> BY_KIND = Map.ofEntries(
            Map.entry("Pod", new PodColumns()),
            Map.entry("Node", new NodeColumns()),
            Map.entry("Namespace", SimpleColumns.NAMESPACE),
            Map.entry("Event", SimpleColumns.EVENT),
            Map.entry("Lease", SimpleColumns.LEASE),
            Map.entry("Deployment", WorkloadColumns.DEPLOYMENT),
            Map.entry("ReplicaSet", WorkloadColumns.REPLICA_SET),
            Map.entry("StatefulSet", WorkloadColumns.STATEFUL_SET),
            Map.entry("DaemonSet", WorkloadColumns.DAEMON_SET),
            Map.entry("Job", WorkloadColumns.JOB),
            Map.entry("CronJob", WorkloadColumns.CRON_JOB),
            Map.entry("ReplicationController", WorkloadColumns.REPLICATION_CONTROLLER),
            Map.entry("PodDisruptionBudget", WorkloadColumns.POD_DISRUPTION_BUDGET),
            Map.entry("ControllerRevision", WorkloadColumns.CONTROLLER_REVISION),
            Map.entry("ConfigMap", ConfigColumns.CONFIG_MAP),
            Map.entry("Secret", ConfigColumns.SECRET),
            Map.entry("ServiceAccount", ConfigColumns.SERVICE_ACCOUNT),
            Map.entry("Service", NetworkColumns.SERVICE),
            Map.entry("Endpoints", NetworkColumns.ENDPOINTS),
            Map.entry("EndpointSlice", NetworkColumns.ENDPOINT_SLICE),
            Map.entry("IPAddress", NetworkColumns.IP_ADDRESS),
            Map.entry("ServiceCIDR", NetworkColumns.SERVICE_CIDR),
            Map.entry("Ingress", IngressColumns.INGRESS),
            Map.entry("IngressClass", IngressColumns.INGRESS_CLASS),
            Map.entry("NetworkPolicy", IngressColumns.NETWORK_POLICY),
            Map.entry("CertificateSigningRequest", CertificateColumns.CERTIFICATE_SIGNING_REQUEST),
            Map.entry("PersistentVolumeClaim", StorageColumns.PERSISTENT_VOLUME_CLAIM),
            Map.entry("PersistentVolume", StorageColumns.PERSISTENT_VOLUME),
            Map.entry("StorageClass", StorageColumns.STORAGE_CLASS),
            Map.entry("PriorityClass", QuotaColumns.PRIORITY_CLASS),
            Map.entry("ResourceQuota", QuotaColumns.RESOURCE_QUOTA),
            Map.entry("LimitRange", QuotaColumns.LIMIT_RANGE),
            Map.entry("HorizontalPodAutoscaler", AutoscalingColumns.HORIZONTAL_POD_AUTOSCALER),
            Map.entry("Role", RbacColumns.ROLE),
            Map.entry("ClusterRole", RbacColumns.ROLE),
            Map.entry("RoleBinding", RbacColumns.BINDING),
            Map.entry("ClusterRoleBinding", RbacColumns.BINDING),
            Map.entry("CustomResourceDefinition", ExtensionColumns.CUSTOM_RESOURCE_DEFINITION));

    private TableRenderer() {
    }

    public static Columns columnsFor(KindInfo kind) {
        if (kind.type() == CustomObject.class) {
            return CustomKinds.byResource(kind.group(), kind.version(), kind.plural())
                    .<Columns>map(CustomColumns::new).orElse(SimpleColumns.DEFAULT);
        }
        return BY_KIND.getOrDefault(kind.kind(), SimpleColumns.DEFAULT);
    }

    /**
     * @param tableVersion {@code v1} or {@code v1beta1}, as the client asked
     * @param listMeta     the table's metadata (resourceVersion, continue)
     */
    public static ObjectNode render(KindInfo kind, List<? extends SpecificRecord> objects, Include include,
                                    String tableVersion, ObjectNode listMeta, Instant now) {
        Columns columns = columnsFor(kind);
        ObjectNode table = Json.object();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/" + tableVersion);
        table.set("metadata", listMeta == null ? Json.object() : listMeta);
        ArrayNode defs = table.putArray("columnDefinitions");
        for (Column c : columns.columns()) {
            ObjectNode d = defs.addObject();
            d.put("name", c.name());
            d.put("type", c.type());
            d.put("format", c.format());
            d.put("description", c.description());
            d.put("priority", c.priority());
        }
        ArrayNode rows = table.putArray("rows");
        for (SpecificRecord o : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            for (Object cell : columns.cells(o, now)) {
                if (cell instanceof Number n) {
                    cells.add(n.longValue());
                } else if (cell instanceof Boolean b) {
                    cells.add(b); // a boolean column (Global-Default, AllowVolumeExpansion) is a JSON boolean
                } else {
                    cells.add(cell == null ? "" : cell.toString());
                }
            }
            if (include != Include.NONE) {
                row.set("object", rowObject(kind, o, include, tableVersion));
            }
        }
        return table;
    }

    private static ObjectNode rowObject(KindInfo kind, SpecificRecord o, Include include, String tableVersion) {
        ObjectNode full = Json.encodeObject(kind, o);
        if (include == Include.OBJECT) {
            return full;
        }
        ObjectNode partial = Json.object();
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/" + tableVersion);
        partial.set("metadata", full.has("metadata") ? full.get("metadata") : Json.object());
        return partial;
    }
}
