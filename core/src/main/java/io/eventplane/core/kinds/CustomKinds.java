package io.eventplane.core.kinds;

import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionCondition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionNames;
import io.eventplane.model.apiextensions.CustomResourceDefinitionVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kinds CustomResourceDefinitions define, served while their definition is Established: the dynamic half of the
 * kind registry ({@link Kinds} is the compiled half). Fed by whoever follows the live log (the gateway's view);
 * process-wide like the compiled kinds, so services of one JVM share it. Past states (time travel, replay) never
 * feed it.
 */
public final class CustomKinds {
    /** One served version of a custom kind, and the definition it comes from. */
    public record CustomKind(KindInfo info, CustomResourceDefinition definition, CustomResourceDefinitionVersion version) {
        public List<String> categories() {
            List<String> c = definition.getSpec().getNames().getCategories();
            return c == null ? List.of() : c;
        }

        public boolean scalable() {
            return version.getSubresources() != null && version.getSubresources().getScale() != null;
        }

        /** The version objects are stored at. */
        public boolean storage() {
            return Boolean.TRUE.equals(version.getStorage());
        }
    }

    private static final Map<String, List<CustomKind>> BY_DEFINITION = new ConcurrentHashMap<>();

    private CustomKinds() {
    }

    /** Serves what {@code crd} defines (replacing what it defined before), or stops serving it when not Established. */
    public static void define(CustomResourceDefinition crd) {
        String name = crd.getMetadata().getName();
        if (!established(crd) || crd.getMetadata().getDeletionTimestamp() != null) {
            BY_DEFINITION.remove(name);
            return;
        }
        BY_DEFINITION.put(name, kindsOf(crd));
    }

    public static void forget(String definitionName) {
        BY_DEFINITION.remove(definitionName);
    }

    /** Every served version of every defined kind; a group's versions in the definition's order. */
    public static List<CustomKind> served() {
        List<CustomKind> out = new ArrayList<>();
        BY_DEFINITION.values().forEach(out::addAll);
        return out;
    }

    public static Optional<CustomKind> byResource(String group, String version, String plural) {
        for (Collection<CustomKind> kinds : BY_DEFINITION.values()) {
            for (CustomKind k : kinds) {
                KindInfo i = k.info();
                if (i.group().equals(group) && i.version().equals(version) && i.plural().equals(plural)) {
                    return Optional.of(k);
                }
            }
        }
        return Optional.empty();
    }

    /** The served versions a definition gives, whether or not it is Established yet. */
    public static List<CustomKind> kindsOf(CustomResourceDefinition crd) {
        var spec = crd.getSpec();
        CustomResourceDefinitionNames names = spec.getNames();
        List<CustomKind> out = new ArrayList<>();
        for (CustomResourceDefinitionVersion v : spec.getVersions()) {
            if (!Boolean.TRUE.equals(v.getServed())) {
                continue;
            }
            boolean status = v.getSubresources() != null && v.getSubresources().getStatus() != null;
            KindInfo info = new KindInfo(names.getKind(), spec.getGroup(), v.getName(), names.getPlural(),
                    names.getSingular() == null ? names.getKind().toLowerCase(java.util.Locale.ROOT) : names.getSingular(),
                    names.getShortNames() == null ? List.of() : List.copyOf(names.getShortNames()),
                    "Namespaced".equals(spec.getScope()), status, CustomObject.class);
            out.add(new CustomKind(info, crd, v));
        }
        return out;
    }

    public static boolean established(CustomResourceDefinition crd) {
        if (crd.getStatus() == null || crd.getStatus().getConditions() == null) {
            return false;
        }
        for (CustomResourceDefinitionCondition c : crd.getStatus().getConditions()) {
            if ("Established".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }
}
