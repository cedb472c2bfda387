package io.eventplane.nodesim;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * What simulated programs do, declared as stages (after KWOK's Stage): "when a running container of a pod looks like
 * this, after this delay (with jitter), do one of these things (weighted)". The things a stage can do are the
 * behaviours {@link PodRun} models (the program exits, is OOM-killed, its readiness or liveness probe starts failing or
 * its readiness probe succeeds again), so restart policy, back-off, probes and conditions stay with PodRun.
 *
 * <p>The file (YAML, {@code EVENTPLANE_NODESIM_STAGES}):
 * <pre>{@code
 * stages:
 * - name: crash-some
 *   selector:
 *     matchLabels: {app: web}                # the pod's labels (all must match)
 *     matchAnnotations: {chaos: "on"}        # the pod's annotations (all must match)
 *     matchExpressions:                      # over the container's simulated state (all must match)
 *     - {key: container.restartCount, operator: In, values: ["0"]}
 *   delay: {durationMilliseconds: 30000, jitterDurationMilliseconds: 10000}   # 30 s +- 10 s
 *   next:                                    # one is drawn by weight
 *   - {weight: 1, action: exit, exitCode: 1}
 *   - {weight: 9, action: none}
 * }</pre>
 *
 * <p>A stage applies to each running container of a pod on its own. Its delay counts from the moment the container
 * started to match; if the container stops matching first, nothing happens. A stage fires once each time a container
 * comes to match it, and again only after it stopped matching in between (a new run of the container, a readiness
 * flip). Several stages may be pending on a container at once; they fire in time order (file order on a tie).
 *
 * <p>The file may also declare what programs use ({@code usage}, {@link UsageRules}) and set node-sim's run-to-completion defaults ({@link RunDefaults}), which win over the
 * environment's:
 * <pre>{@code
 * runToCompletion:
 *   initContainerMilliseconds: 1000     # an init container exits 0 after 1 s ("never": it runs until stopped)
 *   containerMilliseconds: 10000        # so does a container of a Never or OnFailure pod, after 10 s
 * }</pre>
 */
public record Stages(List<Stage> stages, RunDefaults.Override runToCompletion, UsageRules usage) {

    public Stages(List<Stage> stages) {
        this(stages, RunDefaults.Override.NONE, UsageRules.NONE);
    }

    public Stages(List<Stage> stages, RunDefaults.Override runToCompletion) {
        this(stages, runToCompletion, UsageRules.NONE);
    }

    /** The environment variable (or system property) naming the stage file. */
    public static final String SETTING = "EVENTPLANE_NODESIM_STAGES";

    public static Stages none() {
        return new Stages(List.of());
    }

    public boolean isEmpty() {
        return stages.isEmpty();
    }

    /** A stage file that cannot be used: the message names the file, the line and the field. */
    public static final class InvalidStages extends IllegalArgumentException {
        public InvalidStages(String message) {
            super(message);
        }
    }

    public record Stage(String name, Selector selector, long delayMillis, long jitterMillis, List<Next> next) {
        long totalWeight() {
            return next.stream().mapToLong(Next::weight).sum();
        }
    }

    public record Selector(Map<String, String> matchLabels, Map<String, String> matchAnnotations,
                           List<Expression> matchExpressions) {
    }

    /** {@code key operator values}: In and NotIn over the listed values, Gt and Lt against one integer. */
    public record Expression(Key key, String operator, List<String> values) {
        boolean matches(String value) {
            return switch (operator) {
                case "In" -> values.contains(value);
                case "NotIn" -> !values.contains(value);
                case "Gt" -> Long.parseLong(value) > Long.parseLong(values.get(0));
                case "Lt" -> Long.parseLong(value) < Long.parseLong(values.get(0));
                default -> false;
            };
        }
    }

    /** What a container's state offers to expressions. */
    public enum Key {
        POD_PHASE("pod.phase", Set.of("Pending", "Running", "Succeeded", "Failed", "Unknown")),
        POD_NAMESPACE("pod.namespace", null),
        POD_DELETING("pod.deleting", Set.of("true", "false")),
        POD_RESTART_POLICY("pod.restartPolicy", Set.of("Always", "OnFailure", "Never")),
        CONTAINER_NAME("container.name", null),
        CONTAINER_IMAGE("container.image", null),
        CONTAINER_TYPE("container.type", Set.of("init", "sidecar", "app", "ephemeral")),
        CONTAINER_STARTED("container.started", Set.of("true", "false")),
        CONTAINER_READY("container.ready", Set.of("true", "false")),
        CONTAINER_RESTART_COUNT("container.restartCount", null);

        final String text;
        final Set<String> allowed;

        Key(String text, Set<String> allowed) {
            this.text = text;
            this.allowed = allowed;
        }

        static Key of(String text) {
            for (Key k : values()) {
                if (k.text.equals(text)) {
                    return k;
                }
            }
            return null;
        }

        boolean numeric() {
            return this == CONTAINER_RESTART_COUNT;
        }
    }

    /** What a stage does to the container's program. */
    public enum Action {
        /** the program exits with {@code exitCode} (reason Completed for 0, Error otherwise) */
        EXIT("exit"),
        /** the program is OOM-killed (137, OOMKilled) */
        OOM_KILL("oomKill"),
        /** its readiness probe fails from now on (no effect without a readiness probe) */
        UNREADY("unready"),
        /** its readiness probe succeeds from now on (no effect without a readiness probe) */
        READY("ready"),
        /** its liveness probe fails from now on (no effect without a liveness probe) */
        LIVENESS_FAILS("livenessFails"),
        /** nothing happens */
        NONE("none");

        final String text;

        Action(String text) {
            this.text = text;
        }

        static Action of(String text) {
            for (Action a : values()) {
                if (a.text.equals(text)) {
                    return a;
                }
            }
            return null;
        }
    }

    public record Next(long weight, Action action, int exitCode) {
    }

    // ---- loading

    /** The stage file named by {@code EVENTPLANE_NODESIM_STAGES}, or no stages when it is unset or blank. */
    public static Stages fromEnvironment() {
        String path = io.eventplane.client.EventplaneConfig.setting(SETTING, "");
        if (path == null || path.isBlank()) {
            return none();
        }
        return load(Path.of(path.trim()));
    }

    public static Stages load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new InvalidStages(SETTING + ": " + file + ": no such file");
        } catch (IOException e) {
            throw new InvalidStages(SETTING + ": " + file + ": cannot be read (" + e.getMessage() + ")");
        }
        return parse(text, file.toString());
    }

    /** Parses and checks a stage file; {@code source} names it in error messages. */
    public static Stages parse(String text, String source) {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            throw new InvalidStages(source + ":" + line + ": not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new InvalidStages(source + ": not valid YAML: " + e.getMessage());
        }
        return new Parser(source).file(root);
    }

    /** Reads the file's YAML; its helpers also read the blocks other classes own ({@link UsageRules}). */
    record Parser(String source) {

        InvalidStages error(Node at, String path, String problem) {
            return new InvalidStages(source + ":" + (at.getStartMark().getLine() + 1) + ": " + path + ": " + problem);
        }

        Stages file(Node root) {
            if (root == null) {
                return none();
            }
            Map<String, NodeTuple> top = mapping(root, "(file)", Set.of("stages", "runToCompletion", "usage"));
            RunDefaults.Override run = top.containsKey("runToCompletion")
                    ? runToCompletion(top.get("runToCompletion").getValueNode()) : RunDefaults.Override.NONE;
            UsageRules usage = top.containsKey("usage") ? UsageRules.parse(this, top.get("usage").getValueNode())
                    : UsageRules.NONE;
            NodeTuple list = top.get("stages");
            if (list == null) {
                return new Stages(List.of(), run, usage);
            }
            if (!(list.getValueNode() instanceof SequenceNode seq)) {
                throw error(list.getValueNode(), "stages", "must be a list of stages");
            }
            List<Stage> out = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (int i = 0; i < seq.getValue().size(); i++) {
                Node n = seq.getValue().get(i);
                Stage s = stage(n, "stages[" + i + "]");
                if (!names.add(s.name())) {
                    throw error(n, "stages[" + i + "].name", "\"" + s.name() + "\" is the name of an earlier stage");
                }
                out.add(s);
            }
            return new Stages(List.copyOf(out), run, usage);
        }

        RunDefaults.Override runToCompletion(Node n) {
            Map<String, NodeTuple> m = mapping(n, "runToCompletion", Set.of("initContainerMilliseconds",
                    "containerMilliseconds"));
            NodeTuple init = m.get("initContainerMilliseconds");
            NodeTuple app = m.get("containerMilliseconds");
            return new RunDefaults.Override(init != null,
                    init == null ? null : millisOrNever(init, "runToCompletion.initContainerMilliseconds"),
                    app != null, app == null ? null : millisOrNever(app, "runToCompletion.containerMilliseconds"));
        }

        java.time.Duration millisOrNever(NodeTuple t, String path) {
            if ("never".equals(scalar(t.getValueNode(), path).trim())) {
                return null;
            }
            return java.time.Duration.ofMillis(millis(t, path));
        }

        Stage stage(Node n, String path) {
            Map<String, NodeTuple> m = mapping(n, path, Set.of("name", "selector", "delay", "next"));
            NodeTuple nameNode = required(m, n, path, "name");
            String name = scalar(nameNode.getValueNode(), path + ".name");
            if (name.isBlank()) {
                throw error(nameNode.getValueNode(), path + ".name", "must not be empty");
            }
            Selector selector = m.containsKey("selector") ? selector(m.get("selector").getValueNode(), path + ".selector")
                    : new Selector(Map.of(), Map.of(), List.of());
            long delay = 0;
            long jitter = 0;
            if (m.containsKey("delay")) {
                Node d = m.get("delay").getValueNode();
                Map<String, NodeTuple> dm = mapping(d, path + ".delay",
                        Set.of("durationMilliseconds", "jitterDurationMilliseconds"));
                delay = millis(dm.get("durationMilliseconds"), path + ".delay.durationMilliseconds");
                jitter = millis(dm.get("jitterDurationMilliseconds"), path + ".delay.jitterDurationMilliseconds");
            }
            NodeTuple nextNode = required(m, n, path, "next");
            if (!(nextNode.getValueNode() instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                throw error(nextNode.getValueNode(), path + ".next", "must be a non-empty list of next steps");
            }
            List<Next> next = new ArrayList<>();
            for (int i = 0; i < seq.getValue().size(); i++) {
                next.add(next(seq.getValue().get(i), path + ".next[" + i + "]"));
            }
            if (next.stream().mapToLong(Next::weight).sum() == 0) {
                throw error(nextNode.getKeyNode(), path + ".next", "the weights add up to 0");
            }
            return new Stage(name, selector, delay, jitter, List.copyOf(next));
        }

        Selector selector(Node n, String path) {
            Map<String, NodeTuple> m = mapping(n, path, Set.of("matchLabels", "matchAnnotations", "matchExpressions"));
            Map<String, String> labels = m.containsKey("matchLabels")
                    ? strings(m.get("matchLabels").getValueNode(), path + ".matchLabels") : Map.of();
            Map<String, String> annotations = m.containsKey("matchAnnotations")
                    ? strings(m.get("matchAnnotations").getValueNode(), path + ".matchAnnotations") : Map.of();
            List<Expression> expressions = new ArrayList<>();
            if (m.containsKey("matchExpressions")) {
                Node e = m.get("matchExpressions").getValueNode();
                if (!(e instanceof SequenceNode seq)) {
                    throw error(e, path + ".matchExpressions", "must be a list of {key, operator, values}");
                }
                for (int i = 0; i < seq.getValue().size(); i++) {
                    expressions.add(expression(seq.getValue().get(i), path + ".matchExpressions[" + i + "]"));
                }
            }
            return new Selector(labels, annotations, List.copyOf(expressions));
        }

        Expression expression(Node n, String path) {
            Map<String, NodeTuple> m = mapping(n, path, Set.of("key", "operator", "values"));
            NodeTuple keyNode = required(m, n, path, "key");
            String keyText = scalar(keyNode.getValueNode(), path + ".key");
            Key key = Key.of(keyText);
            if (key == null) {
                throw error(keyNode.getValueNode(), path + ".key", "unknown key \"" + keyText + "\"; known keys: "
                        + String.join(", ", java.util.Arrays.stream(Key.values()).map(k -> k.text).toList()));
            }
            NodeTuple opNode = required(m, n, path, "operator");
            String op = scalar(opNode.getValueNode(), path + ".operator");
            if (!Set.of("In", "NotIn", "Gt", "Lt").contains(op)) {
                throw error(opNode.getValueNode(), path + ".operator", "unknown operator \"" + op
                        + "\"; known operators: In, NotIn, Gt, Lt");
            }
            NodeTuple valuesNode = required(m, n, path, "values");
            if (!(valuesNode.getValueNode() instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                throw error(valuesNode.getValueNode(), path + ".values", "must be a non-empty list");
            }
            List<String> values = new ArrayList<>();
            for (int i = 0; i < seq.getValue().size(); i++) {
                Node v = seq.getValue().get(i);
                String value = scalar(v, path + ".values[" + i + "]");
                if ((op.equals("Gt") || op.equals("Lt") || key.numeric()) && !value.matches("-?\\d{1,18}")) {
                    throw error(v, path + ".values[" + i + "]", "\"" + value + "\" is not an integer");
                }
                if (key.allowed != null && !key.allowed.contains(value)) {
                    throw error(v, path + ".values[" + i + "]", "\"" + value + "\" is not a value of " + key.text
                            + " (" + String.join(", ", key.allowed.stream().sorted().toList()) + ")");
                }
                values.add(value);
            }
            if (op.equals("Gt") || op.equals("Lt")) {
                if (!key.numeric()) {
                    throw error(opNode.getValueNode(), path + ".operator", op + " needs a numeric key ("
                            + Key.CONTAINER_RESTART_COUNT.text + ")");
                }
                if (values.size() != 1) {
                    throw error(valuesNode.getValueNode(), path + ".values", op + " takes exactly one value");
                }
            }
            return new Expression(key, op, List.copyOf(values));
        }

        Next next(Node n, String path) {
            Map<String, NodeTuple> m = mapping(n, path, Set.of("weight", "action", "exitCode"));
            long weight = m.containsKey("weight") ? integer(m.get("weight").getValueNode(), path + ".weight", 0,
                    1_000_000) : 1;
            NodeTuple actionNode = required(m, n, path, "action");
            String text = scalar(actionNode.getValueNode(), path + ".action");
            Action action = Action.of(text);
            if (action == null) {
                throw error(actionNode.getValueNode(), path + ".action", "unknown action \"" + text
                        + "\"; known actions: " + String.join(", ",
                        java.util.Arrays.stream(Action.values()).map(a -> a.text).toList()));
            }
            int exitCode = 0;
            if (action == Action.EXIT) {
                exitCode = (int) integer(required(m, n, path, "exitCode").getValueNode(), path + ".exitCode", 0, 255);
            } else if (m.containsKey("exitCode")) {
                throw error(m.get("exitCode").getKeyNode(), path + ".exitCode", "only an exit action takes an exit code");
            }
            return new Next(weight, action, exitCode);
        }

        // ---- YAML shapes

        Map<String, NodeTuple> mapping(Node n, String path, Set<String> known) {
            if (!(n instanceof MappingNode map)) {
                throw error(n, path, "must be a mapping with the fields " + String.join(", ", known.stream().sorted()
                        .toList()));
            }
            Map<String, NodeTuple> out = new LinkedHashMap<>();
            for (NodeTuple t : map.getValue()) {
                String key = scalar(t.getKeyNode(), path + " (a key)");
                String at = path.equals("(file)") ? key : path + "." + key;
                if (!known.contains(key)) {
                    throw error(t.getKeyNode(), at, "unknown field; known fields: " + String.join(", ",
                            known.stream().sorted().toList()));
                }
                if (out.put(key, t) != null) {
                    throw error(t.getKeyNode(), at, "appears twice");
                }
            }
            return out;
        }

        NodeTuple required(Map<String, NodeTuple> m, Node at, String path, String field) {
            NodeTuple t = m.get(field);
            if (t == null) {
                throw error(at, path + "." + field, "is required");
            }
            return t;
        }

        String scalar(Node n, String path) {
            if (!(n instanceof ScalarNode s)) {
                throw error(n, path, "must be a single value");
            }
            return s.getValue();
        }

        Map<String, String> strings(Node n, String path) {
            if (!(n instanceof MappingNode map)) {
                throw error(n, path, "must be a mapping of names to values");
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (NodeTuple t : map.getValue()) {
                String key = scalar(t.getKeyNode(), path + " (a key)");
                if (out.put(key, scalar(t.getValueNode(), path + "." + key)) != null) {
                    throw error(t.getKeyNode(), path + "." + key, "appears twice");
                }
            }
            return Map.copyOf(out);
        }

        long millis(NodeTuple t, String path) {
            return t == null ? 0 : integer(t.getValueNode(), path, 0, 365L * 24 * 3_600_000);
        }

        long integer(Node n, String path, long min, long max) {
            String v = scalar(n, path).trim();
            if (!v.matches("-?\\d{1,18}")) {
                throw error(n, path, "\"" + v + "\" is not a whole number");
            }
            long i = Long.parseLong(v);
            if (i < min || i > max) {
                throw error(n, path, i + " is not in " + min + ".." + max);
            }
            return i;
        }
    }
}
