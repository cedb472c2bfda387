package io.eventplane.core.decide;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.StatusCause;
import io.eventplane.model.Container;
import io.eventplane.model.EphemeralContainer;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code pods/ephemeralcontainers} subresource as Kubernetes' registry keeps it (spec POD-11): a write changes
 * {@code spec.ephemeralContainers} and nothing else; containers may only be added, never changed or removed
 * (POD-11.2, POD-11.3); each added one needs a unique name and an image, may not set the fields a debug container
 * cannot have (POD-11.5), and its {@code targetContainerName} must name a container of the pod.
 */
final class EphemeralContainerRules {
    private static final String PATH = "spec.ephemeralContainers";

    private EphemeralContainerRules() {
    }

    /** The stored pod with the written pod's ephemeral containers. */
    static Pod apply(Pod stored, Pod written) {
        PodSpec spec = PodSpec.newBuilder(stored.getSpec())
                .setEphemeralContainers(written.getSpec() == null ? null : written.getSpec().getEphemeralContainers())
                .build();
        return ObjectAccess.with(stored, "spec", spec);
    }

    static List<StatusCause> validate(Pod old, Pod updated) {
        List<StatusCause> causes = new ArrayList<>();
        Map<String, EphemeralContainer> before = byName(old.getSpec().getEphemeralContainers());
        Map<String, EphemeralContainer> after = byName(updated.getSpec().getEphemeralContainers());
        before.forEach((name, container) -> {
            if (!after.containsKey(name)) {
                causes.add(Causes.forbidden(PATH, "existing ephemeral containers \"" + name + "\" may not be removed"));
            } else if (!Objects.equals(container, after.get(name))) {
                causes.add(Causes.forbidden(PATH, "existing ephemeral containers \"" + name + "\" may not be changed"));
            }
        });
        Set<String> names = new HashSet<>();
        Set<String> targets = new HashSet<>();
        for (List<Container> list : java.util.Arrays.asList(updated.getSpec().getContainers(),
                updated.getSpec().getInitContainers())) {
            if (list != null) {
                list.forEach(c -> names.add(c.getName()));
                list.forEach(c -> targets.add(c.getName()));
            }
        }
        List<EphemeralContainer> all = updated.getSpec().getEphemeralContainers() == null ? List.of()
                : updated.getSpec().getEphemeralContainers();
        for (int i = 0; i < all.size(); i++) {
            EphemeralContainer c = all.get(i);
            String at = PATH + "[" + i + "]";
            if (before.containsKey(c.getName()) && Objects.equals(before.get(c.getName()), c)) {
                names.add(c.getName());
                continue; // an existing one was valid when added
            }
            if (c.getName() == null || c.getName().isEmpty()) {
                causes.add(Causes.required(at + ".name"));
            } else if (!names.add(c.getName())) {
                causes.add(Causes.duplicate(at + ".name", c.getName()));
            } else {
                Formats.label(c.getName()).forEach(m -> causes.add(Causes.invalid(at + ".name", c.getName(), m)));
            }
            if (c.getImage() == null || c.getImage().isBlank()) {
                causes.add(Causes.required(at + ".image"));
            }
            forbid(causes, at + ".ports", c.getPorts() != null && !c.getPorts().isEmpty());
            forbid(causes, at + ".livenessProbe", c.getLivenessProbe() != null);
            forbid(causes, at + ".readinessProbe", c.getReadinessProbe() != null);
            forbid(causes, at + ".startupProbe", c.getStartupProbe() != null);
            forbid(causes, at + ".lifecycle", c.getLifecycle() != null);
            forbid(causes, at + ".resources", c.getResources() != null && (notEmpty(c.getResources().getLimits())
                    || notEmpty(c.getResources().getRequests())));
            forbid(causes, at + ".resizePolicy", c.getResizePolicy() != null && !c.getResizePolicy().isEmpty());
            forbid(causes, at + ".restartPolicy", c.getRestartPolicy() != null);
            String target = c.getTargetContainerName();
            if (target != null && !target.isEmpty() && !targets.contains(target)) {
                causes.add(Causes.cause("FieldValueNotFound", at + ".targetContainerName",
                        at + ".targetContainerName: Not found: \"" + target + "\""));
            }
        }
        return causes;
    }

    private static void forbid(List<StatusCause> causes, String field, boolean set) {
        if (set) {
            causes.add(Causes.forbidden(field, "cannot be set for an Ephemeral Container"));
        }
    }

    private static boolean notEmpty(Map<String, String> m) {
        return m != null && !m.isEmpty();
    }

    private static Map<String, EphemeralContainer> byName(List<EphemeralContainer> list) {
        Map<String, EphemeralContainer> out = new LinkedHashMap<>();
        if (list != null) {
            list.forEach(c -> out.put(c.getName(), c));
        }
        return out;
    }
}
