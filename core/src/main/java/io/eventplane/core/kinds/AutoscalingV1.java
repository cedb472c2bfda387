package io.eventplane.core.kinds;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.model.autoscaling.v1.HorizontalPodAutoscaler;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * autoscaling/v1 HorizontalPodAutoscaler over the stored autoscaling/v2 object, as Kubernetes 1.33 converts it
 * (pkg/apis/autoscaling/v1/conversion.go): {@code targetCPUUtilizationPercentage} is the first cpu Resource metric's
 * utilization target, {@code currentCPUUtilizationPercentage} the cpu utilization in the current metrics; what v1 has
 * no field for travels in annotations so that a v1 client reading and writing back loses nothing: the other metrics
 * ({@code autoscaling.alpha.kubernetes.io/metrics}, in v1's older metric shape), the current metrics
 * ({@code .../current-metrics}), the conditions ({@code .../conditions}) and the behavior ({@code .../behavior}, with
 * the Go field names of the internal type, as Kubernetes writes it). Converting back consumes those annotations; the
 * stored object never keeps them. An HPA written in v1 without a CPU target gets Kubernetes' implicit 80%.
 */
public final class AutoscalingV1 implements VersionConversion {
    public static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";
    public static final String CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";
    public static final String CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";
    public static final String BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";
    private static final List<String> ROUND_TRIP = List.of(METRICS, CURRENT_METRICS, CONDITIONS, BEHAVIOR,
            "autoscaling.alpha.kubernetes.io/scale-down-tolerance", "autoscaling.alpha.kubernetes.io/scale-up-tolerance");
    /** The CPU target of a v1 HPA that names none (autoscaling.DefaultCPUUtilization). */
    static final int DEFAULT_CPU_UTILIZATION = 80;
    /** Go's field order of the internal HPAScalingRules, which the behavior annotation marshals without json tags. */
    private static final List<String> RULE_FIELDS = List.of("stabilizationWindowSeconds", "selectPolicy", "policies", "tolerance");
    private static final List<String> POLICY_FIELDS = List.of("type", "value", "periodSeconds");

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Override
    public Class<? extends SpecificRecord> servedType() {
        return HorizontalPodAutoscaler.class;
    }

    @Override
    public ObjectNode toServed(ObjectNode stored) {
        ObjectNode out = NODES.objectNode();
        ObjectNode meta = metadataWithout(stored.path("metadata"));
        JsonNode spec = stored.path("spec");
        JsonNode status = stored.path("status");

        ObjectNode v1spec = out.putObject("spec");
        copy(spec, "scaleTargetRef", v1spec);
        copy(spec, "minReplicas", v1spec);
        copy(spec, "maxReplicas", v1spec);
        ArrayNode others = NODES.arrayNode();
        boolean cpuSeen = false;
        for (JsonNode m : spec.path("metrics")) {
            if (!cpuSeen && isCpu(m)) {
                cpuSeen = true;
                copy(m.path("resource").path("target"), "averageUtilization", v1spec, "targetCPUUtilizationPercentage");
            }
            if (!(isCpu(m) && m.path("resource").path("target").hasNonNull("averageUtilization"))) {
                others.add(MetricsV1.specToV1(m));
            }
        }

        ObjectNode v1status = NODES.objectNode();
        copy(status, "observedGeneration", v1status);
        copy(status, "lastScaleTime", v1status);
        v1status.put("currentReplicas", status.path("currentReplicas").asInt(0));
        v1status.put("desiredReplicas", status.path("desiredReplicas").asInt(0));
        ArrayNode currents = NODES.arrayNode();
        for (JsonNode m : status.path("currentMetrics")) {
            if (isCpuStatus(m) && m.path("resource").path("current").hasNonNull("averageUtilization")) {
                v1status.set("currentCPUUtilizationPercentage", m.path("resource").path("current").get("averageUtilization"));
            }
            currents.add(MetricsV1.statusToV1(m));
        }

        ObjectNode annotations = meta.has("annotations") ? (ObjectNode) meta.get("annotations") : NODES.objectNode();
        if (!others.isEmpty()) {
            annotations.put(METRICS, json(others));
        }
        if (!currents.isEmpty()) {
            annotations.put(CURRENT_METRICS, json(currents));
        }
        if (status.path("conditions").isArray() && !status.path("conditions").isEmpty()) {
            annotations.put(CONDITIONS, json(status.get("conditions")));
        }
        if (spec.path("behavior").isObject()) {
            annotations.put(BEHAVIOR, json(behaviorToGo(spec.get("behavior"))));
        }
        if (!annotations.isEmpty()) {
            meta.set("annotations", annotations);
        }
        ObjectNode result = NODES.objectNode();
        result.set("metadata", meta);
        result.set("spec", v1spec);
        result.set("status", v1status);
        return result;
    }

    @Override
    public ObjectNode toStored(ObjectNode served) {
        JsonNode annotations = served.path("metadata").path("annotations");
        JsonNode spec = served.path("spec");
        JsonNode status = served.path("status");

        ObjectNode v2spec = NODES.objectNode();
        copy(spec, "scaleTargetRef", v2spec);
        copy(spec, "minReplicas", v2spec);
        copy(spec, "maxReplicas", v2spec);
        ArrayNode metrics = NODES.arrayNode();
        for (JsonNode m : parsed(annotations, METRICS)) {
            metrics.add(MetricsV1.specToV2(m));
        }
        if (spec.hasNonNull("targetCPUUtilizationPercentage")) {
            metrics.add(cpuUtilization(spec.get("targetCPUUtilizationPercentage").asInt()));
        }
        if (metrics.isEmpty()) {
            metrics.add(cpuUtilization(DEFAULT_CPU_UTILIZATION));
        }
        v2spec.set("metrics", metrics);
        JsonNode behavior = parsed(annotations, BEHAVIOR);
        if (behavior.isObject()) {
            v2spec.set("behavior", behaviorFromGo(behavior));
        }

        ObjectNode v2status = NODES.objectNode();
        copy(status, "observedGeneration", v2status);
        copy(status, "lastScaleTime", v2status);
        copy(status, "currentReplicas", v2status);
        copy(status, "desiredReplicas", v2status);
        JsonNode currents = parsed(annotations, CURRENT_METRICS);
        if (currents.isArray()) {
            ArrayNode out = v2status.putArray("currentMetrics");
            currents.forEach(m -> out.add(MetricsV1.statusToV2(m)));
        } else if (status.hasNonNull("currentCPUUtilizationPercentage")) {
            ObjectNode m = v2status.putArray("currentMetrics").addObject().put("type", "Resource");
            m.putObject("resource").put("name", "cpu").putObject("current")
                    .set("averageUtilization", status.get("currentCPUUtilizationPercentage"));
        }
        JsonNode conditions = parsed(annotations, CONDITIONS);
        if (conditions.isArray()) {
            v2status.set("conditions", conditions);
        }

        ObjectNode result = NODES.objectNode();
        result.set("metadata", metadataWithout(served.path("metadata")));
        result.set("spec", v2spec);
        if (!v2status.isEmpty()) {
            result.set("status", v2status);
        }
        return result;
    }

    /** A copy of the metadata without the round-trip annotations (an annotation map left empty goes too). */
    private static ObjectNode metadataWithout(JsonNode metadata) {
        ObjectNode meta = metadata.isObject() ? ((ObjectNode) metadata).deepCopy() : NODES.objectNode();
        if (meta.get("annotations") instanceof ObjectNode a) {
            a.remove(ROUND_TRIP);
            if (a.isEmpty()) {
                meta.remove("annotations");
            }
        }
        return meta;
    }

    /** The annotation's JSON; a missing or malformed one is ignored, as Kubernetes has since 1.18. */
    private static JsonNode parsed(JsonNode annotations, String key) {
        JsonNode text = annotations.path(key);
        if (!text.isTextual()) {
            return NODES.missingNode();
        }
        try {
            return MAPPER.readTree(text.textValue());
        } catch (JsonProcessingException e) {
            return NODES.missingNode();
        }
    }

    private static ObjectNode cpuUtilization(int percent) {
        ObjectNode m = NODES.objectNode().put("type", "Resource");
        m.putObject("resource").put("name", "cpu").putObject("target").put("type", "Utilization")
                .put("averageUtilization", percent);
        return m;
    }

    private static boolean isCpu(JsonNode metric) {
        return "Resource".equals(metric.path("type").asText()) && "cpu".equals(metric.path("resource").path("name").asText());
    }

    private static boolean isCpuStatus(JsonNode metric) {
        return isCpu(metric);
    }

    /** Go's json.Marshal of the internal behavior: field names capitalized, unset pointers as null. */
    private static ObjectNode behaviorToGo(JsonNode behavior) {
        ObjectNode out = NODES.objectNode();
        for (String dir : List.of("scaleUp", "scaleDown")) {
            JsonNode rules = behavior.path(dir);
            if (!rules.isObject()) {
                out.putNull(goName(dir));
                continue;
            }
            ObjectNode r = out.putObject(goName(dir));
            for (String f : RULE_FIELDS) {
                if (!f.equals("policies")) {
                    r.set(goName(f), rules.hasNonNull(f) ? rules.get(f) : NODES.nullNode());
                    continue;
                }
                if (!rules.path(f).isArray()) {
                    r.putNull(goName(f));
                    continue;
                }
                ArrayNode ps = r.putArray(goName(f));
                for (JsonNode p : rules.get(f)) {
                    ObjectNode gp = ps.addObject();
                    gp.put("Type", p.path("type").asText(""));
                    gp.put("Value", p.path("value").asInt(0));
                    gp.put("PeriodSeconds", p.path("periodSeconds").asInt(0));
                }
            }
        }
        return out;
    }

    /** The behavior annotation read back: keys matched case-insensitively (as encoding/json does), nulls dropped. */
    private static JsonNode behaviorFromGo(JsonNode go) {
        ObjectNode out = NODES.objectNode();
        for (String dir : List.of("scaleUp", "scaleDown")) {
            JsonNode rules = field(go, dir);
            if (!rules.isObject()) {
                continue;
            }
            ObjectNode r = out.putObject(dir);
            for (String f : RULE_FIELDS) {
                JsonNode v = field(rules, f);
                if (f.equals("policies") && v.isArray()) {
                    ArrayNode ps = r.putArray(f);
                    for (JsonNode p : v) {
                        ObjectNode np = ps.addObject();
                        POLICY_FIELDS.forEach(pf -> {
                            if (!field(p, pf).isMissingNode() && !field(p, pf).isNull()) {
                                np.set(pf, field(p, pf));
                            }
                        });
                    }
                } else if (!v.isMissingNode() && !v.isNull()) {
                    r.set(f, v);
                }
            }
        }
        return out;
    }

    private static JsonNode field(JsonNode object, String name) {
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) object::fields) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return NODES.missingNode();
    }

    private static String goName(String jsonName) {
        return jsonName.substring(0, 1).toUpperCase(Locale.ROOT) + jsonName.substring(1);
    }

    static void copy(JsonNode from, String field, ObjectNode to) {
        copy(from, field, to, field);
    }

    static void copy(JsonNode from, String field, ObjectNode to, String as) {
        if (from.hasNonNull(field)) {
            to.set(as, from.get(field).deepCopy());
        }
    }

    private static String json(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
