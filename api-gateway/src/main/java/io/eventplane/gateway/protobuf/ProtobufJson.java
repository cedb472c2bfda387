package io.eventplane.gateway.protobuf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.eventplane.core.codec.KubeTime;
import io.eventplane.gateway.wire.Json;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.Set;

/**
 * A Kubernetes protobuf message as the JSON that Go's encoding/json writes for the same object (what kubectl sends
 * when it speaks JSON), walked over the message's descriptors. Field names are the proto names: Kubernetes'
 * generated.proto names every field after its JSON name.
 *
 * <p>Where the JSON is not the protobuf shape: resource.Quantity is its string ({@code "100m"}); intstr.IntOrString
 * is a number or a string by its type; meta/v1 Time and MicroTime are RFC 3339 (an empty Time is Go's zero time,
 * which is null); Duration is Go's duration text ({@code "1m30s"}); RawExtension and FieldsV1 carry JSON bytes and
 * are that JSON; bytes are base64; maps are objects; Go's embedded structs ({@link #INLINE}) spread into their outer
 * object.
 *
 * <p>Absent values: a field without its has-bit is absent. Go's marshaller writes every non-pointer field, so an
 * empty string, a zero or a false on the wire is most often a Go field that was never set, which encoding/json omits
 * (omitempty); those read as absent. A message field that is on the wire is present, empty or not, as Go writes a
 * struct. The descriptors cannot tell a Go pointer from a value, so the pointer fields whose explicit zero means
 * something else than unset (0 replicas, a backoffLimit of 0, automountServiceAccountToken: false) are listed in
 * {@link #ZERO_IS_SET}.
 */
public final class ProtobufJson {
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    static final String QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity";
    static final String INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
    static final String TIME = META + "Time";
    static final String MICRO_TIME = META + "MicroTime";
    static final String DURATION = META + "Duration";
    static final String FIELDS_V1 = META + "FieldsV1";
    static final String RAW_EXTENSION = "k8s.io.apimachinery.pkg.runtime.RawExtension";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * Go pointer fields (proto full names) of the served kinds whose zero differs from unset: a default that is not
     * zero (replicas 1, backoffLimit 6, enableServiceLinks true), or a meaning of nil (runAsUser: the image's user;
     * ttlSecondsAfterFinished: never). Kept when sent as 0 or false.
     */
    static final Set<String> ZERO_IS_SET = Set.of(
            "k8s.io.api.apps.v1.DeploymentSpec.replicas",
            "k8s.io.api.apps.v1.DeploymentSpec.revisionHistoryLimit",
            "k8s.io.api.apps.v1.ReplicaSetSpec.replicas",
            "k8s.io.api.apps.v1.StatefulSetSpec.replicas",
            "k8s.io.api.apps.v1.StatefulSetSpec.revisionHistoryLimit",
            "k8s.io.api.apps.v1.DaemonSetSpec.revisionHistoryLimit",
            "k8s.io.api.batch.v1.JobSpec.parallelism",
            "k8s.io.api.batch.v1.JobSpec.completions",
            "k8s.io.api.batch.v1.JobSpec.backoffLimit",
            "k8s.io.api.batch.v1.JobSpec.backoffLimitPerIndex",
            "k8s.io.api.batch.v1.JobSpec.maxFailedIndexes",
            "k8s.io.api.batch.v1.JobSpec.ttlSecondsAfterFinished",
            "k8s.io.api.batch.v1.CronJobSpec.startingDeadlineSeconds",
            "k8s.io.api.batch.v1.CronJobSpec.successfulJobsHistoryLimit",
            "k8s.io.api.batch.v1.CronJobSpec.failedJobsHistoryLimit",
            "k8s.io.api.core.v1.ReplicationControllerSpec.replicas",
            "k8s.io.api.core.v1.PodSpec.terminationGracePeriodSeconds",
            "k8s.io.api.core.v1.PodSpec.automountServiceAccountToken",
            "k8s.io.api.core.v1.PodSpec.enableServiceLinks",
            "k8s.io.api.core.v1.PodSpec.hostUsers",
            "k8s.io.api.core.v1.PodSecurityContext.runAsUser",
            "k8s.io.api.core.v1.PodSecurityContext.runAsGroup",
            "k8s.io.api.core.v1.PodSecurityContext.fsGroup",
            "k8s.io.api.core.v1.SecurityContext.runAsUser",
            "k8s.io.api.core.v1.SecurityContext.runAsGroup",
            "k8s.io.api.core.v1.SecurityContext.allowPrivilegeEscalation",
            "k8s.io.api.core.v1.Probe.terminationGracePeriodSeconds",
            "k8s.io.api.core.v1.SecretVolumeSource.defaultMode",
            "k8s.io.api.core.v1.ConfigMapVolumeSource.defaultMode",
            "k8s.io.api.core.v1.ProjectedVolumeSource.defaultMode",
            "k8s.io.api.core.v1.DownwardAPIVolumeSource.defaultMode",
            "k8s.io.api.core.v1.KeyToPath.mode",
            "k8s.io.api.core.v1.DownwardAPIVolumeFile.mode",
            "k8s.io.api.core.v1.ServiceAccount.automountServiceAccountToken",
            "k8s.io.api.core.v1.ServiceSpec.allocateLoadBalancerNodePorts");

    /**
     * Go structs embedded with {@code json:",inline"}: protobuf nests them in a field, JSON spreads their fields into
     * the outer object (a Volume's volumeSource, a Probe's handler, a key selector's localObjectReference).
     */
    static final Set<String> INLINE = Set.of(
            "k8s.io.api.core.v1.Volume.volumeSource",
            "k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource",
            "k8s.io.api.core.v1.Probe.handler",
            "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
            "k8s.io.api.core.v1.VolumeMountStatus.volumeStatus",
            "k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapProjection.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference",
            "k8s.io.api.core.v1.SecretEnvSource.localObjectReference",
            "k8s.io.api.core.v1.SecretKeySelector.localObjectReference",
            "k8s.io.api.core.v1.SecretProjection.localObjectReference",
            "k8s.io.api.networking.v1.IngressRule.ingressRuleValue",
            "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations",
            "k8s.io.api.admissionregistration.v1.RuleWithOperations.rule",
            "k8s.io.api.resource.v1.DeviceAllocationConfiguration.deviceConfiguration",
            "k8s.io.api.resource.v1.DeviceClaimConfiguration.deviceConfiguration",
            "k8s.io.api.resource.v1.DeviceClassConfiguration.deviceConfiguration");

    private ProtobufJson() {
    }

    /**
     * The message as a JSON object.
     *
     * @throws IllegalArgumentException for values Go cannot write as JSON either (an IntOrString of an unknown type, a
     *                                  RawExtension that is not JSON)
     */
    public static ObjectNode object(Message message) {
        return fields(message);
    }

    /** A message's JSON, or null when Go writes null (a zero Time, an empty RawExtension). */
    static JsonNode value(Message m) {
        return switch (m.getDescriptorForType().getFullName()) {
            case QUANTITY -> NODES.textNode((String) m.getField(field(m, "string")));
            case INT_OR_STRING -> intOrString(m);
            case TIME -> time(m, false);
            case MICRO_TIME -> time(m, true);
            case DURATION -> NODES.textNode(goDuration((Long) m.getField(field(m, "duration"))));
            case RAW_EXTENSION -> rawJson((ByteString) m.getField(field(m, "raw")));
            // FieldsV1's field is "Raw" (Go's name kept: its json tag is "-"), unlike RawExtension's "raw"
            case FIELDS_V1 -> rawJson((ByteString) m.getField(field(m, "Raw")));
            default -> fields(m);
        };
    }

    private static ObjectNode fields(Message m) {
        ObjectNode out = Json.object();
        for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
            if (f.isMapField()) {
                int n = m.getRepeatedFieldCount(f);
                if (n > 0) {
                    FieldDescriptor key = f.getMessageType().findFieldByName("key");
                    FieldDescriptor value = f.getMessageType().findFieldByName("value");
                    ObjectNode map = out.putObject(f.getName());
                    for (int i = 0; i < n; i++) {
                        Message entry = (Message) m.getRepeatedField(f, i);
                        map.set(String.valueOf(entry.getField(key)), element(value, entry.getField(value)));
                    }
                }
            } else if (f.isRepeated()) {
                int n = m.getRepeatedFieldCount(f);
                if (n > 0) {
                    ArrayNode array = out.putArray(f.getName());
                    for (int i = 0; i < n; i++) {
                        array.add(element(f, m.getRepeatedField(f, i)));
                    }
                }
            } else if (m.hasField(f) && INLINE.contains(f.getFullName())) {
                out.setAll(fields((Message) m.getField(f)));
            } else if (m.hasField(f)) {
                Object v = m.getField(f);
                if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE || !isZero(v)
                        || ZERO_IS_SET.contains(f.getFullName())) {
                    JsonNode json = element(f, v);
                    if (!json.isNull()) {
                        out.set(f.getName(), json);
                    }
                }
            }
        }
        return out;
    }

    private static JsonNode element(FieldDescriptor f, Object v) {
        return switch (f.getJavaType()) {
            case MESSAGE -> {
                JsonNode n = value((Message) v);
                yield n == null ? NODES.nullNode() : n;
            }
            case BYTE_STRING -> NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case STRING -> NODES.textNode((String) v);
            case INT -> NODES.numberNode((Integer) v);
            case LONG -> NODES.numberNode((Long) v);
            case BOOLEAN -> NODES.booleanNode((Boolean) v);
            case FLOAT -> NODES.numberNode((Float) v);
            case DOUBLE -> NODES.numberNode((Double) v);
            case ENUM -> NODES.textNode(String.valueOf(v));
        };
    }

    private static boolean isZero(Object v) {
        return v instanceof String s ? s.isEmpty()
                : v instanceof Number n ? n.doubleValue() == 0
                : v instanceof Boolean b ? !b
                : v instanceof ByteString bytes && bytes.isEmpty();
    }

    /** intstr.IntOrString {type: 0 int, 1 string; intVal; strVal}. */
    private static JsonNode intOrString(Message m) {
        long type = (Long) m.getField(field(m, "type"));
        if (type == 0) {
            return NODES.numberNode((Integer) m.getField(field(m, "intVal")));
        }
        if (type == 1) {
            return NODES.textNode((String) m.getField(field(m, "strVal")));
        }
        throw new IllegalArgumentException("impossible IntOrString.Type " + type);
    }

    /** meta/v1 Time (seconds only, as Go reads it) and MicroTime; a message with nothing set is Go's zero time. */
    private static JsonNode time(Message m, boolean micro) {
        FieldDescriptor seconds = field(m, "seconds");
        FieldDescriptor nanos = field(m, "nanos");
        if (!m.hasField(seconds) && !m.hasField(nanos)) {
            return null;
        }
        long s = (Long) m.getField(seconds);
        return NODES.textNode(micro ? KubeTime.formatMicroTime(Instant.ofEpochSecond(s, (Integer) m.getField(nanos)))
                : KubeTime.formatTime(Instant.ofEpochSecond(s)));
    }

    private static JsonNode rawJson(ByteString raw) {
        if (raw.isEmpty()) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(raw.toByteArray());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("embedded object is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("embedded object is not JSON: " + e.getMessage());
        }
    }

    private static FieldDescriptor field(Message m, String name) {
        return m.getDescriptorForType().findFieldByName(name);
    }

    /** Go's time.Duration.String: {@code 1h2m3.5s}, {@code 1.5ms}, {@code 0s}. */
    static String goDuration(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        // Long.MIN_VALUE has no positive counterpart: its unsigned value is the magnitude.
        long u = nanos < 0 ? -nanos : nanos;
        if (Long.compareUnsigned(u, 1_000_000_000L) < 0) {
            if (u < 1_000) {
                return sign + u + "ns";
            }
            return u < 1_000_000 ? sign + decimal(u / 1_000, u % 1_000, 3) + "µs"
                    : sign + decimal(u / 1_000_000, u % 1_000_000, 6) + "ms";
        }
        long seconds = Long.divideUnsigned(u, 1_000_000_000L);
        String out = decimal(seconds % 60, Long.remainderUnsigned(u, 1_000_000_000L), 9) + "s";
        long minutes = seconds / 60;
        if (minutes > 0) {
            out = minutes % 60 + "m" + out;
            if (minutes / 60 > 0) {
                out = minutes / 60 + "h" + out;
            }
        }
        return sign + out;
    }

    /** {@code whole.fraction} with the fraction's trailing zeros (and a bare point) dropped. */
    private static String decimal(long whole, long fraction, int digits) {
        if (fraction == 0) {
            return Long.toString(whole);
        }
        String f = String.format("%0" + digits + "d", fraction).replaceAll("0+$", "");
        return whole + "." + f;
    }
}
