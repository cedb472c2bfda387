package io.eventplane.nodesim;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.codec.Quantity;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The stage file's {@code usage} block: what the simulated programs use when their pods do not say
 * ({@link DeclaredUsage}), and what each node's system uses besides its pods (the kubelet, the runtime, the OS).
 *
 * <pre>{@code
 * usage:
 *   system: {cpu: 100m, memory: 256Mi}          # each node, on top of its pods
 *   pods:                                        # the first rule that matches a container gives its use
 *   - selector:                                  # as a stage's, over what does not change while it runs:
 *       matchLabels: {app: web}                  #   the pod's labels and annotations, pod.namespace,
 *       matchExpressions:                        #   pod.restartPolicy, container.name, .image and .type
 *       - {key: container.type, operator: In, values: [app]}
 *     cpu: "sine(200m, 100m, 10m)"               # UsageExpression; either may be left out
 *     memory: "ramp(64Mi, 256Mi, 30m)"
 * }</pre>
 *
 * @param system what each node's system uses (cpu in cores, memory in bytes); null: the environment's, or built in
 */
public record UsageRules(SystemUse system, List<Rule> pods) {
    public static final UsageRules NONE = new UsageRules(null, List.of());
    /** {@code EVENTPLANE_NODESIM_SYSTEM_USAGE}: {@code cpu=100m,memory=256Mi}. */
    public static final String SYSTEM_SETTING = "EVENTPLANE_NODESIM_SYSTEM_USAGE";
    /** A node's own use when nothing says otherwise: about what an idle kubelet, containerd and OS use. */
    public static final SystemUse BUILT_IN_SYSTEM = new SystemUse(0.1, 256.0 * 1024 * 1024);
    private static final Set<Stages.Key> STATIC_KEYS = Set.of(Stages.Key.POD_NAMESPACE, Stages.Key.POD_RESTART_POLICY,
            Stages.Key.CONTAINER_NAME, Stages.Key.CONTAINER_IMAGE, Stages.Key.CONTAINER_TYPE);

    /** What a node uses besides its pods: cores and bytes. */
    public record SystemUse(double cpu, double memory) {
    }

    public record Rule(Stages.Selector selector, UsageExpression cpu, UsageExpression memory) {
    }

    /** The first rule matching the container of this pod, if any. */
    Optional<Rule> match(ObjectMeta pod, String restartPolicy, Container spec, ContainerRun.Role role) {
        for (Rule r : pods) {
            if (matches(r.selector(), pod, restartPolicy, spec, role)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    private static boolean matches(Stages.Selector s, ObjectMeta pod, String restartPolicy, Container spec,
                                   ContainerRun.Role role) {
        Map<String, String> labels = pod.getLabels() == null ? Map.of() : pod.getLabels();
        Map<String, String> annotations = pod.getAnnotations() == null ? Map.of() : pod.getAnnotations();
        for (Map.Entry<String, String> e : s.matchLabels().entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (Map.Entry<String, String> e : s.matchAnnotations().entrySet()) {
            if (!e.getValue().equals(annotations.get(e.getKey()))) {
                return false;
            }
        }
        for (Stages.Expression x : s.matchExpressions()) {
            String value = switch (x.key()) {
                case POD_NAMESPACE -> pod.getNamespace();
                case POD_RESTART_POLICY -> restartPolicy;
                case CONTAINER_NAME -> spec.getName();
                case CONTAINER_IMAGE -> spec.getImage() == null ? "" : spec.getImage();
                default -> role.name().toLowerCase(Locale.ROOT);
            };
            if (!x.matches(value)) {
                return false;
            }
        }
        return true;
    }

    /** The system use: the stage file's, else {@code EVENTPLANE_NODESIM_SYSTEM_USAGE}, else {@link #BUILT_IN_SYSTEM}. */
    public SystemUse systemOrEnvironment() {
        if (system != null) {
            return system;
        }
        String text = EventplaneConfig.setting(SYSTEM_SETTING, "");
        if (text == null || text.isBlank()) {
            return BUILT_IN_SYSTEM;
        }
        try {
            return parseSystem(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SYSTEM_SETTING + ": " + e.getMessage());
        }
    }

    /** {@code cpu=100m,memory=256Mi}; a part left out is the built-in one. */
    static SystemUse parseSystem(String text) {
        double cpu = BUILT_IN_SYSTEM.cpu();
        double memory = BUILT_IN_SYSTEM.memory();
        for (String part : text.split(",")) {
            String[] kv = part.split("=", 2);
            String v = kv.length == 2 ? kv[1].trim() : "";
            if (kv.length != 2 || !Quantity.isValid(v) || !Set.of("cpu", "memory").contains(kv[0].trim())) {
                throw new IllegalArgumentException("\"" + part.trim() + "\" is not cpu=<quantity> or memory=<quantity>");
            }
            double amount = Quantity.parse(v).amount().doubleValue();
            if (kv[0].trim().equals("cpu")) {
                cpu = amount;
            } else {
                memory = amount;
            }
        }
        return new SystemUse(cpu, memory);
    }

    // ---- the stage file's block

    static UsageRules parse(Stages.Parser p, Node n) {
        Map<String, NodeTuple> m = p.mapping(n, "usage", Set.of("system", "pods"));
        SystemUse system = null;
        if (m.containsKey("system")) {
            Node s = m.get("system").getValueNode();
            Map<String, NodeTuple> sm = p.mapping(s, "usage.system", Set.of("cpu", "memory"));
            system = new SystemUse(quantity(p, sm.get("cpu"), "usage.system.cpu", BUILT_IN_SYSTEM.cpu()),
                    quantity(p, sm.get("memory"), "usage.system.memory", BUILT_IN_SYSTEM.memory()));
        }
        List<Rule> rules = new ArrayList<>();
        if (m.containsKey("pods")) {
            Node list = m.get("pods").getValueNode();
            if (!(list instanceof SequenceNode seq)) {
                throw p.error(list, "usage.pods", "must be a list of {selector, cpu, memory}");
            }
            for (int i = 0; i < seq.getValue().size(); i++) {
                rules.add(rule(p, seq.getValue().get(i), "usage.pods[" + i + "]"));
            }
        }
        return new UsageRules(system, List.copyOf(rules));
    }

    private static Rule rule(Stages.Parser p, Node n, String path) {
        Map<String, NodeTuple> m = p.mapping(n, path, Set.of("selector", "cpu", "memory"));
        Stages.Selector selector = m.containsKey("selector") ? p.selector(m.get("selector").getValueNode(),
                path + ".selector") : new Stages.Selector(Map.of(), Map.of(), List.of());
        for (int i = 0; i < selector.matchExpressions().size(); i++) {
            Stages.Key key = selector.matchExpressions().get(i).key();
            if (!STATIC_KEYS.contains(key)) {
                throw p.error(m.get("selector").getValueNode(), path + ".selector.matchExpressions[" + i + "].key",
                        "\"" + key.text + "\" changes while a container runs; a usage rule matches on pod.namespace, "
                                + "pod.restartPolicy, container.name, container.image and container.type");
            }
        }
        if (!m.containsKey("cpu") && !m.containsKey("memory")) {
            throw p.error(n, path, "declares neither cpu nor memory");
        }
        return new Rule(selector, expression(p, m.get("cpu"), path + ".cpu"),
                expression(p, m.get("memory"), path + ".memory"));
    }

    private static UsageExpression expression(Stages.Parser p, NodeTuple t, String path) {
        if (t == null) {
            return null;
        }
        try {
            return UsageExpression.parse(p.scalar(t.getValueNode(), path));
        } catch (IllegalArgumentException e) {
            throw p.error(t.getValueNode(), path, e.getMessage());
        }
    }

    private static double quantity(Stages.Parser p, NodeTuple t, String path, double dflt) {
        if (t == null) {
            return dflt;
        }
        String v = p.scalar(t.getValueNode(), path).trim();
        if (!Quantity.isValid(v)) {
            throw p.error(t.getValueNode(), path, "\"" + v + "\" is not a quantity");
        }
        return Quantity.parse(v).amount().doubleValue();
    }
}
