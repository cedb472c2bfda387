package io.eventplane.core.container;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A command's answer declared for a simulated container, for programs the built-in shell does not know:
 * {@code command} is the command line (words joined by spaces; a trailing {@code *} matches any rest), then what it
 * writes and its exit code. Declared per pod in the annotation {@code sim.eventplane.io/exec} (all containers) or
 * {@code sim.eventplane.io/exec.<container>}, as a YAML or JSON list:
 * {@code [{command: "nginx -v", stderr: "nginx version: nginx/1.27.0\n", exitCode: 0}]}.
 */
public record ExecResponse(String command, String stdout, String stderr, int exitCode) {
    public static final String ANNOTATION = "sim.eventplane.io/exec";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public boolean matches(List<String> argv) {
        String line = String.join(" ", argv);
        return command.endsWith("*") ? line.startsWith(command.substring(0, command.length() - 1))
                : line.equals(command);
    }

    /** The responses a pod declares for {@code container}: the container's own first, then the pod-wide ones. */
    public static List<ExecResponse> declared(Pod pod, String container) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        List<ExecResponse> out = new ArrayList<>();
        if (annotations == null) {
            return out;
        }
        out.addAll(parse(annotations.get(ANNOTATION + "." + container)));
        out.addAll(parse(annotations.get(ANNOTATION)));
        return out;
    }

    /** A declared list; an unreadable declaration declares nothing (a pod's annotation is no reason to fail). */
    public static List<ExecResponse> parse(String text) {
        List<ExecResponse> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        try {
            JsonNode list = YAML.readTree(text);
            if (list == null || !list.isArray()) {
                return out;
            }
            for (JsonNode n : list) {
                if (n.hasNonNull("command")) {
                    out.add(new ExecResponse(n.get("command").asText(), n.path("stdout").asText(""),
                            n.path("stderr").asText(""), n.path("exitCode").asInt(0)));
                }
            }
        } catch (java.io.IOException e) {
            return out;
        }
        return out;
    }
}
