package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import java.util.List;

/**
 * Why the writer refused a command, in the terms of a Kubernetes {@code Status}: HTTP code, StatusReason, message and
 * the field causes of an Invalid.
 */
public record Rejection(int code, String reason, String message, List<StatusCause> causes) {

    public static Rejection notFound(String resource, String name) {
        return new Rejection(404, "NotFound", resource + " \"" + name + "\" not found", List.of());
    }

    public static Rejection alreadyExists(String resource, String name) {
        return new Rejection(409, "AlreadyExists", resource + " \"" + name + "\" already exists", List.of());
    }

    public static Rejection conflict(String resource, String name, String why) {
        return new Rejection(409, "Conflict", "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + why,
                List.of());
    }

    /** 403 Forbidden: {@code priorityclasses.scheduling.k8s.io "x" is forbidden: why}. */
    public static Rejection forbidden(String resource, String name, String why) {
        return new Rejection(403, "Forbidden", resource + " \"" + name + "\" is forbidden: " + why, List.of());
    }

    public static Rejection badRequest(String message) {
        return new Rejection(400, "BadRequest", message, List.of());
    }

    /** 422 Invalid: {@code Pod "x" is invalid: [spec.containers: Required value, ...]}. */
    public static Rejection invalid(String kind, String name, List<StatusCause> causes) {
        StringBuilder sb = new StringBuilder(kind).append(" \"").append(name).append("\" is invalid: ");
        if (causes.size() == 1) {
            sb.append(causes.get(0).getMessage());
        } else {
            sb.append('[');
            for (int i = 0; i < causes.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(causes.get(i).getMessage());
            }
            sb.append(']');
        }
        return new Rejection(422, "Invalid", sb.toString(), causes);
    }
}
