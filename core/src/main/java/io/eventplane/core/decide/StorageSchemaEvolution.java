package io.eventplane.core.decide;

import io.eventplane.core.customavro.CustomAvroCompatibility;
import io.eventplane.core.customavro.CustomAvroSchemas;
import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionVersion;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.util.List;
import java.util.Optional;

/**
 * A definition's storage version may change its schema only compatibly: its objects are on the log as Avro in the
 * version's registered schema, and a consumer reading the subject's latest schema must still read them (Kafka's
 * BACKWARD rule). Adding optional fields, removing fields and loosening to JSON text pass; changing a field's type
 * or adding a required field without a default is refused. A new version name starts a new subject and is free.
 * Kubernetes itself allows any change (stored objects are revalidated only when written again).
 */
final class StorageSchemaEvolution {
    private StorageSchemaEvolution() {
    }

    static List<StatusCause> causes(CustomResourceDefinition old, CustomResourceDefinition updated) {
        List<CustomResourceDefinitionVersion> versions = updated.getSpec().getVersions();
        for (int i = 0; versions != null && i < versions.size(); i++) {
            CustomResourceDefinitionVersion v = versions.get(i);
            Optional<JSONSchemaProps> before = schemaOf(old, v.getName());
            JSONSchemaProps after = schema(v);
            if (!Boolean.TRUE.equals(v.getStorage()) || before.isEmpty() || after == null
                    || updated.getSpec().getNames() == null) {
                continue;
            }
            String group = updated.getSpec().getGroup();
            String kind = updated.getSpec().getNames().getKind();
            Optional<String> problem = CustomAvroCompatibility.problem(
                    CustomAvroSchemas.of(group, v.getName(), kind, before.get()),
                    CustomAvroSchemas.of(group, v.getName(), kind, after));
            if (problem.isPresent()) {
                String field = "spec.versions[" + i + "].schema.openAPIV3Schema";
                return List.of(Causes.cause("FieldValueInvalid", field, field + ": Invalid value: " + problem.get()
                        + ": the storage version's schema must stay backward compatible with the one registered for"
                        + " subject " + CustomAvroSchemas.subject(group, v.getName(), kind)
                        + " (add optional fields, or serve a new version)"));
            }
        }
        return List.of();
    }

    private static Optional<JSONSchemaProps> schemaOf(CustomResourceDefinition crd, String version) {
        if (crd.getSpec() == null || crd.getSpec().getVersions() == null) {
            return Optional.empty();
        }
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(version))
                .map(StorageSchemaEvolution::schema).filter(java.util.Objects::nonNull).findFirst();
    }

    private static JSONSchemaProps schema(CustomResourceDefinitionVersion v) {
        return v.getSchema$() == null ? null : v.getSchema$().getOpenAPIV3Schema();
    }
}
