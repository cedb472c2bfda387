package io.eventplane.core.decide;

import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.CustomResourceConversion;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionCondition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionNames;
import io.eventplane.model.apiextensions.CustomResourceDefinitionSpec;
import io.eventplane.model.apiextensions.CustomResourceDefinitionStatus;
import io.eventplane.model.apiextensions.CustomResourceDefinitionVersion;
import io.eventplane.model.apiextensions.CustomResourceSubresourceScale;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition (apiextensions-apiserver's validation and v1 defaults). The
 * writer also plays the naming and establishing controllers: a definition it accepts has its names accepted and is
 * Established at once when its names are free in its group; a name another definition of the group holds is not
 * accepted (NamesAccepted False, and the definition is not Established until the names are free and it is decided
 * again: at its next update).
 */
public final class CustomResourceDefinitionRules implements KindRules<CustomResourceDefinition> {
    /** Held by a definition until its objects are deleted (the crd-finalizer controller removes it). */
    public static final String CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";
    private static final String NAMES_ACCEPTED = "NamesAccepted";
    private static final String ESTABLISHED = "Established";

    @Override
    public CustomResourceDefinition defaults(CustomResourceDefinition crd) {
        CustomResourceDefinitionSpec spec = crd.getSpec();
        if (spec == null) {
            return crd;
        }
        CustomResourceDefinitionSpec.Builder b = CustomResourceDefinitionSpec.newBuilder(spec);
        CustomResourceDefinitionNames names = spec.getNames();
        if (names != null && names.getKind() != null && !names.getKind().isEmpty()) {
            CustomResourceDefinitionNames.Builder n = CustomResourceDefinitionNames.newBuilder(names);
            if (names.getSingular() == null || names.getSingular().isEmpty()) {
                n.setSingular(names.getKind().toLowerCase(Locale.ROOT));
            }
            if (names.getListKind() == null || names.getListKind().isEmpty()) {
                n.setListKind(names.getKind() + "List");
            }
            b.setNames(n.build());
        }
        if (spec.getConversion() == null || spec.getConversion().getStrategy() == null) {
            b.setConversion(CustomResourceConversion.newBuilder().setStrategy("None").build());
        }
        if (spec.getVersions() != null) {
            List<CustomResourceDefinitionVersion> versions = new ArrayList<>();
            for (CustomResourceDefinitionVersion v : spec.getVersions()) {
                CustomResourceDefinitionVersion.Builder vb = CustomResourceDefinitionVersion.newBuilder(v);
                if (v.getServed() == null) {
                    vb.setServed(false);
                }
                if (v.getStorage() == null) {
                    vb.setStorage(false);
                }
                versions.add(vb.build());
            }
            b.setVersions(versions);
        }
        return CustomResourceDefinition.newBuilder(crd).setSpec(b.build()).build();
    }

    @Override
    public CustomResourceDefinition prepareForCreate(CustomResourceDefinition crd, Instant now) {
        List<String> finalizers = new ArrayList<>(crd.getMetadata().getFinalizers() == null ? List.of()
                : crd.getMetadata().getFinalizers());
        if (!finalizers.contains(CLEANUP_FINALIZER)) {
            finalizers.add(CLEANUP_FINALIZER);
        }
        return CustomResourceDefinition.newBuilder(crd).setStatus(accepted(null, crd, now))
                .setMetadata(io.eventplane.model.ObjectMeta.newBuilder(crd.getMetadata()).setFinalizers(finalizers).build())
                .build();
    }

    @Override
    public CustomResourceDefinition prepareForUpdate(CustomResourceDefinition old, CustomResourceDefinition updated) {
        // Conditions already True keep their time; a missing one dates from the definition's creation (decisions
        // are deterministic: no clock here).
        Instant created = old.getMetadata().getCreationTimestamp();
        Instant now = created == null ? Instant.EPOCH : created;
        return CustomResourceDefinition.newBuilder(updated).setStatus(accepted(old.getStatus(), updated, now)).build();
    }

    /**
     * The status the naming and establishing controllers give: the requested names the group leaves free accepted
     * ({@link CustomResourceDefinitionNaming}), Established once they all are (and kept once it was, as upstream
     * keeps it), the storage version recorded among storedVersions. The names in use are those of the definitions
     * this writer knows ({@link CustomKinds}: every partition's); a decision is recorded in the change, so a replay of
     * the log reads it rather than deciding it again.
     */
    private static CustomResourceDefinitionStatus accepted(CustomResourceDefinitionStatus old, CustomResourceDefinition crd,
                                                          Instant now) {
        List<String> stored = new ArrayList<>(old == null || old.getStoredVersions() == null ? List.of()
                : old.getStoredVersions());
        if (crd.getSpec() != null && crd.getSpec().getVersions() != null) {
            for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
                if (Boolean.TRUE.equals(v.getStorage()) && !stored.contains(v.getName())) {
                    stored.add(v.getName());
                }
            }
        }
        List<CustomResourceDefinitionCondition> conditions = new ArrayList<>(
                old == null || old.getConditions() == null ? List.of() : old.getConditions());
        CustomResourceDefinitionNames requested = crd.getSpec() == null || crd.getSpec().getNames() == null
                ? new CustomResourceDefinitionNames() : crd.getSpec().getNames();
        String group = crd.getSpec() == null || crd.getSpec().getGroup() == null ? "" : crd.getSpec().getGroup();
        CustomResourceDefinitionNaming naming = CustomResourceDefinitionNaming.decide(requested,
                old == null ? null : old.getAcceptedNames(),
                CustomKinds.namesInUse(group, crd.getMetadata().getName()));
        boolean wasEstablished = conditions.stream()
                .anyMatch(c -> ESTABLISHED.equals(c.getType()) && "True".equals(c.getStatus()));
        condition(conditions, NAMES_ACCEPTED, naming.namesAccepted(), naming.reason(), naming.message(), now);
        if (naming.namesAccepted() || !wasEstablished) {
            condition(conditions, ESTABLISHED, naming.namesAccepted(),
                    naming.namesAccepted() ? "InitialNamesAccepted" : "NotAccepted",
                    naming.namesAccepted() ? "the initial names have been accepted" : "not all names are accepted", now);
        }
        return CustomResourceDefinitionStatus.newBuilder()
                .setConditions(conditions)
                .setAcceptedNames(naming.accepted())
                .setStoredVersions(stored).build();
    }

    /** Sets a condition; one already of that status keeps its lastTransitionTime (and an Established one its words). */
    private static void condition(List<CustomResourceDefinitionCondition> conditions, String type, boolean status,
                                  String reason, String message, Instant now) {
        String value = status ? "True" : "False";
        for (int i = 0; i < conditions.size(); i++) {
            CustomResourceDefinitionCondition c = conditions.get(i);
            if (type.equals(c.getType()) && value.equals(c.getStatus())) {
                if (!ESTABLISHED.equals(type)) {
                    conditions.set(i, CustomResourceDefinitionCondition.newBuilder(c).setReason(reason)
                            .setMessage(message).build());
                }
                return;
            }
        }
        conditions.removeIf(c -> type.equals(c.getType()));
        conditions.add(CustomResourceDefinitionCondition.newBuilder().setType(type).setStatus(value)
                .setLastTransitionTime(now).setReason(reason).setMessage(message).build());
    }

    @Override
    public List<StatusCause> validate(CustomResourceDefinition crd) {
        List<StatusCause> causes = new ArrayList<>();
        CustomResourceDefinitionSpec spec = crd.getSpec() == null ? new CustomResourceDefinitionSpec() : crd.getSpec();
        CustomResourceDefinitionNames names = spec.getNames() == null ? new CustomResourceDefinitionNames() : spec.getNames();
        String name = crd.getMetadata().getName();
        if (!Objects.equals(name, names.getPlural() + "." + spec.getGroup())) {
            causes.add(Causes.invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group"));
        }
        String group = spec.getGroup();
        if (group == null || group.isEmpty()) {
            causes.add(Causes.required("spec.group"));
        } else {
            Names.subdomain("spec.group", group).ifPresentOrElse(causes::add, () -> {
                if (!group.contains(".")) {
                    causes.add(Causes.invalid("spec.group", group, "should be a domain with at least one dot"));
                }
            });
        }
        String scope = spec.getScope();
        if (scope == null || scope.isEmpty()) {
            causes.add(Causes.required("spec.scope"));
        } else if (!scope.equals("Cluster") && !scope.equals("Namespaced")) {
            causes.add(Causes.notSupported("spec.scope", scope, List.of("Cluster", "Namespaced")));
        }
        versions(spec.getVersions() == null ? List.of() : spec.getVersions(), causes);
        names(names, causes);
        String strategy = spec.getConversion() == null ? null : spec.getConversion().getStrategy();
        if (strategy != null && !strategy.equals("None") && !strategy.equals("Webhook")) {
            causes.add(Causes.notSupported("spec.conversion.strategy", strategy, List.of("None", "Webhook")));
        } else if ("Webhook".equals(strategy)) {
            causes.add(Causes.forbidden("spec.conversion.strategy", "conversion webhooks are not served by Eventplane"));
        }
        if (Boolean.TRUE.equals(spec.getPreserveUnknownFields())) {
            causes.add(Causes.invalid("spec.preserveUnknownFields", true, "cannot set to true, set "
                    + "x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"));
        }
        return causes;
    }

    private static void versions(List<CustomResourceDefinitionVersion> versions, List<StatusCause> causes) {
        String f = "spec.versions";
        if (versions.isEmpty()) {
            causes.add(Causes.invalidShown(f, "[]", "must have exactly one version marked as storage version"));
            return;
        }
        int storage = 0;
        boolean served = false;
        Set<String> seen = new HashSet<>();
        boolean unique = true;
        for (int i = 0; i < versions.size(); i++) {
            CustomResourceDefinitionVersion v = versions.get(i);
            String p = f + "[" + i + "]";
            storage += Boolean.TRUE.equals(v.getStorage()) ? 1 : 0;
            served |= Boolean.TRUE.equals(v.getServed());
            unique &= seen.add(String.valueOf(v.getName()));
            Names.dns1035Label(p + ".name", v.getName()).ifPresent(causes::add);
            if (v.getSchema$() == null || v.getSchema$().getOpenAPIV3Schema() == null) {
                causes.add(Causes.required(p + ".schema.openAPIV3Schema", "schemas are required"));
            } else {
                StructuralSchemas.validate(v.getSchema$().getOpenAPIV3Schema(), p + ".schema.openAPIV3Schema", causes);
                ValidationRuleChecks.check(v.getSchema$().getOpenAPIV3Schema(), p + ".schema.openAPIV3Schema", causes);
            }
            CustomResourceSubresourceScale scale = v.getSubresources() == null ? null : v.getSubresources().getScale();
            if (scale != null) {
                scale(scale, p + ".subresources.scale", causes);
            }
            List<io.eventplane.model.apiextensions.CustomResourceColumnDefinition> columns =
                    v.getAdditionalPrinterColumns() == null ? List.of() : v.getAdditionalPrinterColumns();
            for (int c = 0; c < columns.size(); c++) {
                column(columns.get(c), p + ".additionalPrinterColumns[" + c + "]", causes);
            }
        }
        String shown = versions.stream().map(v -> String.valueOf(v.getName())).toList().toString();
        if (!unique) {
            causes.add(Causes.invalidShown(f, shown, "must contain unique version names"));
        }
        if (storage != 1) {
            causes.add(Causes.invalidShown(f, shown, "must have exactly one version marked as storage version"));
        }
        if (!served) {
            causes.add(Causes.invalidShown(f, shown, "must serve at least one version"));
        }
    }

    private static void scale(CustomResourceSubresourceScale scale, String p, List<StatusCause> causes) {
        if (scale.getSpecReplicasPath() == null || scale.getSpecReplicasPath().isEmpty()) {
            causes.add(Causes.required(p + ".specReplicasPath"));
        } else if (!scale.getSpecReplicasPath().startsWith(".spec.")) {
            causes.add(Causes.invalid(p + ".specReplicasPath", scale.getSpecReplicasPath(),
                    "should be a json path under .spec"));
        }
        if (scale.getStatusReplicasPath() == null || scale.getStatusReplicasPath().isEmpty()) {
            causes.add(Causes.required(p + ".statusReplicasPath"));
        } else if (!scale.getStatusReplicasPath().startsWith(".status.")) {
            causes.add(Causes.invalid(p + ".statusReplicasPath", scale.getStatusReplicasPath(),
                    "should be a json path under .status"));
        }
        String selector = scale.getLabelSelectorPath();
        if (selector != null && !selector.startsWith(".spec.") && !selector.startsWith(".status.")) {
            causes.add(Causes.invalid(p + ".labelSelectorPath", selector, "should be a json path under either .spec or .status"));
        }
    }

    private static void column(io.eventplane.model.apiextensions.CustomResourceColumnDefinition c, String p,
                               List<StatusCause> causes) {
        if (c.getName() == null || c.getName().isEmpty()) {
            causes.add(Causes.required(p + ".name"));
        }
        if (c.getType() == null || c.getType().isEmpty()) {
            causes.add(Causes.required(p + ".type"));
        } else if (!List.of("integer", "number", "string", "boolean", "date").contains(c.getType())) {
            causes.add(Causes.notSupported(p + ".type", c.getType(), List.of("boolean", "date", "integer", "number", "string")));
        }
        if (c.getJsonPath() == null || c.getJsonPath().isEmpty()) {
            causes.add(Causes.required(p + ".jsonPath"));
        }
        if (c.getPriority() != null && c.getPriority() < 0) {
            causes.add(Causes.invalid(p + ".priority", c.getPriority(), "must be a non-negative integer"));
        }
    }

    private static void names(CustomResourceDefinitionNames names, List<StatusCause> causes) {
        String f = "spec.names";
        required(names.getPlural(), f + ".plural", causes);
        required(names.getSingular(), f + ".singular", causes);
        required(names.getKind(), f + ".kind", causes);
        required(names.getListKind(), f + ".listKind", causes);
        label(names.getPlural(), f + ".plural", null, causes);
        label(names.getSingular(), f + ".singular", null, causes);
        label(names.getKind(), f + ".kind", "may have mixed case, but should otherwise match: ", causes);
        label(names.getListKind(), f + ".listKind", "may have mixed case, but should otherwise match: ", causes);
        List<String> shorts = names.getShortNames() == null ? List.of() : names.getShortNames();
        for (int i = 0; i < shorts.size(); i++) {
            label(shorts.get(i), f + ".shortNames[" + i + "]", null, causes);
        }
        if (names.getKind() != null && !names.getKind().isEmpty() && names.getKind().equals(names.getListKind())) {
            causes.add(Causes.invalid(f + ".listKind", names.getListKind(), "kind and listKind may not be the same"));
        }
        List<String> categories = names.getCategories() == null ? List.of() : names.getCategories();
        for (int i = 0; i < categories.size(); i++) {
            label(categories.get(i), f + ".categories[" + i + "]", null, causes);
        }
    }

    private static void required(String value, String field, List<StatusCause> causes) {
        if (value == null || value.isEmpty()) {
            causes.add(Causes.required(field));
        }
    }

    /** A DNS-1035 label; kinds may have mixed case (checked lowercased, reported with their own value). */
    private static void label(String value, String field, String mixedCase, List<StatusCause> causes) {
        if (value == null || value.isEmpty()) {
            return;
        }
        String checked = mixedCase == null ? value : value.toLowerCase(Locale.ROOT);
        Names.dns1035Label(field, checked).ifPresent(c -> {
            String detail = c.getMessage().substring(c.getMessage().indexOf(": Invalid value: ") + 17);
            detail = detail.substring(detail.indexOf(": ") + 2);
            causes.add(Causes.invalid(field, value, mixedCase == null ? detail : mixedCase + detail));
        });
    }

    @Override
    public List<StatusCause> validateUpdate(CustomResourceDefinition old, CustomResourceDefinition updated) {
        List<StatusCause> causes = new ArrayList<>();
        CustomResourceDefinitionSpec before = old.getSpec();
        CustomResourceDefinitionSpec after = updated.getSpec();
        if (before == null || after == null) {
            return causes;
        }
        immutable(before.getGroup(), after.getGroup(), "spec.group", causes);
        immutable(before.getNames().getPlural(), after.getNames().getPlural(), "spec.names.plural", causes);
        immutable(before.getScope(), after.getScope(), "spec.scope", causes);
        immutable(before.getNames().getKind(), after.getNames().getKind(), "spec.names.kind", causes);
        List<String> stored = old.getStatus() == null || old.getStatus().getStoredVersions() == null ? List.of()
                : old.getStatus().getStoredVersions();
        Set<String> versions = new HashSet<>();
        after.getVersions().forEach(v -> versions.add(v.getName()));
        for (int i = 0; i < stored.size(); i++) {
            if (!versions.contains(stored.get(i))) {
                causes.add(Causes.invalid("status.storedVersions[" + i + "]", stored.get(i), "must appear in spec.versions"));
            }
        }
        causes.addAll(StorageSchemaEvolution.causes(old, updated));
        return causes;
    }

    private static void immutable(String before, String after, String field, List<StatusCause> causes) {
        if (!Objects.equals(before, after)) {
            causes.add(Causes.invalid(field, after, "field is immutable"));
        }
    }
}
