package io.eventplane.core.kinds;

import static io.eventplane.core.kinds.AutoscalingV1.copy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * autoscaling/v1's metric shapes (the ones its annotations carry: {@code targetAverageUtilization},
 * {@code metricName}...) to and from autoscaling/v2's ({@code target}, {@code metric}...), field for field as
 * Kubernetes' conversion functions map them. Fields Go declares as plain quantities or strings are always written
 * ({@code "0"}, {@code ""}), as Go marshals them.
 */
final class MetricsV1 {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private MetricsV1() {
    }

    static ObjectNode specToV1(JsonNode m) {
        ObjectNode out = NODES.objectNode().put("type", m.path("type").asText(""));
        if (m.path("object").isObject()) {
            JsonNode o = m.get("object");
            ObjectNode v = out.putObject("object");
            v.set("target", reference(o.path("describedObject")));
            v.put("metricName", o.path("metric").path("name").asText(""));
            v.put("targetValue", o.path("target").path("value").asText("0"));
            copy(o.path("metric"), "selector", v);
            copy(o.path("target"), "averageValue", v);
        }
        if (m.path("pods").isObject()) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.put("metricName", p.path("metric").path("name").asText(""));
            v.put("targetAverageValue", p.path("target").path("averageValue").asText("0"));
            copy(p.path("metric"), "selector", v);
        }
        for (String key : new String[] {"resource", "containerResource"}) {
            if (m.path(key).isObject()) {
                JsonNode r = m.get(key);
                ObjectNode v = out.putObject(key);
                v.put("name", r.path("name").asText(""));
                copy(r.path("target"), "averageUtilization", v, "targetAverageUtilization");
                copy(r.path("target"), "averageValue", v, "targetAverageValue");
                if (key.equals("containerResource")) {
                    v.put("container", r.path("container").asText(""));
                }
            }
        }
        if (m.path("external").isObject()) {
            JsonNode e = m.get("external");
            ObjectNode v = out.putObject("external");
            v.put("metricName", e.path("metric").path("name").asText(""));
            copy(e.path("metric"), "selector", v, "metricSelector");
            copy(e.path("target"), "value", v, "targetValue");
            copy(e.path("target"), "averageValue", v, "targetAverageValue");
        }
        return out;
    }

    static ObjectNode specToV2(JsonNode m) {
        ObjectNode out = NODES.objectNode().put("type", m.path("type").asText(""));
        if (m.path("object").isObject()) {
            JsonNode o = m.get("object");
            ObjectNode v = out.putObject("object");
            v.set("describedObject", reference(o.path("target")));
            v.set("metric", identifier(o, "metricName", "selector"));
            ObjectNode t = v.putObject("target").put("type", o.hasNonNull("averageValue") ? "AverageValue" : "Value");
            t.put("value", o.path("targetValue").asText("0"));
            copy(o, "averageValue", t);
        }
        if (m.path("pods").isObject()) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.set("metric", identifier(p, "metricName", "selector"));
            v.putObject("target").put("type", "AverageValue")
                    .put("averageValue", p.path("targetAverageValue").asText("0"));
        }
        for (String key : new String[] {"resource", "containerResource"}) {
            if (m.path(key).isObject()) {
                JsonNode r = m.get(key);
                ObjectNode v = out.putObject(key);
                v.put("name", r.path("name").asText(""));
                ObjectNode t = v.putObject("target")
                        .put("type", r.hasNonNull("targetAverageUtilization") ? "Utilization" : "AverageValue");
                copy(r, "targetAverageValue", t, "averageValue");
                copy(r, "targetAverageUtilization", t, "averageUtilization");
                if (key.equals("containerResource")) {
                    v.put("container", r.path("container").asText(""));
                }
            }
        }
        if (m.path("external").isObject()) {
            JsonNode e = m.get("external");
            ObjectNode v = out.putObject("external");
            v.set("metric", identifier(e, "metricName", "metricSelector"));
            ObjectNode t = v.putObject("target").put("type", e.hasNonNull("targetValue") ? "Value" : "AverageValue");
            copy(e, "targetValue", t, "value");
            copy(e, "targetAverageValue", t, "averageValue");
        }
        return out;
    }

    static ObjectNode statusToV1(JsonNode m) {
        ObjectNode out = NODES.objectNode().put("type", m.path("type").asText(""));
        if (m.path("object").isObject()) {
            JsonNode o = m.get("object");
            ObjectNode v = out.putObject("object");
            v.set("target", reference(o.path("describedObject")));
            v.put("metricName", o.path("metric").path("name").asText(""));
            v.put("currentValue", o.path("current").path("value").asText("0"));
            copy(o.path("metric"), "selector", v);
            copy(o.path("current"), "averageValue", v);
        }
        if (m.path("pods").isObject()) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.put("metricName", p.path("metric").path("name").asText(""));
            v.put("currentAverageValue", p.path("current").path("averageValue").asText("0"));
            copy(p.path("metric"), "selector", v);
        }
        for (String key : new String[] {"resource", "containerResource"}) {
            if (m.path(key).isObject()) {
                JsonNode r = m.get(key);
                ObjectNode v = out.putObject(key);
                v.put("name", r.path("name").asText(""));
                copy(r.path("current"), "averageUtilization", v, "currentAverageUtilization");
                v.put("currentAverageValue", r.path("current").path("averageValue").asText("0"));
                if (key.equals("containerResource")) {
                    v.put("container", r.path("container").asText(""));
                }
            }
        }
        if (m.path("external").isObject()) {
            JsonNode e = m.get("external");
            ObjectNode v = out.putObject("external");
            v.put("metricName", e.path("metric").path("name").asText(""));
            copy(e.path("metric"), "selector", v, "metricSelector");
            v.put("currentValue", e.path("current").path("value").asText("0"));
            copy(e.path("current"), "averageValue", v, "currentAverageValue");
        }
        return out;
    }

    static ObjectNode statusToV2(JsonNode m) {
        ObjectNode out = NODES.objectNode().put("type", m.path("type").asText(""));
        if (m.path("object").isObject()) {
            JsonNode o = m.get("object");
            ObjectNode v = out.putObject("object");
            v.set("metric", identifier(o, "metricName", "selector"));
            ObjectNode c = v.putObject("current").put("value", o.path("currentValue").asText("0"));
            copy(o, "averageValue", c);
            v.set("describedObject", reference(o.path("target")));
        }
        if (m.path("pods").isObject()) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.set("metric", identifier(p, "metricName", "selector"));
            v.putObject("current").put("averageValue", p.path("currentAverageValue").asText("0"));
        }
        for (String key : new String[] {"resource", "containerResource"}) {
            if (m.path(key).isObject()) {
                JsonNode r = m.get(key);
                ObjectNode v = out.putObject(key);
                v.put("name", r.path("name").asText(""));
                ObjectNode c = v.putObject("current").put("averageValue", r.path("currentAverageValue").asText("0"));
                copy(r, "currentAverageUtilization", c, "averageUtilization");
                if (key.equals("containerResource")) {
                    v.put("container", r.path("container").asText(""));
                }
            }
        }
        if (m.path("external").isObject()) {
            JsonNode e = m.get("external");
            ObjectNode v = out.putObject("external");
            v.set("metric", identifier(e, "metricName", "metricSelector"));
            ObjectNode c = v.putObject("current").put("value", e.path("currentValue").asText("0"));
            copy(e, "currentAverageValue", c, "averageValue");
        }
        return out;
    }

    private static ObjectNode reference(JsonNode ref) {
        ObjectNode out = NODES.objectNode().put("kind", ref.path("kind").asText("")).put("name", ref.path("name").asText(""));
        copy(ref, "apiVersion", out);
        return out;
    }

    private static ObjectNode identifier(JsonNode source, String nameField, String selectorField) {
        ObjectNode out = NODES.objectNode().put("name", source.path(nameField).asText(""));
        copy(source, selectorField, out, "selector");
        return out;
    }
}
