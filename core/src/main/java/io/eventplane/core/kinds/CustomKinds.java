package io.eventplane.core.kinds;

import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionCondition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionNames;
import io.eventplane.model.apiextensions.CustomResourceDefinitionVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /**
     * What one definition gives at one resourceVersion; no kinds once it is deleted (kept so older news is ignored).
     * A terminating definition serves nothing but its kinds stay known, so that their objects can still be deleted.
     */
    private record Definition(long resourceVersion, List<CustomKind> kinds, boolean serving,
                              CustomResourceDefinition crd) {
        List<CustomKind> served() {
            return serving ? kinds : List.of();
        }
    }

    private static final Map<String, Definition> BY_DEFINITION = new ConcurrentHashMap<>();

    private CustomKinds() {
    }

    /**
     * Serves what {@code crd} defines (replacing what it defined before), or stops serving it when not Established.
     * Several followers of the log may feed one process (the writer ahead of a gateway's view): news older than what
     * is known is ignored.
     */
    public static void define(CustomResourceDefinition crd) {
        String name = crd.getMetadata().getName();
        boolean terminating = crd.getMetadata().getDeletionTimestamp() != null;
        update(name, resourceVersion(crd), established(crd) ? kindsOf(crd) : List.of(), !terminating, crd);
    }

    /** The definition was deleted at {@code resourceVersion}. */
    public static void forget(String definitionName, long resourceVersion) {
        update(definitionName, resourceVersion, List.of(), false, null);
    }

    private static void update(String name, long resourceVersion, List<CustomKind> kinds, boolean serving,
                               CustomResourceDefinition crd) {
        BY_DEFINITION.compute(name, (n, known) -> known != null && known.resourceVersion() > resourceVersion ? known
                : new Definition(resourceVersion, List.copyOf(kinds), serving, crd));
    }

    /** Names a group's kinds use: resource names (plural, singular, short names) and kinds (kind, list kind). */
    public record GroupNames(Set<String> resources, Set<String> kinds) {
    }

    /**
     * The names {@code group} uses but {@code definitionName}'s own: the names other definitions of the group have
     * accepted (apiextensions-apiserver's naming controller reserves them), and those of the compiled kinds served in
     * the group (a definition may not take over Ingress in networking.k8s.io).
     */
    public static GroupNames namesInUse(String group, String definitionName) {
        Set<String> resources = new HashSet<>();
        Set<String> kinds = new HashSet<>();
        for (KindInfo k : Kinds.served()) {
            if (k.group().equals(group)) {
                resources.add(k.plural());
                resources.add(k.singular());
                resources.addAll(k.shortNames());
                kinds.add(k.objectKind());
                kinds.add(k.objectKind() + "List");
            }
        }
        BY_DEFINITION.forEach((name, d) -> {
            CustomResourceDefinition crd = d.crd();
            if (name.equals(definitionName) || crd == null || crd.getSpec() == null
                    || !group.equals(crd.getSpec().getGroup()) || crd.getStatus() == null
                    || crd.getStatus().getAcceptedNames() == null) {
                return;
            }
            CustomResourceDefinitionNames accepted = crd.getStatus().getAcceptedNames();
            addIfSet(resources, accepted.getPlural());
            addIfSet(resources, accepted.getSingular());
            if (accepted.getShortNames() != null) {
                accepted.getShortNames().forEach(n -> addIfSet(resources, n));
            }
            addIfSet(kinds, accepted.getKind());
            addIfSet(kinds, accepted.getListKind());
        });
        return new GroupNames(Set.copyOf(resources), Set.copyOf(kinds));
    }

    private static void addIfSet(Set<String> names, String name) {
        if (name != null && !name.isEmpty()) {
            names.add(name);
        }
    }

    private static long resourceVersion(CustomResourceDefinition crd) {
        String rv = crd.getMetadata().getResourceVersion();
        return rv == null || rv.isEmpty() ? 0 : Long.parseLong(rv);
    }

    /** Every served version of every defined kind; a group's versions in the definition's order. */
    public static List<CustomKind> served() {
        List<CustomKind> out = new ArrayList<>();
        BY_DEFINITION.values().forEach(d -> out.addAll(d.served()));
        return out;
    }

    /**
     * The storage version of the custom kind stored as {@code kind} ({@code Kind.group}, {@link KindInfo#kind()}),
     * served or terminating.
     */
    public static Optional<CustomKind> byKind(String kind) {
        for (Definition d : BY_DEFINITION.values()) {
            for (CustomKind k : d.kinds()) {
                if (k.storage() && k.info().kind().equals(kind)) {
                    return Optional.of(k);
                }
            }
        }
        return Optional.empty();
    }

    /** The storage version of the custom kind {@code object} is (by its apiVersion's group and its kind). */
    public static Optional<CustomKind> of(CustomObject object) {
        return byKind(kindOf(object));
    }

    /** The log name ({@code Kind.group}) of the kind a custom object says it is. */
    public static String kindOf(CustomObject object) {
        return KindInfo.customKind(object.getKind() == null ? "" : object.getKind(), groupOf(object.getApiVersion()));
    }

    private static String groupOf(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** The served version {@code apiVersion} of the custom kind {@code kind} (as objects say it: no group). */
    public static Optional<CustomKind> byApiVersion(String apiVersion, String kind) {
        for (Definition d : BY_DEFINITION.values()) {
            for (CustomKind k : d.served()) {
                if (k.info().objectKind().equals(kind) && k.info().apiVersion().equals(apiVersion)) {
                    return Optional.of(k);
                }
            }
        }
        return Optional.empty();
    }

    public static Optional<CustomKind> byResource(String group, String version, String plural) {
        for (Definition d : BY_DEFINITION.values()) {
            for (CustomKind k : d.served()) {
                KindInfo i = k.info();
                if (i.group().equals(group) && i.version().equals(version) && i.plural().equals(plural)) {
                    return Optional.of(k);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The kind of an object whose definition is gone (its last changes still travel to watchers and the audit): what
     * the object itself says, with Kubernetes' default plural.
     */
    public static KindInfo undefined(CustomObject object) {
        String apiVersion = object.getApiVersion() == null ? "" : object.getApiVersion();
        int slash = apiVersion.indexOf('/');
        String kind = object.getKind() == null ? "" : object.getKind();
        String singular = kind.toLowerCase(java.util.Locale.ROOT);
        return new KindInfo(kindOf(object), groupOf(apiVersion), apiVersion.substring(slash + 1),
                singular + "s", singular, List.of(), object.getMetadata() != null
                && object.getMetadata().getNamespace() != null, false, CustomObject.class);
    }

    /**
     * The kind the definition's objects are stored as: its storage version (the first served one when none is
     * marked), whether or not it is Established; empty when it serves no version.
     */
    public static Optional<KindInfo> storedKind(CustomResourceDefinition crd) {
        List<CustomKind> kinds = kindsOf(crd);
        return kinds.stream().filter(CustomKind::storage).findFirst().or(() -> kinds.stream().findFirst())
                .map(CustomKind::info);
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
            KindInfo info = new KindInfo(KindInfo.customKind(names.getKind(), spec.getGroup()), spec.getGroup(),
                    v.getName(), names.getPlural(),
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
