package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ConfigMap;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * core/v1 ConfigMap: keys are config keys, data and binaryData never share a key, together at most 1 MiB; an
 * immutable ConfigMap keeps its data and stays immutable (ValidateConfigMap, ValidateConfigMapUpdate).
 */
final class ConfigMapRules implements KindRules<ConfigMap> {
    static final int MAX_SIZE = 1024 * 1024;

    @Override
    public ConfigMap prepareForCreate(ConfigMap configMap, Instant now) {
        return configMap;
    }

    @Override
    public List<StatusCause> validate(ConfigMap cm) {
        List<StatusCause> causes = new ArrayList<>();
        Map<String, ByteBuffer> binary = cm.getBinaryData() == null ? Map.of() : cm.getBinaryData();
        long size = 0;
        if (cm.getData() != null) {
            for (Map.Entry<String, String> e : new TreeMap<>(cm.getData()).entrySet()) {
                String f = "data[" + e.getKey() + "]";
                Formats.configKey(e.getKey()).forEach(m -> causes.add(Causes.invalid(f, e.getKey(), m)));
                if (binary.containsKey(e.getKey())) {
                    causes.add(Causes.invalid(f, e.getKey(), "duplicate of key present in binaryData"));
                }
                size += e.getValue().length();
            }
        }
        for (Map.Entry<String, ByteBuffer> e : new TreeMap<>(binary).entrySet()) {
            String f = "binaryData[" + e.getKey() + "]";
            Formats.configKey(e.getKey()).forEach(m -> causes.add(Causes.invalid(f, e.getKey(), m)));
            size += e.getValue().remaining();
        }
        if (size > MAX_SIZE) {
            causes.add(tooLong("", MAX_SIZE)); // the whole object, as Kubernetes reports it
        }
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(ConfigMap old, ConfigMap updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (Boolean.TRUE.equals(old.getImmutable())) {
            immutableWhenSet(updated.getImmutable(), old.getData(), updated.getData(), "data", causes);
            if (!sameMap(old.getBinaryData(), updated.getBinaryData())) {
                causes.add(Causes.forbidden("binaryData", IMMUTABLE_WHEN_SET));
            }
        }
        return causes;
    }

    static final String IMMUTABLE_WHEN_SET = "field is immutable when `immutable` is set";

    /** The checks ConfigMap and Secret share once immutable: it stays true, data stays the same. */
    static void immutableWhenSet(Boolean immutable, Map<String, ?> oldData, Map<String, ?> data, String field,
                                 List<StatusCause> causes) {
        if (!Boolean.TRUE.equals(immutable)) {
            causes.add(Causes.forbidden("immutable", IMMUTABLE_WHEN_SET));
        }
        if (!sameMap(oldData, data)) {
            causes.add(Causes.forbidden(field, IMMUTABLE_WHEN_SET));
        }
    }

    /** Equal maps, an empty map being absent (the stored form omits it, as Kubernetes' storage does). */
    static boolean sameMap(Map<String, ?> a, Map<String, ?> b) {
        return (a == null || a.isEmpty()) ? (b == null || b.isEmpty()) : a.equals(b);
    }

    /** field.TooLong: {@code data: Too long: may not be more than 1048576 bytes}. */
    static StatusCause tooLong(String field, int max) {
        return Causes.cause("FieldValueTooLong", field, field + ": Too long: may not be more than " + max + " bytes");
    }
}
