package io.eventplane.gateway.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.gateway.api.ApiRequest;
import io.eventplane.gateway.console.model.ClusterRows;
import io.eventplane.gateway.console.model.ClusterState;
import io.eventplane.gateway.console.model.EventRow;
import io.eventplane.gateway.console.model.NodeRow;
import io.eventplane.gateway.console.model.PodRow;
import io.eventplane.gateway.console.model.WorkloadRow;
import io.eventplane.gateway.select.LabelSelector;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The console's list views, computed on the server over rows: a filtered, sorted page and the totals the page sits
 * in (counts by phase, by state, allocation per node), so a browser never holds more than it shows.
 */
final class ClusterQueries {
    static final int MAX_PAGE = 2000;

    private ClusterQueries() {
    }

    /** Pods: namespace, labelSelector, node, phase, owner and name filters; counts by phase ignore the phase filter. */
    static ObjectNode pods(ClusterState state, ApiRequest request) {
        String namespace = blankToNull(request.param("namespace"));
        LabelSelector labels = LabelSelector.parse(request.param("labelSelector")); // 400 when it does not parse
        String node = blankToNull(request.param("node"));
        String phase = blankToNull(request.param("phase"));
        String owner = blankToNull(request.param("owner"));
        String name = blankToNull(request.param("name"));
        Collection<PodRow> scope = namespace == null ? state.rows().pods() : state.rows().pods(namespace);
        Map<String, Integer> phases = new TreeMap<>();
        List<PodRow> matching = new ArrayList<>();
        for (PodRow p : scope) {
            if ((node == null || node.equals(p.node()) || node.equals("<none>") && p.node() == null)
                    && (owner == null || p.owner() != null && p.owner().contains(owner))
                    && (name == null || p.name().contains(name))
                    && (labels.isEmpty() || labels.matches(p.labels()))) {
                phases.merge(p.phase(), 1, Integer::sum);
                if (phase == null || phase.equals(p.phase())) {
                    matching.add(p);
                }
            }
        }
        sort(matching, request.param("sort"), Map.of(
                "age", Comparator.comparingLong(PodRow::created).reversed(),
                "restarts", Comparator.comparingInt(PodRow::restarts).reversed(),
                "node", Comparator.comparing(p -> p.node() == null ? "" : p.node()),
                "status", Comparator.comparing(PodRow::status)));
        ObjectNode out = header(state);
        out.put("total", matching.size());
        ObjectNode byPhase = out.putObject("phases");
        phases.forEach(byPhase::put);
        ArrayNode rows = page(out, request);
        for (PodRow p : window(matching, request)) {
            ObjectNode r = rows.addObject();
            r.put("namespace", p.namespace());
            r.put("name", p.name());
            r.put("uid", p.uid());
            r.put("phase", p.phase());
            r.put("status", p.status());
            r.put("ready", p.ready() + "/" + p.containers());
            r.put("restarts", p.restarts());
            r.put("node", p.node());
            r.put("ip", p.ip());
            r.put("owner", p.owner());
            r.put("cpuMilli", p.cpuMilli());
            r.put("memoryBytes", p.memoryBytes());
            r.put("created", p.created());
        }
        return out;
    }

    /** Every node with what its pods request of it: the grid needs them all (5,000 nodes are ~1 MB of JSON). */
    static ObjectNode nodes(ClusterState state) {
        Map<String, long[]> used = allocation(state.rows());
        ObjectNode out = header(state);
        ArrayNode rows = out.putArray("nodes");
        int ready = 0;
        long[] totals = new long[6];
        for (NodeRow n : state.rows().nodes()) {
            long[] u = used.getOrDefault(n.name(), new long[3]);
            ObjectNode r = rows.addObject();
            r.put("name", n.name());
            r.put("ready", n.ready());
            r.put("unschedulable", n.unschedulable());
            strings(r.putArray("problems"), n.problems());
            strings(r.putArray("taints"), n.taints());
            r.put("cpuMilli", n.cpuMilli());
            r.put("cpuRequested", u[0]);
            r.put("memoryBytes", n.memoryBytes());
            r.put("memoryRequested", u[1]);
            r.put("pods", n.pods());
            r.put("podCount", u[2]);
            r.put("roles", roles(n.labels()));
            r.put("kubeletVersion", n.kubeletVersion());
            r.put("created", n.created());
            ready += "True".equals(n.ready()) ? 1 : 0;
            totals[0] += n.cpuMilli();
            totals[1] += u[0];
            totals[2] += n.memoryBytes();
            totals[3] += u[1];
            totals[4] += n.pods();
            totals[5] += u[2];
        }
        out.put("total", rows.size());
        out.put("ready", ready);
        ObjectNode t = out.putObject("totals");
        t.put("cpuMilli", totals[0]);
        t.put("cpuRequested", totals[1]);
        t.put("memoryBytes", totals[2]);
        t.put("memoryRequested", totals[3]);
        t.put("pods", totals[4]);
        t.put("podCount", totals[5]);
        long[] unbound = used.get(null);
        out.put("unscheduledPods", unbound == null ? 0 : unbound[2]);
        return out;
    }

    /** Per node name (null: not bound yet), the CPU, memory and pod count its non-terminal pods take. */
    static Map<String, long[]> allocation(ClusterRows rows) {
        Map<String, long[]> used = new HashMap<>();
        for (PodRow p : rows.pods()) {
            if (!p.terminal()) {
                long[] u = used.computeIfAbsent(p.node(), k -> new long[3]);
                u[0] += p.cpuMilli();
                u[1] += p.memoryBytes();
                u[2]++;
            }
        }
        return used;
    }

    /** Workloads of every kind (or one): rollout progress, counts by kind and by state. */
    static ObjectNode workloads(ClusterState state, ApiRequest request) {
        String kind = blankToNull(request.param("kind"));
        String namespace = blankToNull(request.param("namespace"));
        String name = blankToNull(request.param("name"));
        String wanted = blankToNull(request.param("state"));
        Map<String, Integer> byKind = new TreeMap<>();
        Map<String, Integer> byState = new TreeMap<>();
        List<WorkloadRow> matching = new ArrayList<>();
        for (WorkloadRow w : state.rows().workloads()) {
            if ((namespace == null || namespace.equals(w.namespace())) && (name == null || w.name().contains(name))) {
                byKind.merge(w.kind(), 1, Integer::sum);
                if (kind == null || kind.equals(w.kind())) {
                    byState.merge(w.state(), 1, Integer::sum);
                    if (wanted == null || wanted.equals(w.state())) {
                        matching.add(w);
                    }
                }
            }
        }
        sort(matching, request.param("sort"), Map.of(
                "age", Comparator.comparingLong(WorkloadRow::created).reversed(),
                "kind", Comparator.comparing(WorkloadRow::kind),
                "state", Comparator.comparing(WorkloadRow::state)));
        ObjectNode out = header(state);
        out.put("total", matching.size());
        ObjectNode k = out.putObject("kinds");
        byKind.forEach(k::put);
        ObjectNode s = out.putObject("states");
        byState.forEach(s::put);
        ArrayNode rows = page(out, request);
        for (WorkloadRow w : window(matching, request)) {
            ObjectNode r = rows.addObject();
            r.put("kind", w.kind());
            r.put("namespace", w.namespace());
            r.put("name", w.name());
            r.put("desired", w.desired());
            r.put("current", w.current());
            r.put("updated", w.updated());
            r.put("ready", w.ready());
            r.put("available", w.available());
            r.put("state", w.state());
            r.put("message", w.message());
            strings(r.putArray("images"), w.images());
            r.put("created", w.created());
        }
        return out;
    }

    /** Events, newest first: namespace, type, reason and object filters. */
    static ObjectNode events(ClusterState state, ApiRequest request) {
        String namespace = blankToNull(request.param("namespace"));
        String type = blankToNull(request.param("type"));
        String reason = blankToNull(request.param("reason"));
        String object = blankToNull(request.param("object"));
        Predicate<EventRow> keep = e -> (namespace == null || namespace.equals(e.namespace()))
                && (type == null || type.equals(e.type())) && (reason == null || reason.equals(e.reason()))
                && (object == null || (e.objectKind() + "/" + e.objectName()).contains(object));
        Map<String, Integer> byType = new TreeMap<>();
        List<EventRow> matching = new ArrayList<>();
        for (EventRow e : state.rows().events()) {
            if (keep.test(e)) {
                matching.add(e);
                byType.merge(e.type() == null ? "" : e.type(), 1, Integer::sum);
            }
        }
        matching.sort(Comparator.comparingLong(EventRow::lastSeen).reversed());
        ObjectNode out = header(state);
        out.put("total", matching.size());
        ObjectNode t = out.putObject("types");
        byType.forEach(t::put);
        ArrayNode rows = page(out, request);
        window(matching, request).forEach(e -> event(rows.addObject(), e));
        return out;
    }

    static void event(ObjectNode r, EventRow e) {
        r.put("namespace", e.namespace());
        r.put("name", e.name());
        r.put("type", e.type());
        r.put("reason", e.reason());
        r.put("message", e.message());
        r.put("objectKind", e.objectKind());
        r.put("objectNamespace", e.objectNamespace());
        r.put("objectName", e.objectName());
        r.put("count", e.count());
        r.put("lastSeen", e.lastSeen());
        r.put("source", e.source());
    }

    /** Counts for the overview: objects by kind, pods by phase, nodes by readiness, workloads by state. */
    static ObjectNode overview(ClusterState state) {
        ObjectNode out = header(state);
        ObjectNode kinds = out.putObject("kinds");
        state.rows().countsByKind().forEach(kinds::put);
        Map<String, Integer> phases = new TreeMap<>();
        state.rows().pods().forEach(p -> phases.merge(p.phase(), 1, Integer::sum));
        ObjectNode ph = out.putObject("phases");
        phases.forEach(ph::put);
        int ready = 0;
        int total = 0;
        for (NodeRow n : state.rows().nodes()) {
            total++;
            ready += "True".equals(n.ready()) ? 1 : 0;
        }
        out.putObject("nodes").put("total", total).put("ready", ready);
        Map<String, Integer> states = new TreeMap<>();
        state.rows().workloads().forEach(w -> states.merge(w.state(), 1, Integer::sum));
        ObjectNode ws = out.putObject("workloadStates");
        states.forEach(ws::put);
        strings(out.putArray("namespaces"), state.rows().namespaces());
        return out;
    }

    static ObjectNode header(ClusterState state) {
        ObjectNode out = Json.object();
        out.put("live", state.live());
        out.put("time", state.time().toString());
        out.put("resourceVersion", state.resourceVersion());
        return out;
    }

    private static <T> void sort(List<T> rows, String by, Map<String, Comparator<T>> orders) {
        if (by != null && orders.containsKey(by)) {
            rows.sort(orders.get(by)); // stable: ties stay in namespace/name order
        }
    }

    private static ArrayNode page(ObjectNode out, ApiRequest request) {
        out.put("offset", offset(request));
        return out.putArray("rows");
    }

    private static <T> List<T> window(List<T> rows, ApiRequest request) {
        int from = Math.min(offset(request), rows.size());
        int limit = Math.min(MAX_PAGE, number(request.param("limit"), 100, "limit"));
        return rows.subList(from, Math.min(rows.size(), from + limit));
    }

    private static int offset(ApiRequest request) {
        return number(request.param("offset"), 0, "offset");
    }

    static int number(String text, int fallback, String name) {
        if (text == null || text.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(text);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ApiException(Statuses.badRequest(name + ": \"" + text + "\" is not a non-negative number"));
        }
    }

    private static String roles(Map<String, String> labels) {
        List<String> roles = new ArrayList<>();
        labels.forEach((k, v) -> {
            if (k.startsWith("node-role.kubernetes.io/") && k.length() > "node-role.kubernetes.io/".length()) {
                roles.add(k.substring("node-role.kubernetes.io/".length()));
            }
        });
        roles.sort(null);
        return String.join(",", roles);
    }

    static void strings(ArrayNode array, Collection<String> values) {
        values.forEach(array::add);
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
