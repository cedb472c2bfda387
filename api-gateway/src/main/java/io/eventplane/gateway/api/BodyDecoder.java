package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.codec.DecodeException;
import io.eventplane.core.codec.Decoded;
import io.eventplane.core.codec.FieldError;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.Statuses;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/** Request bodies into typed objects, with Kubernetes' field validation and its error wording. */
final class BodyDecoder {
    private static final Set<String> OBJECT_TYPES = Set.of("application/json", "application/yaml", "text/yaml",
            "application/x-yaml");

    /** A decoded object and the field warnings to report (fieldValidation=Warn). */
    record Body<T>(T object, List<String> warnings) {
    }

    private BodyDecoder() {
    }

    /** {@code fieldValidation}: Strict, Warn (the default) or Ignore. */
    static FieldValidation mode(ApiRequest request) {
        String v = request.param("fieldValidation");
        if (v == null || v.isEmpty()) {
            return FieldValidation.WARN;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "strict" -> FieldValidation.STRICT;
            case "warn" -> FieldValidation.WARN;
            case "ignore" -> FieldValidation.IGNORE;
            default -> throw new ApiException(Statuses.badRequest("fieldValidation parameter unsupported: " + v));
        };
    }

    /** Create and update bodies: JSON, YAML or Kubernetes protobuf of the kind at the URL. */
    static Body<SpecificRecord> object(ApiRequest request, KindInfo kind) {
        String ct = request.contentType();
        byte[] body = request.body();
        if (ProtobufBodies.CONTENT_TYPE.equals(ct)) {
            // As the JSON kubectl would have sent, so that validation and its wording are the JSON path's.
            body = Json.bytes(ProtobufBodies.decode(body, kind));
        } else if (ct != null && !OBJECT_TYPES.contains(ct)) {
            throw new ApiException(Statuses.unsupportedMediaType(ct,
                    List.of("application/json", "application/yaml", "application/vnd.kubernetes.protobuf")));
        }
        if (body.length == 0) {
            throw new ApiException(Statuses.badRequest("the request body is empty; expected a " + kind.objectKind()));
        }
        List<String> warnings = new ArrayList<>();
        try {
            SpecificRecord object = KubeJson.get().parseObject(body, kind, mode(request), warnings);
            return new Body<>(object, warnings);
        } catch (DecodeException e) {
            throw new ApiException(decodeStatus(kind, e));
        }
    }

    /** A JSON tree (a patched object) into the kind. */
    static Body<SpecificRecord> tree(JsonNode json, KindInfo kind, FieldValidation mode) {
        try {
            Decoded<? extends SpecificRecord> d = KubeJson.get().decode(json, kind, mode);
            return new Body<>(d.value(), d.warnings());
        } catch (DecodeException e) {
            throw new ApiException(decodeStatus(kind, e));
        }
    }

    /**
     * 400 as kube-apiserver words it: {@code strict decoding error: unknown field "spec.foo"} for unknown fields,
     * {@code Pod in version "v1" cannot be handled as a Pod: ...} for type errors, a JSON parse error otherwise.
     */
    static KubeStatus decodeStatus(KindInfo kind, DecodeException e) {
        List<Cause> causes = new ArrayList<>();
        boolean allStrict = true;
        boolean malformed = false;
        for (FieldError f : e.errors()) {
            allStrict &= f.strict();
            malformed |= f.path().isEmpty();
            if (!f.path().isEmpty()) {
                causes.add(new Cause("FieldValueInvalid", f.describe(), f.path()));
            }
        }
        String message;
        if (allStrict) {
            message = e.getMessage();
        } else if (malformed) {
            message = "couldn't get version/kind; json parse error: " + e.getMessage();
        } else {
            message = kind.objectKind() + " in version \"" + kind.version() + "\" cannot be handled as a " + kind.objectKind()
                    + ": " + e.getMessage();
        }
        return Statuses.badRequest(message, causes);
    }
}
